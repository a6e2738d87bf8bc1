import { pickDefaults, type AnalysisParams } from '@cellcloud/contracts/analysis-params';
import type { RunPcaResults, ScranMatrix } from 'scran.js';
import type { ProductMatrix } from '../methods/implicit-matrix';
import { sparsePca } from '../methods/sparse-pca';
import { cellValues, valueScratch } from '../methods/sparse-products';
import { freeAll, initScran } from '../scran';
import { subsetGenesCompact } from '../sparse';
import { choosePcCount } from '../stats/n-pcs';
import type { HvgStep } from './hvg';
import type { NormalizeStep } from './normalize';
import type { CellCycleStep } from './cell-cycle';
import { Step } from './step';

export const N_PCS_COMPUTED = 50;
/**
 * The PCA is a block Krylov (block Lanczos) fit, methods/block-krylov.ts: one fused product AᵀA·Q
 * per block of N_PCS_COMPUTED + 10 columns, every block kept in the basis. It stops when the
 * residuals ‖AᵀA v − θ v‖ of the leading PCA_CONVERGED_PCS Ritz pairs are below PCA_TOLERANCE · θ₁,
 * at most MAX_KRYLOV_BLOCKS blocks. History: the randomized SVD with 10 fixed power iterations left
 * the leading PCs seed-dependent on pbmc3k (flat spectrum tail; every default ARI against the
 * Seurat labels 0.74–0.83 over seeds 42/7/1/123), converged power iterations (Ritz values of the
 * leading 10 within 1e-6, 24–27 iterations on pbmc3k, the 30 cap on synthetic data) fixed that at
 * 2 sparse products per iteration; the Krylov fit reaches the leading PCs more closely in 10–11
 * fused passes (pbmc3k, 10-PC subspace vs 100 power iterations: 1 − cos 7e-9 against 1.4e-6 for the
 * 24 power iterations). 1e-3 (7 blocks) was too loose: pbmc3k seeds 1 / 123 ARI 0.72 (0.78 at 1e-5);
 * docs/benchmarks/engine.md, "PCA by block Krylov".
 */
export const MAX_KRYLOV_BLOCKS = 10;
export const PCA_CONVERGED_PCS = 10;
export const PCA_TOLERANCE = 1e-5;
/**
 * scanpy `scale(max_value=10)` (docs/methods/pipeline.md#scaling-and-pca; Seurat ScaleData's scale.max is 10 too), applied by
 * PcaStep. With the scanpy connectivity graph (steps/clusters.ts) it raised the pbmc3k agreement
 * with the Seurat labels (tutorial settings, 10 PCs, resolution 0.5: ARI 0.71 → 0.88 at seed 42);
 * figures per seed in test/pbmc3k.test.ts.
 */
export const MAX_SCALED_VALUE = 10;
/**
 * Seed of the PCA's start block, whatever the analysis seed: the fit is converged (above), so the
 * start only moves the PCs by rounding-level amounts — which were still enough to move pbmc3k's
 * clusters (5 seeds with the same cells: pairwise ARI between seeds median 0.891, min 0.795;
 * docs/benchmarks/stability.md). The analysis seed drives what is random by design (Scrublet's
 * simulated doublets, the embeddings).
 */
export const PCA_START_SEED = 0;

export interface PcaResult {
  /** Row-major nCells × nComputed. */
  pcs: Float64Array;
  nComputed: number;
  varianceRatio: Float64Array;
}

export type PcaParams = Pick<AnalysisParams, 'seed'>;

/** PCs used downstream: `pcValue`, or the cumulative-variance guidance when 'auto'. */
export function pcsToUse(pcValue: AnalysisParams['pcValue'], pca: PcaResult): number {
  return pcValue === 'auto' ? choosePcCount(pca.varianceRatio) : Math.min(pcValue, pca.nComputed);
}

/**
 * PCA of the HVGs of the log-normalized data, each gene centred and scaled to unit variance
 * (scanpy scale + pca, 50 PCs). Default path: randomized SVD with implicit centring/scaling over
 * the sparse HVG submatrix (D2's methods/sparse-pca, seeded) — scran.js runPca took ~3× longer on
 * 20k cells here — with scaled values clipped at MAX_SCALED_VALUE (see scaledSparsePca).
 * When cell-cycle regression is on, the regressed dense HVG matrix goes through scran.js runPca
 * (no clipping there).
 *
 * `scaleLargeData` (docs/methods/pipeline.md#scaling-and-pca: subset to HVGs before scaling) and a sub-cluster's
 * `onlyScaleHighlyVariableGenes` are honoured by construction: only the HVGs are ever scaled
 * (implicitly, inside the products), which gives the same PCs as scaling every gene and masking,
 * because each gene is scaled on its own; no scaled all-gene matrix is materialised either way.
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

  /**
   * PCs given by the caller instead of computed (a sub-cluster analysis with
   * reDimensionalityReduction = false reuses the parent's PCs of its cells).
   */
  preset: PcaResult | undefined;

  static defaults(): PcaParams {
    return pickDefaults('seed');
  }

  protected async run(_params: PcaParams): Promise<PcaResult> {
    if (this.preset) return this.preset;
    const norm = this.normalize.value;
    const regressed = this.cellCycle.value.regressed;
    if (regressed) return densePca(regressed.values, regressed.nGenes, norm.nCells);
    // shared memory: the PCA's sparse products run on both cores (methods/sparse-products.ts);
    // 2-byte gene indices (issue 33: 6 B per HVG value, not 8)
    const sub = subsetGenesCompact(norm, this.hvg.value.selected, true);
    // the HVG submatrix is our own copy (unless every gene is an HVG): clip it in place
    return scaledSparsePca(sub, PCA_START_SEED, MAX_SCALED_VALUE, sub !== norm);
  }
}

