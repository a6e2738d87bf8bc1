-- Explorer subsets (observation_subset of docs/product/states.md and api.md): metadata here; per-cell codes (u32) in
-- storage at explore/<dataset_id>/subsets/<id>.u32 (0xFFFFFFFF = cell not in the subset).
CREATE TABLE explore_subsets (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  dataset_id text NOT NULL,
  user_id text NOT NULL,
  name text NOT NULL,
  source_key text,
  labels jsonb NOT NULL,
  colours jsonb NOT NULL,
  counts jsonb NOT NULL,
  n_cells int NOT NULL,
  cluster_genes text NOT NULL DEFAULT 'none' CHECK (cluster_genes IN ('none', 'stale', 'running', 'failed', 'done')),
  child_tasks int NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  UNIQUE (dataset_id, name)
);
CREATE INDEX explore_subsets_dataset ON explore_subsets (dataset_id, created_at);
