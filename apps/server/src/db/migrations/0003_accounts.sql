-- Accounts: users, sessions (hashed opaque tokens), e-mail codes, login log, rate-limit
-- counters, contact messages and the mail outbox.
CREATE TABLE users (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  username text NOT NULL,
  email text NOT NULL,
  phone text,
  first_name text NOT NULL,
  last_name text NOT NULL,
  institution text NOT NULL,
  research_interest text,
  marketing_consent boolean NOT NULL DEFAULT false,
  password_hash text NOT NULL,
  is_admin boolean NOT NULL DEFAULT false,
  plan_id text REFERENCES plans(id),
  subscription_until timestamptz,
  disabled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_username_lower ON users (lower(username));
CREATE UNIQUE INDEX users_email_lower ON users (lower(email));
CREATE INDEX users_phone ON users (phone) WHERE phone IS NOT NULL;

CREATE TABLE sessions (
  token_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  ip text,
  user_agent text
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE email_codes (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  email text NOT NULL,
  purpose text NOT NULL,
  code_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz,
  failed_attempts integer NOT NULL DEFAULT 0
);
CREATE INDEX email_codes_lookup ON email_codes (lower(email), purpose, created_at DESC);

CREATE TABLE login_log (
  id bigserial PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  login_at timestamptz NOT NULL,
  ip text NOT NULL,
  user_agent text NOT NULL DEFAULT '',
  success boolean NOT NULL
);
CREATE INDEX login_log_user ON login_log (user_id, login_at DESC);

-- Fixed-window counters for brute-force protection (survive restarts, shared by processes).
CREATE TABLE rate_limits (
  bucket text NOT NULL,
  key text NOT NULL,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL,
  PRIMARY KEY (bucket, key, window_start)
);

CREATE TABLE contact_messages (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  user_id text REFERENCES users(id) ON DELETE SET NULL,
  name text NOT NULL,
  email text NOT NULL,
  subject text NOT NULL,
  message text NOT NULL,
  ip text,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Every mail the server sends; transport 'smtp' (delivered or failed) or 'log' (no SMTP set).
CREATE TABLE mail_outbox (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  to_address text NOT NULL,
  subject text NOT NULL,
  body text NOT NULL,
  transport text NOT NULL,
  error text,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE user_drawings (
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  app text NOT NULL,
  scene jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, app)
);