/**
 * PCA of every gene of a cell-major matrix, each scaled to unit variance and clipped at
 * `maxValue` as scanpy `scale(max_value=10)`, then centred (scanpy `pca` centres again);
 * `inPlace` clips the values of `sub` itself (a temporary of the caller: 4 B per value saved). Clipping
 * is applied to the stored values (x → min(x, mean + maxValue·sd)), so the scaled matrix is still
 * never built. The variance ratio of a PC is its variance over the TOTAL variance of the scaled,
 * clipped matrix (scanpy `variance_ratio`), not over the computed PCs only. Values held as counts
 * (`sub.countValues`, the streamed PCA) are clipped by their per-gene cap instead, read where the
 * products decode them: the same float32 values (min(x, fround(bound)) = fround(min(x, bound))
 * for a float32 x, rounding being monotone).
 */
export function scaledSparsePca(
  sub: ProductMatrix,
  seed: number,
  maxValue = Infinity,
  inPlace = false,
): PcaResult {
  const raw = geneMoments(sub);
  const bound = (g: number) => raw.center[g] + maxValue / raw.scale[g];
  let clipped: ProductMatrix;
  if (sub.countValues) {
    const cap = new Float32Array(new SharedArrayBuffer(sub.nGenes * 4));
    for (let g = 0; g < sub.nGenes; g++) cap[g] = raw.scale[g] > 0 ? bound(g) : Infinity;
    clipped = { ...sub, countValues: { ...sub.countValues, cap } };
  } else {
    // clipped values in shared memory (the sparse products read them from a worker thread too);
    // `inPlace`: sub is the caller's temporary, its (shared) values are clipped without a copy
    const data =
      inPlace && sub.data.buffer instanceof SharedArrayBuffer
        ? sub.data
        : new Float32Array(new SharedArrayBuffer(sub.data.length * 4));
    for (let k = 0; k < data.length; k++) {
      const x = sub.data[k];
      const g = sub.indices[k];
      data[k] = raw.scale[g] > 0 ? Math.min(x, bound(g)) : x;
    }
    clipped = { ...sub, data };
  }
  const { center, variance } = geneMoments(clipped);
  let totalVariance = 0;
  for (let g = 0; g < sub.nGenes; g++) totalVariance += variance[g] * raw.scale[g] * raw.scale[g];
  const nComputed = Math.min(N_PCS_COMPUTED, sub.nGenes - 1, sub.nCells - 1);
  const genes = Int32Array.from({ length: sub.nGenes }, (_, g) => g);
  const fit = sparsePca(clipped, genes, nComputed, {
    center,
    scale: raw.scale,
    seed,
    method: 'block-krylov',
    maxPowerIterations: MAX_KRYLOV_BLOCKS,
    convergedPcs: PCA_CONVERGED_PCS,
    tolerance: PCA_TOLERANCE,
  });
  const pcs = Float64Array.from(fit.pcs);
  const varianceRatio = scoreVariances(pcs, fit.nPcs).map((v) => v / Math.max(1e-12, totalVariance));
  return { pcs, nComputed: fit.nPcs, varianceRatio };
}

/** Per-gene mean, variance and 1/sd (ddof 1) of a cell-major matrix; constant genes get scale 0. */
export function geneMoments(m: ProductMatrix): {
  center: Float64Array;
  variance: Float64Array;
  scale: Float64Array;
} {
  const sum = new Float64Array(m.nGenes);
  const sq = new Float64Array(m.nGenes);
  const scratch = valueScratch(m, 0, m.nCells);
  for (let c = 0; c < m.nCells; c++) {
    const values = cellValues(m, c, scratch);
    const shift = m.countValues ? m.indptr[c] : 0;
    for (let k = m.indptr[c]; k < m.indptr[c + 1]; k++) {
      const x = values[k - shift];
      sum[m.indices[k]] += x;
      sq[m.indices[k]] += x * x;
    }
  }
  const n = m.nCells;
  const center = sum.map((x) => x / n);
  const variance = sq.map((q, g) => Math.max(0, (q - n * center[g] * center[g]) / Math.max(1, n - 1)));
  const scale = variance.map((v) => (v > 1e-12 ? 1 / Math.sqrt(v) : 0));
  return { center, variance, scale };
}

/** scran.js runPca (centred and scaled) of a dense cell-after-cell matrix. */
async function densePca(values: Float32Array, nGenes: number, nCells: number): Promise<PcaResult> {
  const scran = await initScran();
  let mat: ScranMatrix | undefined;
  let res: RunPcaResults | undefined;
  try {
    mat = scran.initializeDenseMatrixFromDenseArray(nGenes, nCells, values, {
      columnMajor: true,
      forceInteger: false,
    });
    res = scran.runPca(mat, { numberOfPCs: N_PCS_COMPUTED, scale: true });
    const nComputed = res.numberOfPCs();
    const total = res.totalVariance();
    const pcs = res.principalComponents();
    // scran.js 4.1 varianceExplained() returned zeros for the leading PCs (seen on pbmc3k), so
    // the variance of each PC is taken from its (centred) scores instead.
    const varianceRatio = scoreVariances(pcs, nComputed).map((v) => v / total);
    return { pcs, nComputed, varianceRatio };
  } finally {
    freeAll(res, mat);
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
