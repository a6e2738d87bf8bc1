import { z } from 'zod';
import { clusteringResolution } from './clustering';
import { DEFAULT_FILTERS } from './constants';

/**
 * Parent-analysis parameters (docs/product/entities.md#analysis-parameters), validated by the wizard, the server and the engine with
 * this one schema. Strict: unknown keys are rejected. Every field has a default so `{}` is valid.
 *
 * Where the product docs are silent we chose what a working researcher expects and say so:
 *  - Defaults chosen for agreement with curated labels (issue 14; pbmc3k ARI vs the Seurat tutorial
 *    labels 0.55 with the previous defaults): gene/UMI ranges 'manual' at the reference's fallback
 *    values 200–5000 genes / 0–30,000 UMIs (the 'recommended' per-sample 98th-percentile caps drop
 *    large cells — 22 of pbmc3k's 32 dendritic cells), `hvgMethod` 'seurat_v3' (the reference
 *    flavour, docs/methods/pipeline.md#highly-variable-genes), 10 PCs (the reference's automatic rule picks 6–7 on pbmc3k and merges
 *    populations) and `clusterResolution` 0.5 (the reference's UI default is unknown, docs/methods/pipeline.md#neighbours-and-clustering).
 *    `METHODS_PRESET` restores the METHODS-literal choices.
 *  - `algorithm` is the clustering algorithm: 'leiden' by default (issue 32: with its refinement and
 *    the medoid of 20 restarts, pbmc3k's clusters hinge far less on the seed than with one Louvain
 *    run, docs/benchmarks/stability.md); 'louvain' is the reference pipeline's choice (METHODS_PRESET).
 *  - `hvgMethod` 'seurat' (dispersion on log data), 'seurat_v3' (Seurat vst on counts, the
 *    reference flavour, docs/methods/pipeline.md#highly-variable-genes) or 'pearson' (Pearson residuals); the product's option list calls the last "persion".
 */
export const species = ['Homo sapiens', 'Mus musculus'] as const;
export const speciesSchema = z.enum(species);
export type Species = z.infer<typeof speciesSchema>;

const range = z
  .tuple([z.number().nonnegative(), z.number().nonnegative()])
  .refine(([lo, hi]) => lo < hi, { message: 'range.order' });

export const filterState = z.enum(['recommended', 'manual']);

/**
 * The analysis defaults, written once. The schema below, the wizard's draft (`draftParam`), the
 * web forms (which start from `draftParam.parse({})`), the API, the CLI (`{}` parsed by the
 * schema) and the engine steps' `static defaults()` all read these values; docs/defaults.md is
 * generated from them (`npx tsx scripts/docs/defaults-table.ts`, checked by a unit test).
 */
export const ANALYSIS_DEFAULTS = {
  expressedGeneRange: { state: 'manual', range: DEFAULT_FILTERS.geneRange },
  expressedUmiRange: { state: 'manual', range: DEFAULT_FILTERS.umiRange },
  mitochondrialContent: { state: 'recommended', max: DEFAULT_FILTERS.mitochondrial },
  ribosomalContent: { max: DEFAULT_FILTERS.ribosomal },
  ambientRnaRemoval: { enabled: false, mode: 'default', samples: [] as string[] },
  doubletDetectionAndRemoval: true,
  clusterResolution: 0.5,
  algorithm: 'leiden',
  numberOfHighlyVariableGenes: 2000,
  hvgMethod: 'seurat_v3',
  pcValue: 10 as number | 'auto',
  removeCellCycleEffects: false,
  scaleLargeData: false,
  batchEffectRemoval: { enabled: false, method: 'harmony', batchKey: 'Sample ID' },
  chooseAnnotationType: 'none',
  species: 'Homo sapiens',
  version: 'v1',
  seed: 42,
} as const;
const D = ANALYSIS_DEFAULTS;

