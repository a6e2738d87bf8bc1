import { z } from 'zod';
import { clusteringResolution } from './clustering';
import {
  ANALYSIS_DEFAULTS as D,
  type AnalysisParamsInput,
  PLATE_PRESET,
  speciesSchema,
} from './analysis-params';
import type { FileProperties } from './files';

/**
 * The initiate-analysis wizard (docs/product/screens.md#analysis-wizard, docs/product/entities.md#analysis-draft draft fields, docs/product/states.md#wizard, docs/product/validation.md). The draft is what the wizard
 * saves ("Save as draft") and what a submitted job keeps for re-edit; `draftToParams` turns its
 * `param` block into the engine's analysis parameters.
 */

/** docs/product/validation.md#job-and-sample-names job/sample names: a letter or underscore first, then letters, digits, _ . or space. */
export const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_. ]*$/;

export const wizardName = (requiredKey: string) =>
  z
    .string()
    .trim()
    .min(1, requiredKey)
    .max(100, 'wizard.name.tooLong')
    .regex(NAME_PATTERN, 'wizard.name.invalid');

export const cellFilteringStatus = z.enum(['notStarted', 'running', 'failed', 'done']);
export type CellFilteringStatus = z.infer<typeof cellFilteringStatus>;

export const wizardStep = z.number().int().min(1).max(4);
/** docs/product/screens.md#analysis-wizard internal step names: where the wizard was opened from / resumes. */
export const pageTag = z.enum(['myAnalyzes', 'importData', 'submitAnalysis']);

const geneSetFile = z
  .object({ fileName: z.string(), geneSet: z.array(z.string()), preSelected: z.boolean().default(true) })
  .strict();

/** One selected sample: the uploaded dataset and its sample-group (batch) name. */
export const wizardSample = z
  .object({ id: z.string().min(1), name: z.string(), group: z.string().default('') })
  .strict();
export type WizardSample = z.infer<typeof wizardSample>;

const rangePair = z.tuple([z.number().nonnegative(), z.number().nonnegative()]);
const filterState = z.enum(['recommended', 'manual']);

/**
 * The `param` block of a draft, with the docs/product/entities.md#analysis-draft field names. Every field has a default, read from
 * ANALYSIS_DEFAULTS (analysis-params.ts), so a draft left untouched submits exactly the parameters
 * the CLI uses with no flags (test: packages/contracts/test/analysis-defaults.test.ts).
 */
/** Filter presets of the wizard: droplet (ANALYSIS_DEFAULTS) or plate-based (PLATE_PRESET). */
export const wizardPreset = z.enum(['droplet', 'plate']);
export type WizardPreset = z.infer<typeof wizardPreset>;

export const draftParam = z
  .object({
    jobName: z.string().default(''),
    /** Which preset the filter fields started from (draft only: the engine reads the fields). */
    preset: wizardPreset.default('droplet'),
    species: speciesSchema.optional(),
    tissue: z.string().default(''),
    cellFilteringEvaluation: z.enum(['skip', 'evaluate']).default('skip'),
    cellQualityAdjustments: z.boolean().default(false),
    // fixed ranges by default, as the engine (issue 14: the per-sample recommended caps drop large
    // cells such as dendritic cells); 'recommended' stays one click away in the cell-filtering step
    geneRange: rangePair.default(() => [...D.expressedGeneRange.range] as [number, number]),
    geneState: filterState.default(D.expressedGeneRange.state),
    umiRange: rangePair.default(() => [...D.expressedUmiRange.range] as [number, number]),
    umiState: filterState.default(D.expressedUmiRange.state),
    mitochondrial: z.number().min(0).max(100).default(D.mitochondrialContent.max),
    mitochondrialState: filterState.default(D.mitochondrialContent.state),
    ribosomal: z.number().min(0).max(100).default(D.ribosomalContent.max),
    contaminationState: z.boolean().default(D.ambientRnaRemoval.enabled),
    basedOnSingleSamples: z.array(z.string()).default(() => []),
    doubletState: z.boolean().default(D.doubletDetectionAndRemoval),
    cluster: clusteringResolution.default(D.clusterResolution),
    algorithm: z.enum(['louvain', 'leiden']).default(D.algorithm),
    numberOfHighlyVariableGenes: z.number().int().min(100).max(10000).default(D.numberOfHighlyVariableGenes),
    hvgMethod: z.enum(['seurat', 'seurat_v3', 'pearson']).default(D.hvgMethod),
    pcValueState: z.enum(['auto', 'manual']).default(D.pcValue === 'auto' ? 'auto' : 'manual'),
    pcValueNum: z
      .number()
      .int()
      .min(2)
      .max(100)
      .default(typeof D.pcValue === 'number' ? D.pcValue : 10),
    removeCellCycleEffects: z.boolean().default(D.removeCellCycleEffects),
    scaleLargeData: z.boolean().default(D.scaleLargeData),
    batchRemoveMethod: z
      .enum(['none', 'harmony', 'mnn'])
      .default(D.batchEffectRemoval.enabled ? D.batchEffectRemoval.method : 'none'),
    batchName: z.string().default(D.batchEffectRemoval.batchKey),
    annotationType: z.enum(['none', 'auto', 'reference']).default(D.chooseAnnotationType),
    reference: z.string().default(''),
  })
  .strict();
