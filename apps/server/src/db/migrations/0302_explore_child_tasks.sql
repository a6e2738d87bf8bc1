-- Sub-celltype (child) analyses of a subset (docs/product/entities.md and states.md): the child is a normal analysis_jobs row
-- (job analysis.subcluster); this links it to its parent result and subset. The chosen parent
-- cells (u32 indices) are in storage at explore/<parent_job_id>/children/<child_job_id>.u32.
CREATE TABLE explore_child_tasks (
  child_job_id text PRIMARY KEY,
  parent_job_id text NOT NULL,
  subset_id text NOT NULL,
  user_id text NOT NULL,
  labels jsonb NOT NULL,
  n_cells int NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX explore_child_tasks_parent ON explore_child_tasks (parent_job_id, created_at);
