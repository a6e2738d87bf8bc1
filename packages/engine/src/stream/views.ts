import type { ValueKind } from '@cellcloud/contracts/files';
import type { CellChunks, GeneBlock, GeneBlocks } from '@cellcloud/formats/cell-chunks';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { TARGET_SUM } from '../steps/normalize';

/**
 * Views over streamed matrices (issue 33, docs/engine-scaling.md): the kept cells of a filter
 * (masks, never copies) and the log-normalized values computed where they are read. A view holds
 * only per-cell or per-gene arrays; its chunks and blocks are decoded from the source on each call.
 */

/** Non-zeros per block when a view reads its whole source gene by gene (≈ 32 MB of values + indices). */
const SCAN_BLOCK_VALUES = 4 * 1024 * 1024;

/** Gene ranges [g0, g1) of at most `maxValues` non-zeros each (at least one gene per range). */
export function geneRanges(geneNnz: ArrayLike<number>, maxValues: number): [number, number][] {
  const out: [number, number][] = [];
  for (let g0 = 0; g0 < geneNnz.length;) {
    let g1 = g0 + 1;
    let inBlock = geneNnz[g0];
    while (g1 < geneNnz.length && inBlock + geneNnz[g1] <= maxValues) inBlock += geneNnz[g1++];
    out.push([g0, g1]);
    g0 = g1;
  }
  return out;
}

function checkKept(kept: Uint32Array, nCells: number): void {
  for (let i = 0; i < kept.length; i++) {
    if (kept[i] >= nCells || (i > 0 && kept[i] <= kept[i - 1]))
      throw new Error('kept cells must be increasing cell indices within the matrix');
  }
}

/**
 * The cells `kept` (increasing indices) of `cells`, renumbered 0 … kept.length − 1. Chunk i of the
 * view holds the kept cells of source chunk i (possibly none). `nnz` is counted on first read
 * (one pass over the source chunks).
 */
export function keepCells(cells: CellChunks, kept: Uint32Array): CellChunks {
  checkKept(kept, cells.nCells);
  const chunkCount = cells.chunkCount;
  // first kept position of each source chunk: kept is increasing, so one merge walk
  const starts = new Float64Array(chunkCount + 1);
  let p = 0;
  for (let i = 0; i <= chunkCount; i++) {
    const c0 = cells.chunkStart(i);
    while (p < kept.length && kept[p] < c0) p++;
    starts[i] = i === chunkCount ? kept.length : p;
  }
  const chunk = (i: number): CountMatrix => {
    const src = cells.chunk(i);
    const c0 = cells.chunkStart(i);
    const k0 = starts[i];
    const k1 = starts[i + 1];
    let total = 0;
    for (let k = k0; k < k1; k++) total += src.indptr[kept[k] - c0 + 1] - src.indptr[kept[k] - c0];
    const indptr = new Float64Array(k1 - k0 + 1);
    const indices = new Uint32Array(total);
    const data = new Float32Array(total);
    let at = 0;
    for (let k = k0; k < k1; k++) {
      const c = kept[k] - c0;
      const s = src.indptr[c];
      const e = src.indptr[c + 1];
      indices.set(src.indices.subarray(s, e), at);
      data.set(src.data.subarray(s, e), at);
      at += e - s;
      indptr[k - k0 + 1] = at;
    }
    return { nGenes: src.nGenes, nCells: k1 - k0, indptr, indices, data };
  };
  let nnz = -1;
  return {
    nCells: kept.length,
    nGenes: cells.nGenes,
    get nnz() {
      if (nnz < 0) {
        nnz = 0;
        for (let i = 0; i < chunkCount; i++) {
          if (starts[i + 1] === starts[i]) continue;
          const src = cells.chunk(i);
          const c0 = cells.chunkStart(i);
          for (let k = starts[i]; k < starts[i + 1]; k++)
            nnz += src.indptr[kept[k] - c0 + 1] - src.indptr[kept[k] - c0];
        }
      }
      return nnz;
    },
    chunkCount,
    chunkStart: (i) => starts[i],
    chunk,
  };
}

/**
 * The cells `kept` (increasing indices) of `genes`, renumbered to their position in `kept`.
 * `geneNnz` is counted on first read (one pass over the source in blocks of ≈ 8M values).
 */
