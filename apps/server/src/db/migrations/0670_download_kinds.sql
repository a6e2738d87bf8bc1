-- Issue 21: two more export kinds — `tables` (zip of the markers, saved DE results and every
-- completed task's tables as CSV + one XLSX workbook) and `figures` (zip of the result's figures
-- rendered on the server, SVG + PNG) — and the language the figures' labels are written in (the
-- requester's language when asking).
ALTER TABLE download_requests DROP CONSTRAINT download_requests_kind_check;
ALTER TABLE download_requests ADD CONSTRAINT download_requests_kind_check
  CHECK (kind IN ('h5ad', 'seurat', 'markers', 'tables', 'figures'));
ALTER TABLE download_requests ADD COLUMN lang text NOT NULL DEFAULT 'en-US' CHECK (lang IN ('en-US', 'zh-CN'));
