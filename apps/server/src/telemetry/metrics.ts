import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's Prometheus series (served at `/metrics` by src/http/metrics.ts). One registry per
 * process: HTTP latency by route pattern, the jobs this process ran (durations, outcomes, the child
 * process's peak memory) and gauges refreshed on each scrape from the database (queue depth and
 * age by kind of work — every worker's jobs, as pg-boss keeps them) and from storage (bytes by area).
 * Names follow Prometheus conventions: seconds and bytes, `_total` for counters.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'cellcloud_' });

export const httpDuration = new Histogram({
  name: 'cellcloud_http_request_duration_seconds',
  help: 'HTTP request latency by method, route pattern and status code',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

export const queueDepth = new Gauge({
  name: 'cellcloud_queue_jobs',
  help: 'Jobs in the queue by job name, kind of work and state (created = waiting, retry, active = running)',
  labelNames: ['job', 'kind', 'state'] as const,
  registers: [registry],
});

export const queueOldestAge = new Gauge({
  name: 'cellcloud_queue_oldest_waiting_seconds',
  help: 'Age of the oldest waiting (created or retry) job by job name and kind of work',
  labelNames: ['job', 'kind'] as const,
  registers: [registry],
});

export const analysisJobs = new Gauge({
  name: 'cellcloud_analysis_jobs',
  help: 'Analysis jobs of every worker by kind (custom, integrated, subcluster, …) and status (queued, running, completed, error, …), from the database',
  labelNames: ['kind', 'status'] as const,
  registers: [registry],
});

export const jobDuration = new Histogram({
  name: 'cellcloud_job_duration_seconds',
  help: 'Wall time of the job attempts this process ran, by job name, kind of work and outcome',
  labelNames: ['job', 'kind', 'outcome'] as const,
  buckets: [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200],
  registers: [registry],
});

export const jobOutcomes = new Counter({
  name: 'cellcloud_jobs_total',
  help: 'Job attempts this process finished, by job name, kind of work and outcome (completed, failed)',
  labelNames: ['job', 'kind', 'outcome'] as const,
  registers: [registry],
});

export const jobWait = new Histogram({
  name: 'cellcloud_job_queue_wait_seconds',
  help: 'Time a job waited in the queue before this process started it, by job name and kind of work',
  labelNames: ['job', 'kind'] as const,
  buckets: [0.1, 0.5, 1, 5, 15, 30, 60, 300, 900, 3600],
  registers: [registry],
});

export const childPeakMemory = new Histogram({
  name: 'cellcloud_child_peak_rss_bytes',
  help: 'Peak resident memory of the job child processes this process forked, by child entry',
  labelNames: ['entry'] as const,
  buckets: [128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768].map((m) => m * 1024 * 1024),
  registers: [registry],
});

export const childPeakMemoryMax = new Gauge({
  name: 'cellcloud_child_peak_rss_max_bytes',
  help: 'Largest peak resident memory of a job child process seen by this process, by child entry',
  labelNames: ['entry'] as const,
  registers: [registry],
});

export const storageBytes = new Gauge({
  name: 'cellcloud_storage_bytes',
  help: 'Bytes in the configured storage by area (raw uploads, datasets, results, downloads, …)',
  labelNames: ['area'] as const,
  registers: [registry],
});

export const scrapeErrors = new Counter({
  name: 'cellcloud_metrics_collect_errors_total',
  help: 'Scrapes whose database or storage gauges could not be refreshed, by source',
  labelNames: ['source'] as const,
  registers: [registry],
});

const childMax = new Map<string, number>();

/** Records a child process's peak RSS (from its `process.resourceUsage().maxRSS`, in KiB). */
export function observeChildPeak(entry: string, maxRssKib: number): void {
  const bytes = maxRssKib * 1024;
  childPeakMemory.observe({ entry }, bytes);
  if (bytes > (childMax.get(entry) ?? 0)) {
    childMax.set(entry, bytes);
    childPeakMemoryMax.set({ entry }, bytes);
  }
}
