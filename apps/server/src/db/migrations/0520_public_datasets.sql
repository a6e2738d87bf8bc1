-- Public standardized dataset database (SynEcoSys catalogue, issue 20; contracts/public-datasets.ts).
-- One row per curated dataset; shared by every user, counted against no quota, written only by the
-- admin ingest (`npm run admin -- ingest-public`). `version` increases on each re-ingest (the
-- stored matrix lives under public/<id>/v<version>/, so a re-ingest swaps atomically);
-- `withdrawn_at` hides a dataset from the catalogue without deleting its files.
CREATE TABLE public_datasets (
  id text PRIMARY KEY,
  title text NOT NULL,
  description text NOT NULL DEFAULT '',
  species text NOT NULL,
  tissue text[] NOT NULL DEFAULT '{}',
  disease text[] NOT NULL DEFAULT '{}',
  development_stage text[] NOT NULL DEFAULT '{}',
  assay text[] NOT NULL DEFAULT '{}',
  cells integer NOT NULL,
  genes integer NOT NULL,
  samples jsonb NOT NULL DEFAULT '[]',
  article jsonb NOT NULL DEFAULT '{}',
  source_url text,
  licence text,
  annotation_levels text[] NOT NULL DEFAULT '{}',
  cell_types text[] NOT NULL DEFAULT '{}',
  ontology_ids text[] NOT NULL DEFAULT '{}',
  -- dataset_mapping_relation: { levels: [{ level, values: [{ value, count }] }], mapping: [...] }
  level_summary jsonb NOT NULL DEFAULT '{}',
  storage_prefix text NOT NULL,
  analysis_job_id text,
  version integer NOT NULL DEFAULT 1,
  withdrawn_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  search tsvector
);
CREATE INDEX public_datasets_search ON public_datasets USING gin (search);
CREATE INDEX public_datasets_species ON public_datasets (species) WHERE withdrawn_at IS NULL;
CREATE INDEX public_datasets_tissue ON public_datasets USING gin (tissue);
CREATE INDEX public_datasets_disease ON public_datasets USING gin (disease);
CREATE INDEX public_datasets_assay ON public_datasets USING gin (assay);
CREATE INDEX public_datasets_cells ON public_datasets (cells);
