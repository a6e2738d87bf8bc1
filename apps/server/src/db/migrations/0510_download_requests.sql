-- Requested downloads (contracts/downloads.ts): one row per export request of a user's result.
CREATE TABLE download_requests (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  job_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('h5ad', 'seurat', 'markers')),
  status text NOT NULL CHECK (status IN ('pending', 'approved', 'declined', 'expired')),
  export_state text NOT NULL DEFAULT 'waiting' CHECK (export_state IN ('waiting', 'running', 'ready', 'failed')),
  file_key text,
  file_name text NOT NULL,
  file_size bigint,
  valid_days integer NOT NULL,
  decline_reason text,
  decided_by text,
  decided_at timestamptz,
  expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX download_requests_user ON download_requests (user_id, created_at DESC);
CREATE INDEX download_requests_status ON download_requests (status, expires_at);

-- Server-wide secrets generated on first use (e.g. the HMAC key of signed download links), so
-- every API and worker process on the same database agrees without extra configuration.
CREATE TABLE server_secrets (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