export type DraftParam = z.output<typeof draftParam>;

export const wizardDraft = z
  .object({
    id: z.string().optional(),
    stepTag: wizardStep.default(1),
    pageTag: pageTag.default('myAnalyzes'),
    celeScopeFiles: z.array(z.string()).default([]),
    cellFilteringTaskStatus: cellFilteringStatus.default('notStarted'),
    datasetId: z.string().nullable().default(null),
    datasets: z.array(wizardSample).default([]),
    groupId: z.string().nullable().default(null),
    matrixFiles: z.array(z.string()).default([]),
    metadataFile: z
      .object({ columns: z.array(z.string()), tableData: z.array(z.record(z.string(), z.unknown())) })
      .strict()
      .nullable()
      .default(null),
    mitochondrialGeneSet: geneSetFile.nullable().default(null),
    ribosomalGeneSet: geneSetFile.nullable().default(null),
    param: draftParam.prefault({}),
  })
  .strict();
export type WizardDraft = z.output<typeof wizardDraft>;
export type WizardDraftInput = z.input<typeof wizardDraft>;

/** Draft list row. */
export const draftView = z.object({
  id: z.string(),
  jobName: z.string(),
  stepTag: wizardStep,
  pageTag,
  updatedAt: z.string(),
  draft: wizardDraft,
});
export type DraftView = z.infer<typeof draftView>;

/** Per-cell counts whose sample median reaches this are reads / TPM / expected counts of a plate, not droplet UMIs. */
export const PLATE_MEDIAN_COUNTS = 50_000;
/** More cells than this in one sample is a droplet experiment, whatever its depth. */
export const PLATE_MAX_CELLS = 10_000;

/** What `looksPlateBased` reads of a sample's file properties. */
export type SampleShape = Pick<FileProperties, 'cells' | 'valueKind'> & { umi: { median: number } };

/**
 * The samples look plate-based (Smart-seq2 and the like): every sample with known properties has a
 * median of at least PLATE_MEDIAN_COUNTS counts per cell (droplet UMIs per cell are in the
 * thousands) and at most PLATE_MAX_CELLS cells. Already log-normalized samples tell nothing by
 * their sums and do not count either way.
 */
export function looksPlateBased(props: readonly (SampleShape | null | undefined)[]): boolean {
  const known = props.filter((p): p is SampleShape => !!p && p.valueKind !== 'logNormalized');
  return (
    known.length > 0 && known.every((p) => p.umi.median >= PLATE_MEDIAN_COUNTS && p.cells <= PLATE_MAX_CELLS)
  );
}

/** The draft's filter fields set to a preset's values (the other fields are kept). */
export function applyPreset(p: DraftParam, preset: WizardPreset): DraftParam {
  const src = preset === 'plate' ? { ...D, ...PLATE_PRESET } : D;
  return {
    ...p,
    preset,
    geneState: src.expressedGeneRange.state,
    geneRange: [...src.expressedGeneRange.range] as [number, number],
    umiState: src.expressedUmiRange.state,
    umiRange: [...src.expressedUmiRange.range] as [number, number],
    contaminationState: src.ambientRnaRemoval.enabled,
    doubletState: src.doubletDetectionAndRemoval,
  };
}

