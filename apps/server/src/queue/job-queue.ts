import { type JobName, type JobPayload, jobPayloads } from '@cellcloud/contracts';
import { PgBoss, type Job } from 'pg-boss';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { queueStatsRepo } from '../db/repos/queue-stats';
import { observeJob, sendTelemetry, splitTelemetry, TELEMETRY_FIELD } from '../telemetry/jobs';
import { initTracing } from '../telemetry/tracing';
import { bossDbFromDb } from './boss-db';
import { KIND_OF_JOB } from './kinds';

/** What a handler receives: the validated payload plus the queue's attempt bookkeeping. */
export interface JobContext<N extends JobName> {
  bossId: string;
  name: N;
  data: JobPayload<N>;
  /** 0 on the first attempt, then 1, 2 … (pg-boss retryCount). */
  attempt: number;
  /** True when a failure of this attempt is final (no retry left). */
  lastAttempt: boolean;
  /** Aborted when the queue stops or the job expires. */
  signal: AbortSignal;
}

export type JobHandler<N extends JobName> = (job: JobContext<N>) => Promise<void>;

export interface SendOptions {
  /** Keep at most one queued/active job with this key (pg-boss singletonKey). */
  singletonKey?: string;
  /** The queue job's id (a UUID), when the caller records it before sending. */
  id?: string;
  /** Expiry of this job instead of its queue's (analysis tasks: the definition's timeout). */
  expireInSeconds?: number;
}

/**
 * Expiry class of every job: `heavy` jobs (engine computations in the child process) may run for
 * JOB_TIMEOUT_MINUTES, `light` ones at most an hour. A Record over JobName, so a new job name
 * does not compile until it is classified (the old name list forgot analysis.subcluster).
 * `analysis.task` jobs are sent with their task definition's own timeout (SendOptions.expireInSeconds).
 */
export const JOB_WEIGHT: Record<JobName, 'heavy' | 'light'> = {
  'dataset.ingest': 'light',
  'analysis.preprocess': 'heavy',
  'analysis.run': 'heavy',
  'analysis.deg': 'heavy',
  'analysis.subcluster': 'heavy',
  'analysis.task': 'heavy',
  'download.export': 'light',
  'public.ingest': 'heavy',
  'system.noop': 'light',
};

/** Per-queue settings: retries and expiry (timeout); heavy jobs also require heartbeats. */
function queueOptions(name: JobName, config: Config) {
  const heavy = JOB_WEIGHT[name] === 'heavy';
  return {
    retryLimit: name === 'system.noop' ? 1 : 2,
    retryDelay: 1,
    expireInSeconds: heavy ? config.jobTimeoutSeconds : Math.min(config.jobTimeoutSeconds, 3600),
    heartbeatSeconds: config.jobHeartbeatSeconds,
    deleteAfterSeconds: 7 * 24 * 3600,
  };
}

/**
 * The typed job queue (pg-boss 12 on the application database). PostgreSQL: pg-boss gets the
 * connection string and its own small pool. PGlite: pg-boss talks through our serialized `Db`.
 * `work` runs handlers with `config.workerConcurrency` parallel jobs per queue in this process.
 */
export class JobQueue {
  readonly boss: PgBoss;
  private started = false;
  /** Handlers running in this process (awaited when the queue stops). */
  private readonly running = new Set<Promise<void>>();
  /** True from `stop` on: no new job is taken (worker readiness answers 503). */
  draining = false;

  constructor(
    private readonly config: Config,
    private readonly db: Db,
    opts: { supervise?: boolean } = {},
  ) {
    initTracing(config.otel);
    const common = {
      schema: 'pgboss',
      supervise: opts.supervise ?? true,
      superviseIntervalSeconds: config.queueSuperviseSeconds,
      schedule: false,
    };
    this.boss =
      db.kind === 'postgres' && config.databaseUrl
        ? new PgBoss({ ...common, connectionString: config.databaseUrl, max: 4 })
        : new PgBoss({ ...common, db: bossDbFromDb(db), backend: 'pglite' });
    // pg-boss reports background errors (e.g. a poll that failed) as events; log, never crash.
    this.boss.on('error', (e) => {
      if (config.logLevel !== 'silent') console.error('[queue]', e);
    });
  }

  async start(): Promise<void> {
    if (this.started) return;
    await this.boss.start();
    for (const name of Object.keys(jobPayloads) as JobName[]) {
      const existing = await this.boss.getQueue(name);
      if (!existing) await this.boss.createQueue(name, queueOptions(name, this.config));
    }
    this.started = true;
  }

