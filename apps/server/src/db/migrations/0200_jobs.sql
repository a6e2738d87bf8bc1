-- Analysis jobs (our lifecycle; pg-boss keeps its own queue tables in schema pgboss).
CREATE TABLE analysis_jobs (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  user_id text NOT NULL,
  analysis_id text NOT NULL UNIQUE,
  job_name text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('custom', 'integrated')),
  status text NOT NULL CHECK (status IN ('submitted', 'queued', 'running', 'completed', 'error', 'suspended')),
  progress real NOT NULL DEFAULT 0,
  step text,
  message text,
  species text NOT NULL,
  sample_ids jsonb NOT NULL DEFAULT '[]',
  params jsonb NOT NULL,
  draft jsonb NOT NULL,
  cache_key text,
  -- When the result was reused from an identical earlier job: that job's id (results live there).
  result_of text,
  boss_job_id text,
  boss_queue text,
  attempt int NOT NULL DEFAULT 0,
  completions int NOT NULL DEFAULT 0,
  worker text,
  submitted_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX analysis_jobs_user ON analysis_jobs (user_id, submitted_at DESC);
CREATE INDEX analysis_jobs_updated ON analysis_jobs (updated_at);
CREATE INDEX analysis_jobs_cache ON analysis_jobs (cache_key) WHERE status = 'completed';
CREATE SEQUENCE analysis_id_seq;

CREATE TABLE notifications (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  user_id text NOT NULL,
  kind text NOT NULL,
  params jsonb NOT NULL DEFAULT '{}',
  job_id text,
  read boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX notifications_user ON notifications (user_id, created_at DESC);

-- Initiate-analysis drafts; cf_* = the cell-filtering evaluation (analysis.preprocess) state.
CREATE TABLE analysis_drafts (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  user_id text NOT NULL,
  job_name text NOT NULL DEFAULT '',
  step_tag int NOT NULL DEFAULT 1,
  page_tag text NOT NULL DEFAULT 'myAnalyzes',
  content jsonb NOT NULL,
  cf_status text NOT NULL DEFAULT 'notStarted',
  cf_message text,
  cf_boss_id text,
  cf_run int NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX analysis_drafts_user ON analysis_drafts (user_id, updated_at DESC);
