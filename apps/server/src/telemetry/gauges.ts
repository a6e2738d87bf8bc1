import { jobPayloads, type JobName } from '@cellcloud/contracts';
import type { AppContext } from '../context';
import { queueStatsRepo } from '../db/repos/queue-stats';
import { kindOfName } from '../queue/kinds';
import { analysisJobs, queueDepth, queueOldestAge, scrapeErrors, storageBytes } from './metrics';

/** Top-level storage areas (src/storage/keys.ts), counted for `cellcloud_storage_bytes`. */
const STORAGE_AREAS = [
  'raw',
  'datasets',
  'results',
  'downloads',
  'preprocess',
  'explore',
  'public',
  'videos',
  'tmp',
];
const STATES = ['created', 'retry', 'active'] as const;

/** When each storage (one per context) was last counted, and the count under way. */
const storageCounts = new WeakMap<object, { at: number; running?: Promise<void> }>();

/**
 * Refreshes the gauges read from shared state at scrape time: the queue (every worker's jobs, from
 * pg-boss's table) and the storage bytes by area — recounted at most every
 * METRICS_STORAGE_SECONDS in the background (listing a large bucket is slow); the first scrape
 * (every scrape when it is 0) waits for the count, so the series exist.
 */
export async function refreshGauges(ctx: AppContext): Promise<void> {
  try {
    const rows = await queueStatsRepo.byState(ctx.db);
    queueDepth.reset();
    queueOldestAge.reset();
    for (const name of Object.keys(jobPayloads) as JobName[]) {
      const kind = kindOfName(name);
      for (const state of STATES) queueDepth.set({ job: name, kind, state }, 0);
      queueOldestAge.set({ job: name, kind }, 0);
    }
    const oldest = new Map<string, number>();
    for (const r of rows) {
      queueDepth.set({ job: r.name, kind: kindOfName(r.name), state: r.state }, r.jobs);
      if (r.state !== 'active') oldest.set(r.name, Math.max(oldest.get(r.name) ?? 0, r.oldest_seconds));
    }
    for (const [name, age] of oldest) queueOldestAge.set({ job: name, kind: kindOfName(name) }, age);
    analysisJobs.reset();
    for (const r of await queueStatsRepo.analysisJobs(ctx.db))
      analysisJobs.set({ kind: r.kind, status: r.status }, r.jobs);
  } catch {
    scrapeErrors.inc({ source: 'queue' });
  }
  const count = storageCounts.get(ctx.storage) ?? { at: 0 };
  storageCounts.set(ctx.storage, count);
  const stale = Date.now() - count.at >= ctx.config.metrics.storageSeconds * 1000;
  if (stale && !count.running) {
    const wait = count.at === 0 || ctx.config.metrics.storageSeconds === 0;
    count.running = countStorage(ctx).finally(() => {
      count.at = Date.now();
      count.running = undefined;
    });
    if (wait) await count.running;
  }
}

async function countStorage(ctx: AppContext): Promise<void> {
  try {
    for (const area of STORAGE_AREAS) storageBytes.set({ area }, await ctx.storage.usage(`${area}/`));
  } catch {
    scrapeErrors.inc({ source: 'storage' });
  }
}
