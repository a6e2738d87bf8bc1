-- Audit log of administrator actions (admin console, issue 21): who did what to which target, when.
CREATE TABLE admin_audit (
  id bigserial PRIMARY KEY,
  admin_id text,
  admin_username text NOT NULL,
  action text NOT NULL,
  target text NOT NULL DEFAULT '',
  details jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX admin_audit_created ON admin_audit (created_at DESC, id DESC);
