-- Tutorial videos uploaded from the admin console (issue 21): bilingual titles, the stored file
-- (storage key videos/<id>), its type and size, and the order of the Tutorial videos page.
CREATE TABLE tutorial_videos (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  title_en text NOT NULL,
  title_zh text NOT NULL,
  mime text NOT NULL CHECK (mime IN ('video/mp4', 'video/webm')),
  size bigint NOT NULL,
  sort integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
