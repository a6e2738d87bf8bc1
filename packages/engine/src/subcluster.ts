import type { AnalysisParamsInput } from '@cellcloud/contracts/analysis-params';
import { childAnalysisParams, type ChildAnalysisParams } from '@cellcloud/contracts/analysis-params';
import { LIMITS } from '@cellcloud/contracts/constants';
import type { CountMatrix, GeneTable } from '@cellcloud/formats/matrix';
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
  /** SPEC §3 child parameters. */
  child: Partial<ChildAnalysisParams>;
}

/**
 * Sub-celltype analysis (SPEC §3 child task): the standard pipeline on the parent's counts
 * restricted to the chosen cells, with cell filtering, doublet removal, ambient-RNA removal and
 * batch correction skipped (the parent already did them), re-normalized, new HVGs, PCA, graph and
 * clusters at `clusteringResolution`, new embeddings and markers. Returns a normal AnalysisResult
 * (write it with writeOutputs).
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
    cells: { barcodes, columns: {} },
    embeddings: {},
    format: 'h5ad' as const,
    warnings: [],
  };
  return runAnalysis([{ name: input.name, species: params.species, dataset }], params, onProgress);
}
