import { context, SpanKind, trace } from '@opentelemetry/api';
import type { JobName } from '@cellcloud/contracts';
import { KIND_OF_JOB } from '../queue/kinds';
import { jobDuration, jobOutcomes, jobWait } from './metrics';
import { contextFrom, endSpan, traceCarrier, tracer } from './tracing';

/**
 * What the queue adds to a job's data beside its payload (src/queue/job-queue.ts): when it was
 * sent (queue wait) and the sender's W3C trace context. The handler never sees it.
 */
export const TELEMETRY_FIELD = '_telemetry';

export interface JobTelemetry {
  sentAt: number;
  trace?: Record<string, string>;
}

/** The telemetry of a job being sent from the current context (an HTTP request's span, a job's). */
export function sendTelemetry(): JobTelemetry {
  const carrier = traceCarrier();
  return { sentAt: Date.now(), ...(carrier.traceparent ? { trace: carrier } : {}) };
}

/** Splits a stored job's data into its payload and the telemetry the queue added. */
export function splitTelemetry(data: object): { payload: object; telemetry?: JobTelemetry } {
  const { [TELEMETRY_FIELD]: telemetry, ...payload } = data as Record<string, unknown>;
  return { payload, telemetry: telemetry as JobTelemetry | undefined };
}

/**
 * Runs one job attempt with its telemetry: a `queue.wait` span (sent → started) and a `job <name>`
 * span around the handler, both children of the sender's context; the handler (and the child
 * process it forks) runs inside the job span. Durations and outcomes go to the job series.
 */
export async function observeJob<T>(
  name: JobName,
  bossId: string,
  attempt: number,
  telemetry: JobTelemetry | undefined,
  run: () => Promise<T>,
): Promise<T> {
  const kind = KIND_OF_JOB[name];
  const parent = contextFrom(telemetry?.trace);
  const started = Date.now();
  if (telemetry?.sentAt) {
    const waited = Math.max(0, started - telemetry.sentAt);
    // a retried attempt waited since its previous failure, not since the send: only the first counts
    if (attempt === 0) jobWait.observe({ job: name, kind }, waited / 1000);
    tracer()
      .startSpan(
        `queue.wait ${name}`,
        { kind: SpanKind.INTERNAL, startTime: telemetry.sentAt, attributes: { 'cellcloud.job': name } },
        parent,
      )
      .end(started);
  }
  const span = tracer().startSpan(
    `job ${name}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'cellcloud.job': name,
        'cellcloud.job.kind': kind,
        'cellcloud.job.id': bossId,
        'cellcloud.job.attempt': attempt,
      },
    },
    parent,
  );
  const done = (outcome: 'completed' | 'failed') => {
    const labels = { job: name, kind, outcome };
    jobDuration.observe(labels, (Date.now() - started) / 1000);
    jobOutcomes.inc(labels);
  };
  try {
    const out = await context.with(trace.setSpan(parent, span), run);
    done('completed');
    endSpan(span);
    return out;
  } catch (e) {
    done('failed');
    endSpan(span, e);
    throw e;
  }
}