export function keepCellsGenes(genes: GeneBlocks, kept: Uint32Array): GeneBlocks {
  checkKept(kept, genes.nCells);
  const position = new Int32Array(genes.nCells).fill(-1);
  for (let i = 0; i < kept.length; i++) position[kept[i]] = i;
  const block = (g0: number, g1: number): GeneBlock => {
    const src = genes.genes(g0, g1);
    const width = g1 - g0;
    const indptr = new Float64Array(width + 1);
    let total = 0;
    for (let k = 0; k < src.indices.length; k++) if (position[src.indices[k]] >= 0) total++;
    const indices = new Uint32Array(total);
    const data = new Float32Array(total);
    let at = 0;
    for (let j = 0; j < width; j++) {
      const e = src.indptr[j + 1];
      for (let k = src.indptr[j]; k < e; k++) {
        const c = position[src.indices[k]];
        if (c < 0) continue;
        indices[at] = c;
        data[at++] = src.data[k];
      }
      indptr[j + 1] = at;
    }
    return { g0, g1, nCells: kept.length, indptr, indices, data };
  };
  let geneNnz: Float64Array | undefined;
  return {
    nCells: kept.length,
    nGenes: genes.nGenes,
    get geneNnz() {
      if (!geneNnz) {
        const counted = new Float64Array(genes.nGenes);
        // counted on the source's blocks: no copy of the kept values
        for (const [g0, g1] of geneRanges(genes.geneNnz, SCAN_BLOCK_VALUES)) {
          const src = genes.genes(g0, g1);
          for (let j = 0; j < g1 - g0; j++) {
            let n = 0;
            for (let k = src.indptr[j]; k < src.indptr[j + 1]; k++) if (position[src.indices[k]] >= 0) n++;
            counted[g0 + j] = n;
          }
        }
        geneNnz = counted;
      }
      return geneNnz;
    },
    genes: block,
  };
}

/** Per cell: the factor 1e4 / total of logNormalize (steps/normalize.ts), 0 when the total is 0. */
function scaleFactors(totals: Float64Array): Float64Array {
  const f = new Float64Array(totals.length);
  for (let c = 0; c < totals.length; c++) f[c] = totals[c] > 0 ? TARGET_SUM / totals[c] : 0;
  return f;
}

/**
 * Counts are mostly small integers (≈ 94 % are 1–4 in synth1m) and a cell's normalized value of a
 * count depends only on the count and the cell's factor, so the cell-major views compute each
 * distinct small count of a cell once (log1p is ≈ 20 ns; the cached value is the same number).
 * A cell's memo is invalidated by a new tag instead of being cleared.
 */
export const COUNT_MEMO = 64;

export class CountMemo<A extends Float32Array | Float64Array> {
  readonly stamp = new Int32Array(COUNT_MEMO);
  readonly value: A;
  private tag = 0;

  constructor(type: new (n: number) => A) {
    this.value = new type(COUNT_MEMO);
  }

  /** A tag no entry holds yet (one per cell). */
  next(): number {
    if (this.tag === 0x7fffffff) {
      this.stamp.fill(0);
      this.tag = 0;
    }
    return ++this.tag;
  }
}

/**
 * Counts 1 … TABLE_COUNTS of each cell, normalized (float32 log1p(k × factor[c]) at
 * c · TABLE_COUNTS + k − 1): the gene-major view meets the cells in any order, so it looks the
 * values up in this table (16 B per cell) built once.
 */
const TABLE_COUNTS = 4;

function smallCountTable(factor: Float64Array): Float32Array {
  const t = new Float32Array(factor.length * TABLE_COUNTS);
  for (let c = 0; c < factor.length; c++)
    for (let k = 1; k <= TABLE_COUNTS; k++) t[c * TABLE_COUNTS + k - 1] = Math.log1p(k * factor[c]);
  return t;
}

/** logNormalizedCells' chunks and, for integer counts, what they are computed from. */
export interface NormalizedCells extends CellChunks {
  /**
   * Kind 'counts': the source chunks and the per-cell factors, value = Math.fround(Math.log1p(count ×
   * factor[c])) — the streamed PCA holds its HVG submatrix as counts and decodes them (stream/pca.ts).
   */
  fromCounts?: { cells: CellChunks; factor: Float64Array };
}

/**
 * log1p(count × 1e4 / totals[c]) of each stored value of cell c, as float32: exactly the values of
 * logNormalize (steps/normalize.ts) when `totals` are the cells' sums of their stored counts in
 * order (0 when the total is 0). Kind 'logNormalized' passes the values through, as logNormalize
 * does. Each chunk shares `indptr` and `indices` with the source chunk.
 */
