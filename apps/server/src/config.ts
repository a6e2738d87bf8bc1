import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/**
 * Configuration from environment variables, validated once at start. A bad value stops the
 * process with a message naming the variable and what is expected.
 */
const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /**
   * Address the HTTP server listens on. `localhost` (default): this machine only, IPv4 and IPv6
   * loopback; `0.0.0.0` / `::` every interface (other machines, containers: deploy/Containerfile
   * sets 0.0.0.0); or one address of this machine.
   */
  HOST: z.string().trim().min(1, 'must be an address or host name of this machine').default('localhost'),
  CELLCLOUD_DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  PUBLIC_BASE_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  CN_DOMAIN: z.string().optional(),
  INTL_DOMAIN: z.string().optional(),
  TRUST_PROXY: z.string().optional(),
  /** Directory of per-release gene lists for the Ensembl-release file property (see README). */
  ENSEMBL_GENE_LISTS_DIR: z.string().optional(),
  /** Root of the analysis tasks' reference resources (gene sets, CellPhoneDB, …); see README. */
  CELLCLOUD_RESOURCES_DIR: z.string().optional(),
  DEFAULT_COUNTRY: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'must be a two-letter ISO country code')
    .default('US'),
  SUPPORT_EMAIL: z
    .email()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SMTP_HOST: z.string().optional(),
  SMTP_PORT: z.coerce.number().int().optional(),
  SMTP_SECURE: bool,
  SMTP_USER: z.string().optional(),
  SMTP_PASS: z.string().optional(),
  SMTP_FROM: z.string().default('CellCloud <no-reply@cellcloud.local>'),
  TOKEN_TTL_HOURS: z.coerce
    .number()
    .positive()
    .default(24 * 7),
  STORAGE_QUOTA_GB: z.coerce.number().positive().default(50),
  /** Days a converted download stays available after approval (docs/product/states.md#downloads, docs/product/limits.md#time-limits: 7). */
  DOWNLOAD_VALID_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  /** Minutes a download link works after the list showing it was loaded (tied to the session; issue 34). */
  DOWNLOAD_LINK_MINUTES: z.coerce.number().int().min(1).max(1440).default(30),
  /** How often each worker deletes expired downloads. */
  DOWNLOAD_SWEEP_SECONDS: z.coerce.number().int().min(1).default(600),
  S3_ENDPOINT: z.string().optional(),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool,
  WORKER_CONCURRENCY: z.coerce.number().int().min(0).default(1),
  /** Memory budget of one analysis child process (MiB); bigger estimates are refused up front. */
  WORKER_MEMORY_MB: z.coerce.number().int().min(256).default(8192),
  /**
   * Analyses of at least this many input cells run out of core (count stores, streamed engine;
   * docs/engine-scaling.md "Out-of-core path"). Default: the engine's STREAMED_MIN_CELLS. Tests lower it.
   */
  CELLCLOUD_STREAMED_MIN_CELLS: z.coerce.number().int().min(0).optional(),
  /** Upload parsing (issue 12): heap of the parse child (MiB; default the smaller of WORKER_MEMORY_MB and 4096). */
  INGEST_MEMORY_MB: z.coerce.number().int().min(256).optional(),
  /** Most bytes one decompressed stream of an upload may expand to (GB). */
  INGEST_MAX_DECOMPRESSED_GB: z.coerce.number().positive().default(64),
  /** Most stored entries (non-zeros) a matrix may declare. */
  INGEST_MAX_ENTRIES: z.coerce.number().int().positive().default(2_000_000_000),
  /** A parse still running after this long is stopped (a damaged HDF5 file can loop forever in the library). */
  INGEST_TIMEOUT_MINUTES: z.coerce.number().positive().default(60),
  /** Parse attempts of an upload (crashes, restarts) before it fails for good. */
  INGEST_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(3),
  /** A job running longer than this is failed/retried by the queue. */
  JOB_TIMEOUT_MINUTES: z.coerce.number().positive().default(360),
  /** A worker that stops sending heartbeats for this long is considered dead (min 10). */
  JOB_HEARTBEAT_SECONDS: z.coerce.number().int().min(10).default(30),
  /** SIGTERM drain (issue 34): seconds running jobs get to finish before they are handed back to the queue (Helm: terminationGracePeriodSeconds above it). */
  WORKER_DRAIN_SECONDS: z.coerce.number().int().min(1).default(120),
  /** How often the queue supervisor looks for expired/dead jobs. */
  QUEUE_SUPERVISE_SECONDS: z.coerce.number().int().min(1).default(30),
  /** Fair queues (issue 34): parallel jobs per job name of each kind of work (src/queue/kinds.ts); unset = WORKER_CONCURRENCY (parsing: at least 2). */
  QUEUE_CONCURRENCY_PARSING: z.coerce.number().int().min(1).optional(),
  QUEUE_CONCURRENCY_ANALYSES: z.coerce.number().int().min(1).optional(),
  QUEUE_CONCURRENCY_TASKS: z.coerce.number().int().min(1).optional(),
  QUEUE_CONCURRENCY_EXPORTS: z.coerce.number().int().min(1).optional(),
  QUEUE_CONCURRENCY_PUBLIC_INGEST: z.coerce.number().int().min(1).optional(),
  /** Most jobs of one user running at once per job name (pg-boss group concurrency), across every worker (0 = no cap). */
  USER_MAX_RUNNING_JOBS: z.coerce.number().int().min(0).default(2),
  /** Parse budget: wall-clock seconds every upload gets, plus its input's time at INGEST_BUDGET_MB_PER_SECOND. */
  INGEST_BUDGET_BASE_SECONDS: z.coerce.number().positive().default(60),
  /** Parse budget: decompressed MB per second a parse must sustain (input assumed to expand up to 10x). */
  INGEST_BUDGET_MB_PER_SECOND: z.coerce.number().positive().default(4),
  /** `/metrics` requires `Authorization: Bearer <token>` when set. */
  METRICS_TOKEN: z.string().optional(),
  /** A worker-only process (`npm run worker`) serves its /metrics on this port; unset = not served. */
  WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** How often `/metrics` recounts the storage bytes by area (listing a large bucket is slow). */
  METRICS_STORAGE_SECONDS: z.coerce.number().int().min(0).default(300),
  /** OpenTelemetry: traces are exported over OTLP/HTTP to this endpoint; unset = no export. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  OTEL_SERVICE_NAME: z.string().default('cellcloud'),
  IN_PROCESS_WORKER: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  WEB_DIST_DIR: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  const dataDir = path.resolve(c.CELLCLOUD_DATA_DIR);
  return {
    port: c.PORT,
    host: c.HOST,
    dataDir,
    databaseUrl: c.DATABASE_URL,
    publicBaseUrl: c.PUBLIC_BASE_URL,
    domains: { cn: c.CN_DOMAIN, intl: c.INTL_DOMAIN },
    trustProxy: c.TRUST_PROXY,
    defaultCountry: c.DEFAULT_COUNTRY.toUpperCase(),
    geneListsDir: c.ENSEMBL_GENE_LISTS_DIR ? path.resolve(c.ENSEMBL_GENE_LISTS_DIR) : defaultGeneListsDir(),
    resourcesDir: c.CELLCLOUD_RESOURCES_DIR
      ? path.resolve(c.CELLCLOUD_RESOURCES_DIR)
      : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/data'),
    supportEmail: c.SUPPORT_EMAIL,
    smtp: c.SMTP_HOST
      ? {
          host: c.SMTP_HOST,
          port: c.SMTP_PORT ?? 587,
          secure: c.SMTP_SECURE,
          user: c.SMTP_USER,
          pass: c.SMTP_PASS,
        }
      : undefined,
    mailFrom: c.SMTP_FROM,
    tokenTtlMs: c.TOKEN_TTL_HOURS * 3600_000,
    storageQuotaBytes: Math.round(c.STORAGE_QUOTA_GB * 1024 ** 3),
    downloadValidDays: c.DOWNLOAD_VALID_DAYS,
    downloadSweepSeconds: c.DOWNLOAD_SWEEP_SECONDS,
    downloadLinkMinutes: c.DOWNLOAD_LINK_MINUTES,
    s3: c.S3_BUCKET
      ? {
          endpoint: c.S3_ENDPOINT,
          bucket: c.S3_BUCKET,
          region: c.S3_REGION,
          accessKeyId: c.S3_ACCESS_KEY_ID,
          secretAccessKey: c.S3_SECRET_ACCESS_KEY,
          forcePathStyle: c.S3_FORCE_PATH_STYLE,
        }
      : undefined,
    workerConcurrency: c.WORKER_CONCURRENCY,
    workerMemoryBytes: c.WORKER_MEMORY_MB * 1024 * 1024,
    streamedMinCells: c.CELLCLOUD_STREAMED_MIN_CELLS,
    ingest: {
      memoryBytes: (c.INGEST_MEMORY_MB ?? Math.min(c.WORKER_MEMORY_MB, 4096)) * 1024 * 1024,
      maxDecompressedBytes: Math.round(c.INGEST_MAX_DECOMPRESSED_GB * 1024 ** 3),
      maxEntries: c.INGEST_MAX_ENTRIES,
      maxAttempts: c.INGEST_MAX_ATTEMPTS,
      timeoutMs: Math.round(c.INGEST_TIMEOUT_MINUTES * 60_000),
      budgetBaseMs: Math.round(c.INGEST_BUDGET_BASE_SECONDS * 1000),
      budgetBytesPerSecond: c.INGEST_BUDGET_MB_PER_SECOND * 1024 * 1024,
    },
    queues: {
      concurrency: {
        parsing: c.QUEUE_CONCURRENCY_PARSING ?? Math.max(2, c.WORKER_CONCURRENCY),
        analyses: c.QUEUE_CONCURRENCY_ANALYSES ?? Math.max(1, c.WORKER_CONCURRENCY),
        tasks: c.QUEUE_CONCURRENCY_TASKS ?? Math.max(1, c.WORKER_CONCURRENCY),
        exports: c.QUEUE_CONCURRENCY_EXPORTS ?? Math.max(1, c.WORKER_CONCURRENCY),
        publicIngest: c.QUEUE_CONCURRENCY_PUBLIC_INGEST ?? Math.max(1, c.WORKER_CONCURRENCY),
        system: Math.max(1, c.WORKER_CONCURRENCY),
      },
      userMaxRunning: c.USER_MAX_RUNNING_JOBS,
    },
    metrics: {
      token: c.METRICS_TOKEN || undefined,
      storageSeconds: c.METRICS_STORAGE_SECONDS,
      workerPort: c.WORKER_METRICS_PORT,
    },
    otel: { endpoint: c.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: c.OTEL_SERVICE_NAME },
    jobTimeoutSeconds: Math.round(c.JOB_TIMEOUT_MINUTES * 60),
    jobHeartbeatSeconds: c.JOB_HEARTBEAT_SECONDS,
    workerDrainSeconds: c.WORKER_DRAIN_SECONDS,
    queueSuperviseSeconds: c.QUEUE_SUPERVISE_SECONDS,
    inProcessWorker: c.IN_PROCESS_WORKER,
    webDistDir: c.WEB_DIST_DIR ? path.resolve(c.WEB_DIST_DIR) : undefined,
    logLevel: c.LOG_LEVEL,
  };
}

export class ConfigError extends Error {}

/** For entry points: the validated config, or exit 2 with the message naming the bad variables. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
}

/**
 * Runtime reference resources are configured by path; when ENSEMBL_GENE_LISTS_DIR is not set and
 * the public reference data sits beside the checkout (`../shared/data/gene_ids`, as in
 * development and CI), that folder is used, so a fresh `npm start` shows Ensembl releases.
 */
function defaultGeneListsDir(): string | undefined {
  const beside = path.resolve(
    path.dirname(fileURLToPath(import.meta.url)),
    '../../../../shared/data/gene_ids',
  );
  return existsSync(beside) ? beside : undefined;
}
