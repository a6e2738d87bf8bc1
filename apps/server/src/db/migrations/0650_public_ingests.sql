-- Public database ingest as a queued job (issue 20). The admin tool validates and standardizes the
-- file, stages its counts under the new version's prefix (public/<id>/v<version>/) and records one
-- row here; the `public.ingest` job runs the standard analysis into the same prefix and then swaps
-- the catalogue row (public_datasets) to it in one transaction. `catalogue` holds the standardized
-- catalogue entry (everything but the storage prefix) until the swap.
CREATE TABLE public_ingests (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  dataset_id text NOT NULL,
  version integer NOT NULL,
  storage_prefix text NOT NULL,
  status text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'error')),
  progress real NOT NULL DEFAULT 0,
  step text,
  message text,
  catalogue jsonb NOT NULL,
  warnings jsonb NOT NULL DEFAULT '[]',
  boss_job_id text,
  attempt integer NOT NULL DEFAULT 0,
  submitted_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz
);
-- at most one unfinished ingest per dataset (a second one is refused while the first runs)
CREATE UNIQUE INDEX public_ingests_active ON public_ingests (dataset_id) WHERE status IN ('queued', 'running');
CREATE INDEX public_ingests_submitted ON public_ingests (submitted_at DESC);
