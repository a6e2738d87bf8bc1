-- Downstream analysis tasks (issue 11): one row per run of a task (contracts tasks/<task>.ts) on a
-- completed analysis. `dataset_id` is the explorer's dataset id (the analysis job), `result_id`
-- the job whose stored results it reads (results/<result_id>/). Outputs under `output_prefix`
-- (results/<result_id>/tasks/<id>/, or the earlier task's prefix when `cached_from` is set).
-- Cache key: (result_id, task, params_hash, engine_version) among completed rows; params_hash is
-- sha256 of the normalized params + upload contents + the per-cell inputs the params name.
CREATE TABLE analysis_tasks (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  user_id text NOT NULL,
  dataset_id text NOT NULL,
  result_id text NOT NULL,
  task text NOT NULL,
  params jsonb NOT NULL,
  uploads jsonb NOT NULL DEFAULT '{}'::jsonb,
  params_hash text NOT NULL,
  engine_version text NOT NULL,
  status text NOT NULL DEFAULT 'submitted' CHECK (status IN ('submitted', 'running', 'completed', 'failed')),
  progress real NOT NULL DEFAULT 0,
  step text,
  message_key text,
  message_params jsonb,
  output_prefix text NOT NULL,
  cached_from text,
  attempt int NOT NULL DEFAULT 0,
  boss_job_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  finished_at timestamptz
);
CREATE INDEX analysis_tasks_dataset ON analysis_tasks (dataset_id, created_at DESC);
CREATE INDEX analysis_tasks_cache ON analysis_tasks (result_id, task, params_hash, engine_version) WHERE status = 'completed';
CREATE INDEX analysis_tasks_updated ON analysis_tasks (updated_at);
