import type { CountMatrix } from '@cellcloud/formats/matrix';
import { benjaminiHochberg, twoSidedNormalP } from './normal';

/**
 * Wilcoxon rank-sum test of every gene, each group vs the rest of the labelled cells, as scanpy's
 * `rank_genes_groups(method='wilcoxon', tie_correct=True)` does: normal approximation with the tie
 * correction, two-sided p, Benjamini–Hochberg per group; log2FC from log1p-normalized means
 * (log2((expm1(mean_g)+1e-9)/(expm1(mean_rest)+1e-9))); pct = fraction of cells with value > 0.
 *
 * Input: the log-normalized matrix in the canonical cell-major layout; labels[c] = group index or
 * −1 (cell not tested). Genes are processed in blocks transposed on the fly, so memory stays at
 * one block of the matrix whatever the dataset size.
 */
export interface GroupTestResult {
  /** Per group: arrays of length nGenes. */
  z: Float64Array[];
  pval: Float64Array[];
  padj: Float64Array[];
  log2fc: Float64Array[];
  meanGroup: Float64Array[];
  pct1: Float64Array[];
  pct2: Float64Array[];
}

const CLUSTER_BITS = 0x1fffffff;

export function wilcoxonByGroup(
  norm: CountMatrix,
  labels: Int32Array,
  nGroups: number,
  onProgress?: (fraction: number) => void,
): GroupTestResult {
  const { nGenes, nCells } = norm;
  const groupSize = new Float64Array(nGroups);
  let n = 0;
  for (let c = 0; c < nCells; c++) {
    if (labels[c] >= 0) {
      groupSize[labels[c]]++;
      n++;
    }
  }
  const mk = () => Array.from({ length: nGroups }, () => new Float64Array(nGenes));
  const res: GroupTestResult = { z: mk(), pval: mk(), padj: mk(), log2fc: mk(), meanGroup: mk(), pct1: mk(), pct2: mk() };

  const rankSum = new Float64Array(nGroups);
  const nzCount = new Float64Array(nGroups);
  const valSum = new Float64Array(nGroups);
  const blockSize = 2048;
  // Genes are increasing within a cell, so a per-cell cursor walks each cell once over all blocks.
  const cursor = norm.indptr.slice(0, nCells);
  for (let g0 = 0; g0 < nGenes; g0 += blockSize) {
    const g1 = Math.min(nGenes, g0 + blockSize);
    const block = transposeBlock(norm, labels, g0, g1, cursor);
    for (let g = g0; g < g1; g++) {
      const s = block.ptr[g - g0];
      const e = block.ptr[g - g0 + 1];
      const keys = block.keys.subarray(s, e);
      keys.sort();
      const words = new Uint32Array(keys.buffer, keys.byteOffset, keys.length * 2);
      rankSum.fill(0);
      nzCount.fill(0);
      valSum.fill(0);
      const nnz = e - s;
      const n0 = n - nnz;
      let tie = n0 * n0 * n0 - n0;
      let i = 0;
      while (i < nnz) {
        let j = i + 1;
        while (j < nnz && words[2 * j + 1] === words[2 * i + 1] && words[2 * j] >>> 29 === words[2 * i] >>> 29) j++;
        const t = j - i;
        tie += t * t * t - t;
        const rank = n0 + (i + 1 + j) / 2; // average of ranks n0+i+1 … n0+j
        for (let k = i; k < j; k++) {
          const grp = words[2 * k] & CLUSTER_BITS;
          words[2 * k] &= ~CLUSTER_BITS;
          rankSum[grp] += rank;
          nzCount[grp]++;
          valSum[grp] += keys[k];
        }
        i = j;
      }
      let totalSum = 0;
      for (let k = 0; k < nGroups; k++) totalSum += valSum[k];
      const zeroRank = (n0 + 1) / 2;
      const tieCorr = n > 1 ? 1 - tie / (n * n * n - n) : 0;
      for (let k = 0; k < nGroups; k++) {
        const nk = groupSize[k];
        const m = n - nk;
        const r = rankSum[k] + zeroRank * (nk - nzCount[k]);
        const sd = Math.sqrt((tieCorr * nk * m * (n + 1)) / 12);
        const z = sd > 0 ? (r - (nk * (n + 1)) / 2) / sd : 0;
        res.z[k][g] = z;
        res.pval[k][g] = sd > 0 ? twoSidedNormalP(z) : 1;
        const meanG = nk > 0 ? valSum[k] / nk : 0;
        const meanR = m > 0 ? (totalSum - valSum[k]) / m : 0;
        res.meanGroup[k][g] = meanG;
        res.log2fc[k][g] = Math.log2((Math.expm1(meanG) + 1e-9) / (Math.expm1(meanR) + 1e-9));
        res.pct1[k][g] = nk > 0 ? nzCount[k] / nk : 0;
        res.pct2[k][g] = m > 0 ? (nnz - nzCount[k]) / m : 0;
      }
    }
    onProgress?.(g1 / nGenes);
  }
  for (let k = 0; k < nGroups; k++) res.padj[k] = benjaminiHochberg(res.pval[k]);
  return res;
}

/**
 * Gene-major copy of genes [g0, g1) for labelled cells with value > 0, as Float64 sort keys:
 * a float32 value widened to float64 has 29 zero low mantissa bits, which carry the group index,
 * so a plain numeric sort orders by value and the group rides along.
 */
function transposeBlock(norm: CountMatrix, labels: Int32Array, g0: number, g1: number, cursor: Float64Array) {
  const width = g1 - g0;
  const ptr = new Float64Array(width + 1);
  for (let c = 0; c < norm.nCells; c++) {
    if (labels[c] < 0) continue;
    const end = norm.indptr[c + 1];
    for (let k = cursor[c]; k < end && norm.indices[k] < g1; k++) if (norm.data[k] > 0) ptr[norm.indices[k] - g0 + 1]++;
  }
  for (let i = 0; i < width; i++) ptr[i + 1] += ptr[i];
  const keys = new Float64Array(ptr[width]);
  const words = new Uint32Array(keys.buffer);
  const pos = ptr.slice(0, width);
  for (let c = 0; c < norm.nCells; c++) {
    const lab = labels[c];
    const end = norm.indptr[c + 1];
    let k = cursor[c];
    for (; k < end && norm.indices[k] < g1; k++) {
      if (lab < 0 || norm.data[k] <= 0) continue;
      const p = pos[norm.indices[k] - g0]++;
      keys[p] = norm.data[k];
      words[2 * p] |= lab;
    }
    cursor[c] = k;
  }
  return { ptr, keys };
}