export const analysisParams = z
  .object({
    /** Cells kept with min ≤ genes ≤ max ('recommended' derives max per sample). */
    expressedGeneRange: z
      .object({
        state: filterState.default(D.expressedGeneRange.state),
        range: range.default(() => [...D.expressedGeneRange.range] as [number, number]),
      })
      .strict()
      .prefault({}),
    expressedUmiRange: z
      .object({
        state: filterState.default(D.expressedUmiRange.state),
        range: range.default(() => [...D.expressedUmiRange.range] as [number, number]),
      })
      .strict()
      .prefault({}),
    /** Cells with mito % strictly below the threshold are kept. */
    mitochondrialContent: z
      .object({
        state: filterState.default(D.mitochondrialContent.state),
        max: z.number().min(0).max(100).default(D.mitochondrialContent.max),
      })
      .strict()
      .prefault({}),
    ribosomalContent: z
      .object({ max: z.number().min(0).max(100).default(D.ribosomalContent.max) })
      .strict()
      .prefault({}),
    ambientRnaRemoval: z
      .object({
        enabled: z.boolean().default(D.ambientRnaRemoval.enabled),
        /** 'default' = all samples; 'basedOnSingleSamples' = only the listed samples. */
        mode: z.enum(['default', 'basedOnSingleSamples']).default(D.ambientRnaRemoval.mode),
        samples: z.array(z.string()).default(() => []),
      })
      .strict()
      .prefault({}),
    doubletDetectionAndRemoval: z.boolean().default(D.doubletDetectionAndRemoval),
    clusterResolution: clusteringResolution.default(D.clusterResolution),
    algorithm: z.enum(['louvain', 'leiden']).default(D.algorithm),
    numberOfHighlyVariableGenes: z.number().int().min(100).max(10000).default(D.numberOfHighlyVariableGenes),
    hvgMethod: z.enum(['seurat', 'seurat_v3', 'pearson']).default(D.hvgMethod),
    /** Number of PCs for the graph; 'auto' uses the cumulative-contribution > 90% guidance. */
    pcValue: z.union([z.literal('auto'), z.number().int().min(2).max(100)]).default(D.pcValue),
    removeCellCycleEffects: z.boolean().default(D.removeCellCycleEffects),
    scaleLargeData: z.boolean().default(D.scaleLargeData),
    batchEffectRemoval: z
      .object({
        enabled: z.boolean().default(D.batchEffectRemoval.enabled),
        method: z.enum(['harmony', 'mnn']).default(D.batchEffectRemoval.method),
        batchKey: z.string().default(D.batchEffectRemoval.batchKey),
      })
      .strict()
      .prefault({}),
    chooseAnnotationType: z.enum(['none', 'auto', 'reference']).default(D.chooseAnnotationType),
    reference: z.string().optional(),
    referenceTissue: z.string().optional(),
    species: speciesSchema.default(D.species),
    version: z.string().default(D.version),
    seed: z.number().int().default(D.seed),
  })
  .strict();

export type AnalysisParamsInput = z.input<typeof analysisParams>;

/**
 * The METHODS-literal settings where our defaults differ (documented preset): 'recommended' gene and
 * UMI maxima (per-sample int(P98) + 1), the automatic PC count (docs/methods/pipeline.md#number-of-pcs get_n_pcs) and
 * resolution 0.8, Louvain. Spread it under explicit choices: `{ ...METHODS_PRESET, seed: 1 }`.
 */
export const METHODS_PRESET = {
  expressedGeneRange: { state: 'recommended' },
  expressedUmiRange: { state: 'recommended' },
  hvgMethod: 'seurat_v3',
  pcValue: 'auto',
  clusterResolution: 0.8,
  algorithm: 'louvain',
} as const satisfies AnalysisParamsInput;
export type AnalysisParams = z.output<typeof analysisParams>;

/**
 * Plate-based data (Smart-seq2 and other full-length protocols: a few hundred sorted cells, each
 * sequenced deeply; docs/methods/import-formats.md#plate-based-data): what differs from the droplet
 * defaults above. Detected genes per cell run to several thousand, so the gene range is 1,000 to
 * 20,000 (a well with fewer than 1,000 genes is empty or broken); counts per cell are reads, TPM
 * or expected counts in the 10⁵–10⁷ range, so the count range has no cap; one sorted cell per well
 * makes Scrublet's doublet simulation pointless, and there is no droplet ambient RNA to remove.
 * The wizard picks it when the samples look plate-based (`looksPlateBased`, wizard.ts).
 */
export const PLATE_PRESET = {
  expressedGeneRange: { state: 'manual', range: [1000, 20000] },
  expressedUmiRange: { state: 'manual', range: [0, 1e9] },
  ambientRnaRemoval: { enabled: false },
  doubletDetectionAndRemoval: false,
} as const satisfies AnalysisParamsInput;

/** A fresh (mutable) copy of ANALYSIS_DEFAULTS as parsed parameters: what `{}` means. */
export const analysisDefaults = (): AnalysisParams => analysisParams.parse({});

/** The defaults of some parameters (an engine step's `static defaults()`), fresh copies. */
export function pickDefaults<K extends keyof AnalysisParams>(...keys: K[]): Pick<AnalysisParams, K> {
  const all = analysisDefaults();
  return Object.fromEntries(keys.map((k) => [k, all[k]])) as Pick<AnalysisParams, K>;
}

/** Child-analysis (sub-celltype) parameters (docs/product/entities.md#child-analysis-parameters). */
export const childAnalysisParams = z
  .object({
    reDimensionalityReduction: z.boolean().default(true),
    onlyScaleHighlyVariableGenes: z.boolean().default(true),
    clusteringResolution: clusteringResolution.default(0.8),
    annotationSpecies: speciesSchema.optional(),
    cellTypeReference: z.string().optional(),
    taskMode: z.enum(['subcluster', 'extract']).default('subcluster'),
    clusters: z.array(z.string()).default([]),
    samples: z.array(z.string()).default([]),
  })
  .strict();
export type ChildAnalysisParams = z.output<typeof childAnalysisParams>;