export function logNormalizedCells(
  cells: CellChunks,
  totals: Float64Array,
  kind: ValueKind = 'counts',
): NormalizedCells {
  if (totals.length !== cells.nCells) throw new Error('one total per cell is needed');
  const factor = scaleFactors(totals);
  const memo = new CountMemo(Float32Array);
  return {
    fromCounts: kind === 'counts' ? { cells, factor } : undefined,
    nCells: cells.nCells,
    nGenes: cells.nGenes,
    get nnz() {
      return cells.nnz;
    },
    chunkCount: cells.chunkCount,
    chunkStart: (i) => cells.chunkStart(i),
    chunk(i) {
      const src = cells.chunk(i);
      if (kind === 'logNormalized') return src;
      const c0 = cells.chunkStart(i);
      const data = new Float32Array(src.data.length);
      const sd = src.data;
      for (let c = 0; c < src.nCells; c++) {
        const f = factor[c0 + c];
        const tag = memo.next();
        const e = src.indptr[c + 1];
        for (let k = src.indptr[c]; k < e; k++) {
          const x = sd[k];
          const n = x | 0;
          if (n === x && n >= 0 && n < COUNT_MEMO) {
            if (memo.stamp[n] !== tag) {
              memo.stamp[n] = tag;
              memo.value[n] = Math.log1p(x * f);
            }
            data[k] = memo.value[n];
          } else data[k] = Math.log1p(x * f);
        }
      }
      return { ...src, data };
    },
  };
}

/** The source of each logNormalizedGenes view, and the same view over another source. */
const normalizedSources = new WeakMap<
  GeneBlocks,
  { genes: GeneBlocks; over: (genes: GeneBlocks) => GeneBlocks }
>();

/** logNormalizedCells over gene blocks: the same float32 values, gene-major. */
export function logNormalizedGenes(
  genes: GeneBlocks,
  totals: Float64Array,
  kind: ValueKind = 'counts',
): GeneBlocks {
  if (totals.length !== genes.nCells) throw new Error('one total per cell is needed');
  const factor = scaleFactors(totals);
  const shared: { table?: Float32Array } = {};
  return normalizedView(genes, factor, kind, shared);
}

function normalizedView(
  genes: GeneBlocks,
  factor: Float64Array,
  kind: ValueKind,
  shared: { table?: Float32Array },
): GeneBlocks {
  const view: GeneBlocks = {
    nCells: genes.nCells,
    nGenes: genes.nGenes,
    get geneNnz() {
      return genes.geneNnz;
    },
    genes(g0, g1) {
      const src = genes.genes(g0, g1);
      if (kind === 'logNormalized') return src;
      shared.table ??= smallCountTable(factor);
      const t = shared.table;
      const data = new Float32Array(src.data.length);
      const { data: sd, indices } = src;
      for (let k = 0; k < data.length; k++) {
        const x = sd[k];
        const c = indices[k];
        const n = x | 0;
        data[k] =
          n === x && n >= 1 && n <= TABLE_COUNTS ? t[c * TABLE_COUNTS + n - 1] : Math.log1p(x * factor[c]);
      }
      return { ...src, data };
    },
  };
  normalizedSources.set(view, { genes, over: (other) => normalizedView(other, factor, kind, shared) });
  return view;
}

/**
 * The last block read of `genes` kept, so that reading the same genes again right after (another
 * layer computed from the same block) does not decode them twice. Holds one block at a time.
 */
export function lastBlockShared(genes: GeneBlocks): GeneBlocks {
  let last: GeneBlock | undefined;
  return {
    nCells: genes.nCells,
    nGenes: genes.nGenes,
    get geneNnz() {
      return genes.geneNnz;
    },
    genes(g0, g1) {
      if (last && last.g0 === g0 && last.g1 === g1) return last;
      last = undefined;
      last = genes.genes(g0, g1);
      return last;
    },
  };
}

/**
 * The counts and normalized gene blocks of a streamed result for a writer that reads the same
 * genes of both layers one after the other (the explorer's expression layers): when `normalized`
 * is logNormalizedGenes of `counts`, each block of counts is decoded once and normalized from the
 * decoded block — the same values. Otherwise the views as given.
 */
export function geneLayersSharingBlocks(
  counts: GeneBlocks,
  normalized: GeneBlocks,
): { counts: GeneBlocks; normalized: GeneBlocks } {
  const from = normalizedSources.get(normalized);
  if (!from || from.genes !== counts) return { counts, normalized };
  const once = lastBlockShared(counts);
  return { counts: once, normalized: from.over(once) };
}
