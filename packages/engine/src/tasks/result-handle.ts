import type { CellColumn, CountMatrix, Dataset } from '@cellcloud/formats/matrix';
import { countsKind, logNormalize } from '../steps/normalize';
import type { AnalysisRecord, ResultHandle } from './types';

/**
 * A ResultHandle over a Dataset read from `analysis.h5ad` (formats' readH5adBytes: counts from
 * layers["counts"], obs columns, obsm embeddings) plus per-cell columns added after the analysis
 * (subsets, earlier tasks' outputs, a CLI `--obs` file), which win over h5ad columns of the same key.
 * Embedding names drop the AnnData `X_` prefix (X_umap → umap).
 */
export function resultHandleFromDataset(
  ds: Pick<Dataset, 'counts' | 'genes' | 'cells' | 'embeddings'>,
  opts: { species?: string; extraObs?: Record<string, CellColumn>; analysis?: AnalysisRecord } = {},
): ResultHandle {
  const obs: Record<string, CellColumn> = { ...ds.cells.columns, ...(opts.extraObs ?? {}) };
  for (const [k, col] of Object.entries(obs)) {
    if (col.values.length !== ds.counts.nCells) {
      throw new Error(`per-cell column "${k}" has ${col.values.length} values for ${ds.counts.nCells} cells`);
    }
  }
  const embeddings = new Map<string, { dims: number; values: Float32Array }>();
  for (const [k, e] of Object.entries(ds.embeddings)) embeddings.set(k.replace(/^X_/, ''), e);
  let norm: CountMatrix | undefined;
  const exact = new Map<string, number>();
  const lower = new Map<string, number>();
  const add = (name: string, g: number) => {
    if (!exact.has(name)) exact.set(name, g);
    const l = name.toLowerCase();
    if (!lower.has(l)) lower.set(l, g);
  };
  ds.genes.symbols.forEach((s, g) => add(s, g));
  ds.genes.ids.forEach((s, g) => add(s, g));
  return {
    nCells: ds.counts.nCells,
    nGenes: ds.counts.nGenes,
    barcodes: ds.cells.barcodes,
    genes: ds.genes,
    species: opts.species ?? 'unknown',
    counts: () => ds.counts,
    normalized: () => (norm ??= logNormalize(ds.counts, countsKind(ds.counts))),
    obsKeys: () => Object.entries(obs).map(([key, c]) => ({ key, kind: c.kind })),
    obs: (key) => obs[key],
    embeddingNames: () => [...embeddings.keys()],
    embedding: (name) => embeddings.get(name) ?? embeddings.get(name.replace(/^X_/, '')),
    geneIndex: (name) => exact.get(name) ?? lower.get(name.toLowerCase()) ?? -1,
    ...(opts.analysis ? { analysis: opts.analysis } : {}),
  };
}

/** The analysis' record of its representation from the result's `artifacts/qc.json` text; undefined when it has none. */
export function analysisRecordFromQc(text: string | undefined): AnalysisRecord | undefined {
  if (!text) return undefined;
  let qc: { nPcsUsed?: unknown; batchCorrection?: unknown; seed?: unknown };
  try {
    qc = JSON.parse(text) as typeof qc;
  } catch {
    return undefined;
  }
  const out: AnalysisRecord = {};
  if (typeof qc.nPcsUsed === 'number' && Number.isInteger(qc.nPcsUsed) && qc.nPcsUsed > 0)
    out.nPcsUsed = qc.nPcsUsed;
  if (typeof qc.batchCorrection === 'string') out.batchCorrection = qc.batchCorrection;
  if (typeof qc.seed === 'number' && Number.isInteger(qc.seed)) out.seed = qc.seed;
  return Object.keys(out).length ? out : undefined;
}
