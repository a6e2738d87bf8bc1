// Server test files that `npm test` runs on PGlite only (the PostgreSQL stage leaves them out with
// `--exclude`; run by hand with CELLCLOUD_TEST_DB=postgres they still run there).
//
// The rule (README, "Tests and benchmarks"): every server file runs on both databases, except a
// file whose time goes to the engine (real analyses, exports, task runs) and whose SQL is run on
// PostgreSQL by other files. PGlite is PostgreSQL's own code compiled to WebAssembly: the SQL
// means the same on both. What differs is the connection: PGlite is one connection behind a FIFO
// mutex (apps/server/src/db/pglite.ts), PostgreSQL a pool, so transactions, row locks
// (`FOR UPDATE`), advisory locks and the pg-boss queue only meet real concurrency on PostgreSQL.
// The files below keep those on PostgreSQL through the files named beside each.
//
// Seven files decide it themselves and skip their whole describe on PostgreSQL (listed at the end
// of PGLITE_ONLY, so that the stage does not import them only to skip them: loading the seven,
// with the Rscript and python probes at their top, took 80 s of wall for 35 CPU s (load 4.5..7.6)).
// Two files skip on PGlite instead (POSTGRES_ONLY: the PGlite stage leaves them out the same way).
export const PGLITE_ONLY = [
  // a real pbmc3k analysis through the queue (99 s); the queue's SQL and locking on PostgreSQL:
  // jobs-queue, jobs-cache and jobs-cache-identity (reuse of an identical submission), jobs-events,
  // fair-queues
  'apps/server/test/jobs-analysis.test.ts',
  // the public.ingest job analyses pbmc3k up to three times (152 s); the catalogue's SQL and the
  // version swap under `FOR UPDATE` on PostgreSQL: public-datasets, public-catalogue
  'apps/server/test/public-ingest-job.test.ts',
  // tables and figures export children on a pbmc3k result (54 s); the downloads' requests,
  // approval and expiry on PostgreSQL: downloads, download-annotation-levels
  'apps/server/test/download-tables-figures.test.ts',
  // two pbmc3k analyses in child processes, one killed after the PCA and resumed; it opens no
  // database at all, so a second run on PostgreSQL would repeat the same bytes
  'apps/server/test/jobs-checkpoint.test.ts',
  // pbmc3k's first 800 cells analysed out of core in the job and in memory beside it; the job's
  // queue SQL is the ordinary analysis job's (see jobs-analysis above), and the streamed path
  // opens no database of its own (scratch count store, storage)
  'apps/server/test/jobs-analysis-streamed.test.ts',
  // h5ad and methods-report exports of a curated level (48 s); shares and level history on
  // PostgreSQL: sharing-matrix, annotation-history (with the concurrent-save conflict)
  'apps/server/test/sharing-provenance.test.ts',
  // skip their whole describe unless CELLCLOUD_TEST_DB=pglite (no SQL of theirs to run here):
  // the admin tool opens the embedded database while the server runs
  'apps/server/test/admin-cli-running.test.ts',
  // 13 task runs on pbmc3k; the tasks' SQL on PostgreSQL: tasks, tasks-cache-identity
  'apps/server/test/tasks-defaults.test.ts',
  // no database: R loads the Seurat bundle; figures and tables drawn from arrays in memory
  'apps/server/test/seurat-bundle-r.test.ts',
  'apps/server/test/download-figures.test.ts',
  'apps/server/test/download-tables.test.ts',
  'apps/server/test/download-spreadsheet-safe.test.ts',
  // backup and restore of the embedded database's data folder
  'apps/server/test/security-backup.test.ts',
];

// Server files whose whole describe skips unless CELLCLOUD_TEST_DB=postgres: worker processes
// sharing one database (PGlite is one process's embedded database). The PGlite stage excludes them.
export const POSTGRES_ONLY = ['apps/server/test/jobs-drain.test.ts', 'apps/server/test/jobs-workers.test.ts'];
