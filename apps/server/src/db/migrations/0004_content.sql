-- Public help content (content calls of docs/product/api.md), bilingual. doc_type: 'CN', 'global' or 'all'.
CREATE TABLE content_entries (
  id text PRIMARY KEY,
  type text NOT NULL CHECK (type IN ('documentation', 'guidebook')),
  doc_type text NOT NULL DEFAULT 'all' CHECK (doc_type IN ('CN', 'global', 'all')),
  title_en text NOT NULL,
  title_zh text NOT NULL,
  body_en text NOT NULL,
  body_zh text NOT NULL,
  sort integer NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE faq_entries (
  id text PRIMARY KEY,
  question_en text NOT NULL,
  question_zh text NOT NULL,
  answer_en text NOT NULL,
  answer_zh text NOT NULL,
  sort integer NOT NULL
);

CREATE TABLE update_log (
  -- insertion order breaks ties between entries of one day (newest first)
  id bigserial PRIMARY KEY,
  logdate date NOT NULL,
  info_en text NOT NULL,
  info_zh text NOT NULL
);
CREATE INDEX update_log_date ON update_log (logdate DESC);
