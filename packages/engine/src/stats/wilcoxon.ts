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
 * one block of the matrix (at most ~256 MB, wilcoxonBlockGenes) whatever the dataset size.
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

/** At most this many genes per transposed block (fewer when the cells are many: see below). */
export const WILCOXON_BLOCK_GENES = 2048;
/** Stored values per block at most (8 B each: float32 bits + group), i.e. ~256 MB per block. */
export const WILCOXON_BLOCK_VALUES = 32 * 1024 * 1024;

/**
 * Genes per transposed block: 2,048, fewer when the average gene holds so many values that a
 * block would exceed WILCOXON_BLOCK_VALUES (issue 14: at 500k cells a 2,048-gene block is ~1.2 GB).
 * The statistics do not depend on it (each gene is tested on its own).
 */
export function wilcoxonBlockGenes(nnz: number, nGenes: number): number {
  const perGene = nnz / Math.max(1, nGenes);
  return Math.max(
    64,
    Math.min(WILCOXON_BLOCK_GENES, Math.floor(WILCOXON_BLOCK_VALUES / Math.max(1, perGene))),
  );
}

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
  const res: GroupTestResult = {
    z: mk(),
    pval: mk(),
    padj: mk(),
    log2fc: mk(),
    meanGroup: mk(),
    pct1: mk(),
    pct2: mk(),
  };

  const rankSum = new Float64Array(nGroups);
  const nzCount = new Float64Array(nGroups);
  const valSum = new Float64Array(nGroups);
  const blockSize = wilcoxonBlockGenes(norm.indices.length, nGenes);
  // Genes are increasing within a cell, so a per-cell cursor walks each cell once over all blocks.
  const cursor = norm.indptr.slice(0, nCells);
  const sorter = new RadixSorter();
  const f32 = new Float32Array(1);
  const u32 = new Uint32Array(f32.buffer);
  for (let g0 = 0; g0 < nGenes; g0 += blockSize) {
    const g1 = Math.min(nGenes, g0 + blockSize);
    const block = transposeBlock(norm, labels, g0, g1, cursor);
    for (let g = g0; g < g1; g++) {
      const s = block.ptr[g - g0];
      const e = block.ptr[g - g0 + 1];
      // positive float32 bit patterns order as the values: an LSD radix sort of (bits, group)
      const { bits, groups } = sorter.sort(block.bits, block.groups, s, e);
      rankSum.fill(0);
      nzCount.fill(0);
      valSum.fill(0);
      const nnz = e - s;
      const n0 = n - nnz;
      let tie = n0 * n0 * n0 - n0;
      let i = 0;
      while (i < nnz) {
        let j = i + 1;
        while (j < nnz && bits[j] === bits[i]) j++;
        const t = j - i;
        tie += t * t * t - t;
        const rank = n0 + (i + 1 + j) / 2; // average of ranks n0+i+1 … n0+j
        u32[0] = bits[i];
        const value = f32[0];
        for (let k = i; k < j; k++) {
          const grp = groups[k];
          rankSum[grp] += rank;
          nzCount[grp]++;
          valSum[grp] += value;
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
 * Gene-major copy of genes [g0, g1) for labelled cells with value > 0: the float32 bit patterns
 * (which order as the values, all positive) and the group of each.
 */
function transposeBlock(norm: CountMatrix, labels: Int32Array, g0: number, g1: number, cursor: Float64Array) {
  const width = g1 - g0;
  const ptr = new Float64Array(width + 1);
  for (let c = 0; c < norm.nCells; c++) {
    if (labels[c] < 0) continue;
    const end = norm.indptr[c + 1];
    for (let k = cursor[c]; k < end && norm.indices[k] < g1; k++)
      if (norm.data[k] > 0) ptr[norm.indices[k] - g0 + 1]++;
  }
  for (let i = 0; i < width; i++) ptr[i + 1] += ptr[i];
  const bits = new Uint32Array(ptr[width]);
  const groups = new Int32Array(ptr[width]);
  const dataBits = new Uint32Array(norm.data.buffer, norm.data.byteOffset, norm.data.length);
  const pos = ptr.slice(0, width);
  for (let c = 0; c < norm.nCells; c++) {
    const lab = labels[c];
    const end = norm.indptr[c + 1];
    let k = cursor[c];
    for (; k < end && norm.indices[k] < g1; k++) {
      if (lab < 0 || norm.data[k] <= 0) continue;
      const p = pos[norm.indices[k] - g0]++;
      bits[p] = dataBits[k];
      groups[p] = lab;
    }
    cursor[c] = k;
  }
  return { ptr, bits, groups };
}

/**
 * LSD radix sort of (32-bit key, group) pairs in 3 passes of 11 bits (passes whose digit is the
 * same for every key are skipped); short runs use insertion sort. Stable; scratch reused.
 */
class RadixSorter {
  private a = new Uint32Array(0);
  private b = new Uint32Array(0);
  private ga = new Int32Array(0);
  private gb = new Int32Array(0);
  private readonly count = new Uint32Array(2048);

  sort(
    keys: Uint32Array,
    groups: Int32Array,
    s: number,
    e: number,
  ): { bits: Uint32Array; groups: Int32Array } {
    const n = e - s;
    if (this.a.length < n) {
      const size = Math.max(n, this.a.length * 2);
      this.a = new Uint32Array(size);
      this.b = new Uint32Array(size);
      this.ga = new Int32Array(size);
      this.gb = new Int32Array(size);
    }
    let src = this.a;
    let gsrc = this.ga;
    let dst = this.b;
    let gdst = this.gb;
    src.set(keys.subarray(s, e));
    gsrc.set(groups.subarray(s, e));
    if (n <= 64) {
      for (let i = 1; i < n; i++) {
        const k = src[i];
        const g = gsrc[i];
        let j = i - 1;
        while (j >= 0 && src[j] > k) {
          src[j + 1] = src[j];
          gsrc[j + 1] = gsrc[j];
          j--;
        }
        src[j + 1] = k;
        gsrc[j + 1] = g;
      }
      return { bits: src.subarray(0, n), groups: gsrc.subarray(0, n) };
    }
    const count = this.count;
    for (let shift = 0; shift < 32; shift += 11) {
      count.fill(0);
      for (let i = 0; i < n; i++) count[(src[i] >>> shift) & 2047]++;
      if (count[(src[0] >>> shift) & 2047] === n) continue;
      let sum = 0;
      for (let d = 0; d < 2048; d++) {
        const c = count[d];
        count[d] = sum;
        sum += c;
      }
      for (let i = 0; i < n; i++) {
        const p = count[(src[i] >>> shift) & 2047]++;
        dst[p] = src[i];
        gdst[p] = gsrc[i];
      }
      [src, dst] = [dst, src];
      [gsrc, gdst] = [gdst, gsrc];
    }
    return { bits: src.subarray(0, n), groups: gsrc.subarray(0, n) };
  }
}
