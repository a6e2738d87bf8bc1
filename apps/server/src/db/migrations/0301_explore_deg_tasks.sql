-- Job-backed DE of the explorer (calculate_deg_task of docs/product/states.md and api.md): cluster genes of a grouping or a
-- comparison of two groups. Per-cell group codes (i32, -1 = not used) in storage at
-- explore/<dataset_id>/deg/<id>.codes, the DEG rows at explore/<dataset_id>/deg/<id>.json.
-- At most one running calculation per user (partial unique index).
CREATE TABLE explore_deg_tasks (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  dataset_id text NOT NULL,
  user_id text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('cluster-markers', 'compare')),
  grouping text,
  labels jsonb NOT NULL,
  cells_a int,
  cells_b int,
  status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'completed', 'failed')),
  message text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE UNIQUE INDEX explore_deg_tasks_one_running ON explore_deg_tasks (user_id) WHERE status = 'running';
CREATE INDEX explore_deg_tasks_dataset ON explore_deg_tasks (dataset_id, created_at);
