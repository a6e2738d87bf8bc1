import { context, SpanKind, trace } from '@opentelemetry/api';
import type { Config } from '../config';
import { observeChildPeak } from './metrics';
import { contextFrom, endSpan, flushTraces, initTracing, traceCarrier, tracer } from './tracing';

/**
 * Telemetry of a job's child process (src/jobs/runner-child-process.ts), parent side: a
 * `child <entry>` span under the running job's span from fork to exit, the trace context handed
 * to the child as TRACEPARENT / TRACESTATE, and the child's peak RSS (its own
 * `process.resourceUsage().maxRSS`, reported with its outcome) as a span attribute and metric.
 */
export interface ChildTelemetry {
  /** Environment variables that carry the trace into the child. */
  env: Record<string, string>;
  /** The child ended: its peak RSS in KiB when it reported one, the error it failed with. */
  done(maxRssKib: number | undefined, error?: unknown): void;
}

export function childTelemetry(entry: string, id: string): ChildTelemetry {
  const span = tracer().startSpan(`child ${entry}`, {
    kind: SpanKind.INTERNAL,
    attributes: { 'cellcloud.child.entry': entry, 'cellcloud.child.id': id },
  });
  const carrier = traceCarrier(trace.setSpan(context.active(), span));
  let ended = false;
  return {
    env: {
      ...(carrier.traceparent ? { TRACEPARENT: carrier.traceparent } : {}),
      ...(carrier.tracestate ? { TRACESTATE: carrier.tracestate } : {}),
    },
    done(maxRssKib, error) {
      if (ended) return;
      ended = true;
      if (maxRssKib) {
        observeChildPeak(entry, maxRssKib);
        span.setAttribute('process.peak_rss_bytes', maxRssKib * 1024);
      }
      endSpan(span, error ?? undefined);
    },
  };
}

/**
 * Child side: runs the entry inside a `child.run <entry>` span continuing the parent's trace
 * (TRACEPARENT) when OTLP export is configured, and exports it before the outcome is reported.
 */
export async function runChildTraced<T>(config: Config, entry: string, fn: () => Promise<T>): Promise<T> {
  if (!config.otel.endpoint || !process.env.TRACEPARENT) return fn();
  initTracing(config.otel);
  const parent = contextFrom({ traceparent: process.env.TRACEPARENT, tracestate: process.env.TRACESTATE });
  const span = tracer().startSpan(`child.run ${entry}`, { kind: SpanKind.INTERNAL }, parent);
  try {
    const out = await context.with(trace.setSpan(parent, span), fn);
    endSpan(span);
    return out;
  } catch (e) {
    endSpan(span, e);
    throw e;
  } finally {
    await flushTraces().catch(() => {});
  }
}

/** The peak resident memory of this process so far, in KiB (reported by a child with its outcome). */
export const peakRssKib = () => process.resourceUsage().maxRSS;
