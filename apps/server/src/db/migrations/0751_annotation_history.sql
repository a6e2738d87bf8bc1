-- Attributed annotation (issue 35, docs/product/sharing.md#annotation-history): a saved level
-- (explore_subsets) carries a version number, bumped by every change (optimistic concurrency: a
-- save naming an older version is refused with 409), and per-label notes with marker genes.
-- Every change is one row here: author, time, cells affected, the before → after label pairs and
-- the level as it was after the change (labels, colours, counts, notes and the storage key of
-- its per-cell codes), so an earlier version can be restored.
ALTER TABLE explore_subsets ADD COLUMN version int NOT NULL DEFAULT 1;
ALTER TABLE explore_subsets ADD COLUMN notes jsonb NOT NULL DEFAULT '{}';
-- who made the current version (set in the same statement that bumps it: a refused concurrent save names them)
ALTER TABLE explore_subsets ADD COLUMN updated_by text;

CREATE TABLE annotation_history (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  subset_id text NOT NULL REFERENCES explore_subsets (id) ON DELETE CASCADE,
  dataset_id text NOT NULL,
  version int NOT NULL,
  author_id text REFERENCES users (id) ON DELETE SET NULL,
  action text NOT NULL CHECK (action IN ('create', 'rename', 'relabel', 'colours', 'notes', 'restore')),
  cells int NOT NULL DEFAULT 0,
  changes jsonb NOT NULL DEFAULT '[]',
  name text NOT NULL,
  labels jsonb NOT NULL,
  colours jsonb NOT NULL,
  counts jsonb NOT NULL,
  notes jsonb NOT NULL DEFAULT '{}',
  codes_key text NOT NULL,
  restored_from int,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  UNIQUE (subset_id, version)
);
CREATE INDEX annotation_history_dataset ON annotation_history (dataset_id, subset_id, version);