/** Submission rules (docs/product/validation.md) checked before a job is created; the message keys are i18n keys. */
export const submitDraft = wizardDraft.superRefine((d, ctx) => {
  const name = wizardName('wizard.jobName.required').safeParse(d.param.jobName);
  if (!name.success)
    ctx.addIssue({ code: 'custom', path: ['param', 'jobName'], message: name.error.issues[0]!.message });
  if (d.datasets.length === 0)
    ctx.addIssue({ code: 'custom', path: ['datasets'], message: 'wizard.samples.required' });
  const names = new Set<string>();
  d.datasets.forEach((s, i) => {
    const r = wizardName('wizard.sampleName.required').safeParse(s.name);
    if (!r.success)
      ctx.addIssue({ code: 'custom', path: ['datasets', i, 'name'], message: r.error.issues[0]!.message });
    if (names.has(s.name))
      ctx.addIssue({ code: 'custom', path: ['datasets', i, 'name'], message: 'wizard.name.exists' });
    names.add(s.name);
    if (d.datasets.length > 1) {
      const g = wizardName('wizard.group.required').safeParse(s.group);
      if (!g.success)
        ctx.addIssue({ code: 'custom', path: ['datasets', i, 'group'], message: g.error.issues[0]!.message });
    }
  });
  if (d.param.annotationType === 'reference' && !d.param.reference) {
    ctx.addIssue({ code: 'custom', path: ['param', 'reference'], message: 'wizard.reference.required' });
  }
  // docs/product/validation.md#required-fields "specify tissue type": automatic annotation picks its reference and marker lists by tissue
  if (d.param.annotationType !== 'none' && !d.param.tissue.trim()) {
    ctx.addIssue({ code: 'custom', path: ['param', 'tissue'], message: 'wizard.tissue.required' });
  }
});

/** The engine parameters a draft stands for (docs/product/entities.md#analysis-draft draft names → analysis-params names). */
export function draftToParams(p: DraftParam, species: z.infer<typeof speciesSchema>): AnalysisParamsInput {
  return {
    expressedGeneRange: { state: p.geneState, range: p.geneRange },
    expressedUmiRange: { state: p.umiState, range: p.umiRange },
    mitochondrialContent: { state: p.mitochondrialState, max: p.mitochondrial },
    ribosomalContent: { max: p.ribosomal },
    ambientRnaRemoval: {
      enabled: p.contaminationState,
      mode: p.basedOnSingleSamples.length ? 'basedOnSingleSamples' : 'default',
      samples: p.basedOnSingleSamples,
    },
    doubletDetectionAndRemoval: p.doubletState,
    clusterResolution: p.cluster,
    algorithm: p.algorithm,
    numberOfHighlyVariableGenes: p.numberOfHighlyVariableGenes,
    hvgMethod: p.hvgMethod,
    pcValue: p.pcValueState === 'auto' ? 'auto' : p.pcValueNum,
    removeCellCycleEffects: p.removeCellCycleEffects,
    scaleLargeData: p.scaleLargeData,
    batchEffectRemoval: {
      enabled: p.batchRemoveMethod !== 'none',
      method: p.batchRemoveMethod === 'mnn' ? 'mnn' : 'harmony',
      batchKey: p.batchName || 'Sample ID',
    },
    chooseAnnotationType: p.annotationType,
    ...(p.reference ? { reference: p.reference } : {}),
    ...(p.tissue ? { referenceTissue: p.tissue } : {}),
    species,
  };
}

/**
 * Result of the cell-filtering evaluation (job `analysis.preprocess`): per sample the per-cell QC
 * metrics (genes, UMIs, mito %, ribo %) for the before/after distributions and the recommended
 * thresholds (docs/product/limits.md#cell-filtering-defaults) the sliders start at; the wizard recounts kept cells live.
 */
export const cellFilteringSample = z.object({
  name: z.string(),
  cells: z.number().int(),
  genes: z.array(z.number()),
  umis: z.array(z.number()),
  mito: z.array(z.number()),
  ribo: z.array(z.number()),
  recommended: z.object({
    geneRange: z.tuple([z.number(), z.number()]),
    umiRange: z.tuple([z.number(), z.number()]),
    mitochondrial: z.number(),
    ribosomal: z.number(),
  }),
});
export type CellFilteringSample = z.infer<typeof cellFilteringSample>;
export const cellFilteringResult = z.object({ samples: z.array(cellFilteringSample) });
export type CellFilteringResult = z.infer<typeof cellFilteringResult>;

/** The thresholds a draft's `param` block applies to one sample (recommended or manual). */
export function effectiveThresholds(p: DraftParam, s: CellFilteringSample) {
  return {
    geneRange: p.geneState === 'recommended' ? s.recommended.geneRange : p.geneRange,
    umiRange: p.umiState === 'recommended' ? s.recommended.umiRange : p.umiRange,
    mitochondrial: p.mitochondrialState === 'recommended' ? s.recommended.mitochondrial : p.mitochondrial,
    ribosomal: p.ribosomal,
  };
}

/** Cells of a sample that pass the thresholds (same rule as the engine's filter). */
export function keptCells(s: CellFilteringSample, t: ReturnType<typeof effectiveThresholds>): boolean[] {
  return s.genes.map(
    (g, i) =>
      g >= t.geneRange[0] &&
      g <= t.geneRange[1] &&
      s.umis[i]! >= t.umiRange[0] &&
      s.umis[i]! <= t.umiRange[1] &&
      s.mito[i]! < t.mitochondrial &&
      s.ribo[i]! < t.ribosomal,
  );
}
