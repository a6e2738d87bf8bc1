import { z } from 'zod';

/**
 * The public standardized dataset database ("SynEcoSys", issue 20): catalogue rows, search with
 * facets, and the docs/product/api.md#dataset-calls "remote" dataset calls. Public datasets are shared by every user, read
 * only for non-administrators, and counted against no quota. Reading the catalogue needs the
 * `integrateSynEcoSysData` or `integrateLocalAndSynEcoSys` permission (403 otherwise).
 */
const enc = encodeURIComponent;
const BASE = '/api/public_datasets';
const REMOTE = '/api/database-api/celeLens/remote';

export const PUBLIC_ROUTES = {
  list: BASE,
  one: `${BASE}/:id`,
  withdraw: `${BASE}/:id/withdraw`,
  /** docs/product/api.md#public-dataset-calls "GET remote dataset detail": the catalogue row with its samples and levels. */
  remoteDetail: `${REMOTE}/dataset/:id`,
  /** docs/product/api.md#public-dataset-calls "GET dataset_relation": the user's analyses that integrated a public dataset. */
  datasetRelation: '/api/database-api/celeLens/dataset_relation',
  /** docs/product/api.md#public-dataset-calls "GET remote dataset_mapping_relation": public annotation levels and their values. */
  datasetMappingRelation: `${REMOTE}/dataset_mapping_relation/:id`,
} as const;

export const PUBLIC_PATHS = {
  list: BASE,
  one: (id: string) => `${BASE}/${enc(id)}`,
  withdraw: (id: string) => `${BASE}/${enc(id)}/withdraw`,
  remoteDetail: (id: string) => `${REMOTE}/dataset/${enc(id)}`,
  datasetRelation: PUBLIC_ROUTES.datasetRelation,
  datasetMappingRelation: (id: string) => `${REMOTE}/dataset_mapping_relation/${enc(id)}`,
} as const;

/** Annotation levels of database datasets (docs/methods/public-data.md#annotation-levels), coarsest first. */
export const PUBLIC_ANNOTATION_LEVELS = [
  'annot_full',
  'annot_sub',
  'annot_sub2',
  'annot_article',
  'cluster',
] as const;
export const publicAnnotationLevel = z.enum(PUBLIC_ANNOTATION_LEVELS);

export const publicArticle = z
  .object({
    title: z.string().max(1000).optional(),
    journal: z.string().max(300).optional(),
    year: z.number().int().min(1900).max(2100).optional(),
    doi: z.string().max(200).optional(),
    pmid: z
      .string()
      .regex(/^\d{1,9}$/)
      .optional(),
  })
  .strict();
export type PublicArticle = z.infer<typeof publicArticle>;

/** One sample of a dataset with its own metadata (donor, tissue, disease, …). */
export const publicSample = z.object({
  id: z.string(),
  cells: z.number().int().nonnegative(),
  metadata: z.record(z.string(), z.string()),
});
export type PublicSample = z.infer<typeof publicSample>;