  /**
   * Enqueue a job; the payload is validated against the job map. Returns pg-boss's job id. The
   * job is grouped by the user it works for (the per-user cap of fair queues) and carries the
   * sender's trace context and send time (src/telemetry/jobs.ts).
   */
  async send<N extends JobName>(name: N, payload: z_in<N>, opts: SendOptions = {}): Promise<string> {
    const data = jobPayloads[name].parse(payload) as Record<string, unknown>;
    const owner = await queueStatsRepo.ownerOf(this.db, name, data);
    const id = await this.boss.send(
      name,
      { ...data, [TELEMETRY_FIELD]: sendTelemetry() },
      {
        ...(owner ? { group: { id: owner } } : {}),
        ...(opts.singletonKey ? { singletonKey: opts.singletonKey } : {}),
        ...(opts.id ? { id: opts.id } : {}),
        ...(opts.expireInSeconds ? { expireInSeconds: opts.expireInSeconds } : {}),
      },
    );
    if (!id) throw new Error(`job ${name} was not queued (an identical one is already waiting)`);
    return id;
  }

  /**
   * Process jobs of `name` in this process: `concurrency` (default: its kind of work's
   * QUEUE_CONCURRENCY_<KIND>, src/queue/kinds.ts) parallel fetch loops, at most
   * USER_MAX_RUNNING_JOBS of one user's jobs of this name running at once across every worker (pg-boss group
   * concurrency); `batchSize` > 1 (for short jobs) fetches several per poll and settles each job
   * on its own outcome, so one failure retries only that job. Every attempt is observed (metrics,
   * trace spans: src/telemetry/jobs.ts).
   */
  async work<N extends JobName>(
    name: N,
    handler: JobHandler<N>,
    opts: { concurrency?: number; batchSize?: number } = {},
  ): Promise<void> {
    const queue = await this.boss.getQueue(name);
    const retryLimit = queue?.retryLimit ?? 0;
    const run = (job: Job<object>): Promise<void> => {
      const { payload, telemetry } = splitTelemetry(job.data);
      const ctx: JobContext<N> = {
        bossId: job.id,
        name,
        data: jobPayloads[name].parse(payload) as JobPayload<N>,
        attempt: job.retryCount,
        lastAttempt: job.retryCount >= retryLimit,
        signal: job.signal,
      };
      const p = observeJob(name, job.id, job.retryCount, telemetry, () => handler(ctx));
      this.running.add(p);
      void p.catch(() => {}).finally(() => this.running.delete(p));
      return p;
    };
    const localConcurrency = Math.max(
      1,
      opts.concurrency ?? this.config.queues.concurrency[KIND_OF_JOB[name]],
    );
    const cap = this.config.queues.userMaxRunning;
    const fair = cap > 0 ? { groupConcurrency: cap } : {};
    const batchSize = Math.max(1, opts.batchSize ?? 1);
    if (batchSize === 1) {
      await this.boss.work<object>(
        name,
        { localConcurrency, pollingIntervalSeconds: 0.5, batchSize: 1, ...fair },
        async ([job]: Job<object>[]) => {
          await run(job!);
        },
      );
      return;
    }
    await this.boss.work<object>(
      name,
      { localConcurrency, pollingIntervalSeconds: 0.5, batchSize, perJobResults: true, ...fair },
      async (jobs: Job<object>[]) => {
        const outcomes = await Promise.allSettled(jobs.map((j) => run(j)));
        return outcomes.map((o, i) => ({
          id: jobs[i]!.id,
          status: o.status === 'fulfilled' ? ('completed' as const) : ('failed' as const),
          output:
            o.status === 'rejected'
              ? { message: String((o.reason as Error)?.message ?? o.reason) }
              : undefined,
        }));
      },
    );
  }

  /** Cancel a queued or running job (used by suspend/delete). */
  async cancel(name: JobName, bossId: string): Promise<void> {
    await this.boss.cancel(name, bossId).catch(() => {});
  }

  async state(name: JobName, bossId: string): Promise<string | undefined> {
    const j = await this.boss.getJobById(name, bossId);
    return j?.state;
  }

  async check(): Promise<{ ok: boolean; detail?: string }> {
    try {
      await this.boss.getQueues();
      return { ok: true };
    } catch (e) {
      return { ok: false, detail: (e as Error).message };
    }
  }

  /** Jobs this process is running now. */
  get runningJobs(): number {
    return this.running.size;
  }

  /**
   * Stop polling (no new job is taken); running handlers get `drainSeconds` to finish (the worker
   * entry's SIGTERM drain passes WORKER_DRAIN_SECONDS, issue 34). Past that, pg-boss fails the jobs
   * still running (each is retried, by another worker, as its queue's retry) and aborts their
   * signals: the child processes are killed, and an analysis resumes from its last checkpoint.
   * Those handlers are given a little time to hand their job rows back before the pool closes.
   */
  async stop(graceful = true, drainSeconds = 10): Promise<void> {
    if (!this.started) return;
    this.started = false;
    this.draining = true;
    await this.boss.stop({ graceful, timeout: drainSeconds * 1000, close: false });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.running]),
      new Promise((r) => (timer = setTimeout(r, 15_000))),
    ]);
    clearTimeout(timer);
    await this.boss.stop({ close: true });
  }
}

type z_in<N extends JobName> = import('zod').input<(typeof jobPayloads)[N]>;
