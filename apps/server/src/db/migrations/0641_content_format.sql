-- Format of authored help text (admin console, issue 21): 'html' (the seeded pages) or
-- 'markdown' (rendered to HTML by the server when the public pages read it; the source is kept
-- for the next edit).
ALTER TABLE faq_entries ADD COLUMN format text NOT NULL DEFAULT 'html' CHECK (format IN ('html', 'markdown'));
ALTER TABLE content_entries ADD COLUMN format text NOT NULL DEFAULT 'html' CHECK (format IN ('html', 'markdown'));
ALTER TABLE update_log ADD COLUMN format text NOT NULL DEFAULT 'html' CHECK (format IN ('html', 'markdown'));
