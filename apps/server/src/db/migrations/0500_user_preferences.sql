-- Per-user interface preferences (contracts/preferences.ts), e.g. the dismissed tutorial.
CREATE TABLE user_preferences (
  user_id text PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  prefs jsonb NOT NULL DEFAULT '{}'::jsonb,
  updated_at timestamptz NOT NULL DEFAULT now()
);
