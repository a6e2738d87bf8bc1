-- Sharing an analysis (issue 35, docs/product/sharing.md): the owner of a completed analysis gives
-- another user of the installation the role viewer (explore, download) or editor (also save
-- annotation levels and subsets, run tasks). Storage and quotas stay the owner's. Deleting the
-- analysis or either user removes the share; a revoked share is deleted (effective on the next
-- request, every access check reads this table).
CREATE TABLE dataset_shares (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  dataset_id text NOT NULL REFERENCES analysis_jobs (id) ON DELETE CASCADE,
  owner_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('viewer', 'editor')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  UNIQUE (dataset_id, user_id),
  CHECK (owner_id <> user_id)
);
CREATE INDEX dataset_shares_user ON dataset_shares (user_id, created_at);
