-- The file properties of a public dataset as an analysable sample (contracts FileProperties:
-- species, cells, genes, UMI summary…), so the wizard and the analysis job treat it like an upload.
ALTER TABLE public_datasets ADD COLUMN properties jsonb NOT NULL DEFAULT '{}';
