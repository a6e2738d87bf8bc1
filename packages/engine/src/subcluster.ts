import type { AnalysisParamsInput } from '@cellcloud/contracts/analysis-params';
import { childAnalysisParams, type ChildAnalysisParams } from '@cellcloud/contracts/analysis-params';
import { LIMITS } from '@cellcloud/contracts/constants';
import type { CellColumn, CountMatrix, GeneTable } from '@cellcloud/formats/matrix';
import { EngineError } from './errors';
import { runAnalysis, type AnalysisResult } from './run-analysis';
import { subsetCells } from './sparse';
import type { ProgressCallback } from './steps/step';
import { parseParams } from './validate';

export interface SubclusterInput {
  /** Name of the child analysis (its one "sample", e.g. the subset name). */
  name: string;
  /** The parent's stored raw counts (genes × cells, CSC by cell), genes and barcodes. */
  counts: CountMatrix;
  genes: GeneTable;
  barcodes: string[];
  /** Parent cells to re-cluster (indices into `counts`); at least LIMITS.subclusterMinCells. */
  cells: ArrayLike<number>;
  /** The parent's analysis parameters (species, HVG, PCs, algorithm, seed carry over). */
  parentParams: AnalysisParamsInput | unknown;
  /** docs/product/entities.md#child-analysis-parameters child parameters. */
  child: Partial<ChildAnalysisParams>;
  /**
   * The parent's per-cell columns (issue 13): its annotation levels (categorical) and `annot_*`
   * scores are carried into the child for the chosen cells (names the child computes itself, e.g.
   * cluster, become `<name>_input`).
   */
  obs?: Record<string, CellColumn>;
  /**
   * The parent's PCs (row-major parent cells × dims; the batch-corrected ones when the parent had
   * batch correction). With `reDimensionalityReduction: false` the child builds its graph on these
   * rows instead of new HVGs + PCA.
   */
  pcs?: { dims: number; values: Float32Array | Float64Array };
}

/**
 * Sub-celltype analysis (docs/product/entities.md#child-analysis-parameters child task): the standard pipeline on the parent's counts
 * restricted to the chosen cells, with cell filtering, doublet removal, ambient-RNA removal and
 * batch correction skipped (the parent already did them), re-normalized, new HVGs, PCA, graph and
 * clusters at `clusteringResolution`, new embeddings and markers. Returns a normal AnalysisResult
 * (write it with writeOutputs). `reDimensionalityReduction: false` reuses the parent's PCs of the
 * chosen cells (`input.pcs`, required then) instead of new HVGs + PCA; `onlyScaleHighlyVariableGenes`
 * needs nothing: only HVGs are ever scaled (see PcaStep), which gives the PCs of either setting.
 */
export async function runSubcluster(
  input: SubclusterInput,
  onProgress?: ProgressCallback,
): Promise<AnalysisResult> {
  const child = childAnalysisParams.parse(input.child);
  const n = input.cells.length;
  if (n < LIMITS.subclusterMinCells) {
    throw new EngineError(
      'TOO_FEW_CELLS',
      `The selection has ${n} cells; sub-celltype analysis needs at least ${LIMITS.subclusterMinCells}.`,
      {
        sample: input.name,
        cells: n,
        min: LIMITS.subclusterMinCells,
      },
    );
  }
  for (let i = 0; i < n; i++) {
    const c = input.cells[i]!;
    if (!(c >= 0 && c < input.counts.nCells)) {
      throw new EngineError(
        'INVALID_PARAMS',
        `Cell ${c} is outside the parent's ${input.counts.nCells} cells.`,
        { cell: c },
      );
    }
  }
  const parent = parseParams(input.parentParams);
  const open = 1e12;
  const params = {
    ...parent,
    expressedGeneRange: { state: 'manual' as const, range: [0, open] as [number, number] },
    expressedUmiRange: { state: 'manual' as const, range: [0, open] as [number, number] },
    mitochondrialContent: { state: 'manual' as const, max: 100 },
    ribosomalContent: { max: 100 },
    ambientRnaRemoval: { ...parent.ambientRnaRemoval, enabled: false },
    doubletDetectionAndRemoval: false,
    batchEffectRemoval: { ...parent.batchEffectRemoval, enabled: false },
    clusterResolution: child.clusteringResolution,
    species: child.annotationSpecies ?? parent.species,
  };
  const counts = subsetCells(input.counts, input.cells);
  const barcodes = Array.from(input.cells, (c) => input.barcodes[c]!);
  const dataset = {
    counts,
    genes: input.genes,
    cells: { barcodes, columns: parentLevels(input.obs ?? {}, input.cells) },
    embeddings: {},
    format: 'h5ad' as const,
    warnings: [],
  };
  let pcs: { dims: number; values: Float32Array } | undefined;
  if (!child.reDimensionalityReduction) {
    const parentPcs = input.pcs;
    if (!parentPcs || parentPcs.values.length !== parentPcs.dims * input.counts.nCells) {
      throw new EngineError(
        'INVALID_PARAMS',
        'Keeping the parent dimensionality reduction needs the parent PCs of every cell.',
        { field: 'reDimensionalityReduction' },
      );
    }
    const d = parentPcs.dims;
    const values = new Float32Array(n * d);
    for (let i = 0; i < n; i++)
      for (let k = 0; k < d; k++) values[i * d + k] = parentPcs.values[input.cells[i]! * d + k]!;
    pcs = { dims: d, values };
  }
  // the UMAP layouts start after the markers (not alongside them): on 2 cores their threads would
  // otherwise share the cores with the markers step, and the child's markers are what the user waits for
  return runAnalysis([{ name: input.name, species: params.species, dataset }], params, onProgress, {
    pcs,
    layoutsFrom: 'markers',
  });
}

/** Parent levels for the chosen cells: categorical columns and numeric `annot_*` values. */
function parentLevels(obs: Record<string, CellColumn>, cells: ArrayLike<number>): Record<string, CellColumn> {
  const out: Record<string, CellColumn> = {};
  for (const [key, col] of Object.entries(obs)) {
    if (col.kind === 'categorical')
      out[key] = { kind: 'categorical', values: Array.from(cells, (c) => col.values[c]!) };
    else if (key.startsWith('annot_'))
      out[key] = { kind: 'numeric', values: Float64Array.from(cells, (c) => col.values[c]!) };
  }
  return out;
}
