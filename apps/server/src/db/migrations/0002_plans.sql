-- Menu and operation privileges (rows synced at start from packages/contracts/src/privileges.ts),
-- plans (sets of privileges with disabled/hidden flags, display switches and a storage quota).
CREATE TABLE privileges (
  id integer PRIMARY KEY,
  parent_id integer,
  permission text NOT NULL UNIQUE,
  name_key text NOT NULL,
  url text,
  type smallint NOT NULL,
  sort integer NOT NULL
);

CREATE TABLE plans (
  id text PRIMARY KEY,
  name text NOT NULL,
  -- NULL = the instance default (STORAGE_QUOTA_GB).
  storage_quota_bytes bigint,
  switches jsonb NOT NULL,
  is_default boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX plans_one_default ON plans (is_default) WHERE is_default;

-- A permission listed here is held by the plan; absent = not held (route refused).
CREATE TABLE plan_privileges (
  plan_id text NOT NULL REFERENCES plans(id) ON DELETE CASCADE,
  permission text NOT NULL REFERENCES privileges(permission) ON DELETE CASCADE,
  disabled boolean NOT NULL DEFAULT false,
  hidden boolean NOT NULL DEFAULT false,
  PRIMARY KEY (plan_id, permission)
);
