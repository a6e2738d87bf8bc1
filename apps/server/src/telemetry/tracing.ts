import {
  context,
  propagation,
  ROOT_CONTEXT,
  trace,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/**
 * OpenTelemetry traces (issue 34): one trace follows a job from the HTTP request through the
 * queue (the W3C trace context travels in the job's data), the worker and the child process (as
 * the `TRACEPARENT` environment variable). Spans are exported over OTLP/HTTP when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` is configured; otherwise nothing is registered and every span is
 * the API's no-op span (no cost, no export). Tests add an in-memory exporter with
 * `addSpanExporter`. The provider, context manager and propagator are process-wide (registered
 * once, on first use).
 */
const processors: SpanProcessor[] = [];
const endpoints = new Set<string>();
let registered = false;

/** Hands every span to the processors added so far (they can be added after registration). */
const fanOut: SpanProcessor = {
  onStart: (span, ctx) => processors.forEach((p) => p.onStart(span, ctx)),
  onEnd: (span: ReadableSpan) => processors.forEach((p) => p.onEnd(span)),
  forceFlush: async () => void (await Promise.all(processors.map((p) => p.forceFlush()))),
  shutdown: async () => void (await Promise.all(processors.map((p) => p.shutdown()))),
};

function register(serviceName: string): void {
  if (registered) return;
  registered = true;
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [fanOut],
  });
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
}

/** Starts exporting to the configured OTLP endpoint (once per endpoint per process); no endpoint = nothing. */
export function initTracing(otel: { endpoint?: string; serviceName: string }): void {
  if (!otel.endpoint || endpoints.has(otel.endpoint)) return;
  endpoints.add(otel.endpoint);
  register(otel.serviceName);
  const url = `${otel.endpoint.replace(/\/+$/, '')}/v1/traces`;
  processors.push(new BatchSpanProcessor(new OTLPTraceExporter({ url })));
}

/** Adds an exporter that receives every finished span at once (tests: InMemorySpanExporter). */
export function addSpanExporter(exporter: SpanExporter, serviceName = 'cellcloud'): () => void {
  register(serviceName);
  const p = new SimpleSpanProcessor(exporter);
  processors.push(p);
  return () => {
    const i = processors.indexOf(p);
    if (i >= 0) processors.splice(i, 1);
  };
}

/** Exports what is buffered (before a process exits). */
export async function flushTraces(): Promise<void> {
  await fanOut.forceFlush();
}

export const tracingEnabled = () => registered;

export const tracer = (): Tracer => trace.getTracer('cellcloud');

/** The W3C trace headers (`traceparent`, `tracestate`) of a context; empty when not tracing. */
export function traceCarrier(ctx: Context = context.active()): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return carrier;
}

/** The context a carrier (job data, child environment, request headers) continues. */
export function contextFrom(carrier: Record<string, unknown> | undefined): Context {
  if (!carrier) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, carrier, {
    get: (c, k) => {
      const v = (c as Record<string, unknown>)[k];
      return typeof v === 'string' || Array.isArray(v) ? (v as string | string[]) : undefined;
    },
    keys: (c) => Object.keys(c as object),
  });
}

/** Ends a span with the outcome of its work: an error status and the message when it threw. */
export function endSpan(span: Span, error?: unknown): void {
  if (error !== undefined) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: 2, message: error instanceof Error ? error.message : String(error) });
  }
  span.end();
}