/** The curator's metadata sheet given to `ingest-public --meta <yaml|json>`. */
export const publicDatasetMeta = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/),
    title: z.string().min(1).max(500),
    description: z.string().max(5000).default(''),
    article: publicArticle.default({}),
    sourceUrl: z.string().url().optional(),
    licence: z.string().max(100).optional(),
    /** Overrides of values read from the file's obs (e.g. when the file lacks `tissue`). */
    species: z.string().optional(),
    tissue: z.array(z.string()).optional(),
    disease: z.array(z.string()).optional(),
    developmentStage: z.array(z.string()).optional(),
    assay: z.array(z.string()).optional(),
    /**
     * Counts + metadata sheet ingest (a 10x folder or a counts h5ad that is not CELLxGENE-schema):
     * the per-cell table (CSV/TSV, first column the barcode; path relative to the sheet) and which
     * of its columns give the Sample ID and the annotation levels.
     */
    cells: z.string().min(1).optional(),
    columns: z
      .object({
        sample: z.string().optional(),
        annot_full: z.string().optional(),
        annot_sub: z.string().optional(),
        annot_sub2: z.string().optional(),
        annot_article: z.string().optional(),
        cluster: z.string().optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type PublicDatasetMeta = z.infer<typeof publicDatasetMeta>;

export const publicDatasetSummary = z.object({
  id: z.string(),
  title: z.string(),
  species: z.string(),
  tissue: z.array(z.string()),
  disease: z.array(z.string()),
  developmentStage: z.array(z.string()),
  assay: z.array(z.string()),
  cells: z.number().int(),
  genes: z.number().int(),
  sampleCount: z.number().int(),
  article: publicArticle,
  annotationLevels: z.array(z.string()),
  updatedAt: z.string(),
});
export type PublicDatasetSummary = z.infer<typeof publicDatasetSummary>;

export const publicDatasetDetail = publicDatasetSummary.extend({
  description: z.string(),
  samples: z.array(publicSample),
  sourceUrl: z.string().nullable(),
  licence: z.string().nullable(),
  cellTypes: z.array(z.string()),
  ontologyIds: z.array(z.string()),
  /** The completed standard analysis that opens in the explorer (read-only), when present. */
  analysisId: z.string().nullable(),
  version: z.number().int(),
});
export type PublicDatasetDetail = z.infer<typeof publicDatasetDetail>;

export const PUBLIC_FACETS = ['species', 'tissue', 'disease', 'developmentStage', 'assay'] as const;
export type PublicFacet = (typeof PUBLIC_FACETS)[number];
export const PUBLIC_SORTS = ['updated', 'title', 'cells', 'year'] as const;

const csv = z
  .string()
  .max(2000)
  .transform((s) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  );

/** GET list query: `q` full text (prefix match on each word), facet filters (comma = any of). */
export const publicSearchQuery = z
  .object({
    q: z.string().max(200).optional(),
    species: csv.optional(),
    tissue: csv.optional(),
    disease: csv.optional(),
    developmentStage: csv.optional(),
    assay: csv.optional(),
    sort: z.enum(PUBLIC_SORTS).default('updated'),
    order: z.enum(['asc', 'desc']).default('desc'),
    page: z.coerce.number().int().min(1).default(1),
    pageSize: z.coerce.number().int().min(1).max(100).default(20),
  })
  .strict();
export type PublicSearchQuery = z.infer<typeof publicSearchQuery>;

export const facetCount = z.object({ value: z.string(), count: z.number().int() });
export const publicSearchResult = z.object({
  total: z.number().int(),
  items: z.array(publicDatasetSummary),
  /** Counts of each facet's values among the rows matching `q` and the OTHER facets' filters. */
  facets: z.record(z.enum(PUBLIC_FACETS), z.array(facetCount)),
});
export type PublicSearchResult = z.infer<typeof publicSearchResult>;

/** `dataset_relation`: analyses of the caller that used public datasets. */
export const datasetRelation = z.array(
  z.object({ analysisId: z.string(), analysisName: z.string(), publicDatasetIds: z.array(z.string()) }),
);
/** `dataset_mapping_relation`: each public annotation level with its values and cell counts. */
export const datasetMappingRelation = z.object({
  datasetId: z.string(),
  levels: z.array(z.object({ level: z.string(), values: z.array(facetCount) })),
  /** annot_sub → annot_full (the Cell Ontology lineage mapping used at ingest). */
  mapping: z.array(
    z.object({ annotSub: z.string(), annotFull: z.string(), ontologyId: z.string().nullable() }),
  ),
});
export type DatasetMappingRelation = z.infer<typeof datasetMappingRelation>;

/** One violated rule of the CELLxGENE schema check (ingest refuses the file when any). */
export const schemaViolation = z.object({
  rule: z.string(),
  /** English, for the admin tool's terminal. */
  message: z.string(),
  /** The data the message names (counts, ids), for a translated message (the admin console). */
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type SchemaViolation = z.infer<typeof schemaViolation>;
