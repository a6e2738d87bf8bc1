import type { AnalysisParams } from '@cellcloud/contracts/analysis-params';
import { freeAll, initScran } from '../scran';
import { subsetGenes } from '../sparse';
import { choosePcCount } from '../stats/n-pcs';
import type { HvgStep } from './hvg';
import type { NormalizeStep } from './normalize';
import type { CellCycleStep } from './cell-cycle';
import { Step } from './step';

export const N_PCS_COMPUTED = 50;

export interface PcaResult {
  /** Row-major nCells × nComputed. */
  pcs: Float64Array;
  nComputed: number;
  varianceRatio: Float64Array;
}

export type PcaParams = Record<string, never>;

/** PCs used downstream: `pcValue`, or the cumulative-variance guidance when 'auto'. */
export function pcsToUse(pcValue: AnalysisParams['pcValue'], pca: PcaResult): number {
  return pcValue === 'auto' ? choosePcCount(pca.varianceRatio) : Math.min(pcValue, pca.nComputed);
}

/**
 * PCA of the HVGs of the log-normalized data, each gene centred and scaled to unit variance
 * (scanpy scale + pca), by scran.js runPca (IRLBA with implicit centring/scaling over the sparse
 * matrix: the scaled matrix is never densified). Difference from scanpy: no clipping at 10.
 * When cell-cycle regression is on, the PCA runs on the regressed dense HVG matrix instead.
 */
export class PcaStep extends Step<PcaParams, PcaResult> {
  readonly name = 'pca' as const;

  constructor(
    private readonly normalize: NormalizeStep,
    private readonly hvg: HvgStep,
    private readonly cellCycle: CellCycleStep,
  ) {
    super([normalize, hvg, cellCycle]);
  }

  static defaults(): PcaParams {
    return {};
  }

  protected async run(): Promise<PcaResult> {
    const scran = await initScran();
    const norm = this.normalize.value;
    const regressed = this.cellCycle.value.regressed;
    let mat: import('scran.js').ScranMatrix | undefined;
    let res: import('scran.js').RunPcaResults | undefined;
    try {
      if (regressed) {
        mat = scran.initializeDenseMatrixFromDenseArray(regressed.nGenes, norm.nCells, regressed.values, {
          columnMajor: true,
          forceInteger: false,
        });
      } else {
        const sub = subsetGenes(norm, this.hvg.value.selected);
        mat = scran.initializeSparseMatrixFromSparseArrays(sub.nGenes, sub.nCells, sub.data, sub.indices, sub.indptr, {
          byRow: false,
          forceInteger: false,
          layered: false,
        });
      }
      res = scran.runPca(mat, { numberOfPCs: N_PCS_COMPUTED, scale: true });
      const nComputed = res.numberOfPCs();
      const total = res.totalVariance();
      const pcs = res.principalComponents();
      // scran.js 4.1 varianceExplained() returns zeros for the leading PCs (seen on pbmc3k), so
      // the variance of each PC is taken from its (centred) scores instead.
      const varianceRatio = scoreVariances(pcs, nComputed).map((v) => v / total);
      return { pcs, nComputed, varianceRatio };
    } finally {
      freeAll(res, mat);
    }
  }
}

/** First `n` columns of a row-major nCells × d matrix. */
export function leadingColumns(x: ArrayLike<number>, nCells: number, d: number, n: number): Float64Array {
  const out = new Float64Array(nCells * n);
  for (let c = 0; c < nCells; c++) for (let j = 0; j < n; j++) out[c * n + j] = x[c * d + j];
  return out;
}


/** Variance (ddof 1) of each column of a row-major nCells × d score matrix with centred columns. */
export function scoreVariances(pcs: Float64Array, d: number): Float64Array {
  const n = pcs.length / d;
  const out = new Float64Array(d);
  for (let c = 0; c < n; c++) for (let j = 0; j < d; j++) out[j] += pcs[c * d + j] * pcs[c * d + j];
  return out.map((v) => v / Math.max(1, n - 1));
}
