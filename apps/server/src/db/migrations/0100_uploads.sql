-- Uploads (one sample each) and their files (docs/product/entities.md upload list, docs/product/states.md upload states).
-- user_id is not a foreign key: the users table belongs to the accounts area.
CREATE TABLE uploads (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  user_id text NOT NULL,
  sample_name text NOT NULL,
  kind text NOT NULL,
  format_hint text NOT NULL,
  format text,
  state text NOT NULL DEFAULT 'uploading' CHECK (state IN ('uploading', 'parsing', 'completed', 'failed')),
  progress real NOT NULL DEFAULT 0,
  failure_code text,
  failure_params jsonb,
  retryable boolean NOT NULL DEFAULT false,
  properties jsonb,
  usable boolean NOT NULL DEFAULT false,
  total_size bigint NOT NULL DEFAULT 0,
  dataset_size bigint NOT NULL DEFAULT 0,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  CONSTRAINT uploads_user_sample UNIQUE (user_id, sample_name)
);

CREATE INDEX uploads_user_created ON uploads (user_id, created_at DESC);

CREATE TABLE upload_files (
  upload_id text NOT NULL REFERENCES uploads (id) ON DELETE CASCADE,
  idx integer NOT NULL,
  name text NOT NULL,
  size bigint NOT NULL,
  role text NOT NULL DEFAULT 'data',
  received bigint NOT NULL DEFAULT 0,
  complete boolean NOT NULL DEFAULT false,
  PRIMARY KEY (upload_id, idx)
);
