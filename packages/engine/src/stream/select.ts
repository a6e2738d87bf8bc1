import { valueKindOf, type ValueKind } from '@cellcloud/contracts/files';
import type { CellChunks, GeneBlock, GeneBlocks } from '@cellcloud/formats/cell-chunks';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { mergedSampleParts, type SamplePart } from './merge';

/**
 * Views of the kept cells and kept genes of a count matrix (the streamed path's filters are masks,
 * never copies: docs/engine-scaling.md). `cells` lists the kept cells in increasing order; `genes`
 * the kept genes in increasing order (new gene j is old gene genes[j]). Entries are selected and
 * genes renumbered when a chunk or block is decoded — the same values, in the same order, as
 * selectCellsAndGenes (sparse.ts) gives in memory.
 */
export interface Selection {
  cells: Uint32Array;
  genes: Uint32Array;
  /** Old gene → new gene, −1 when dropped (length: the old gene count). */
  geneMap: Int32Array;
}

export function selection(cells: Uint32Array, keepGene: Uint8Array): Selection {
  const geneMap = new Int32Array(keepGene.length).fill(-1);
  const genes: number[] = [];
  keepGene.forEach((k, g) => {
    if (k) {
      geneMap[g] = genes.length;
      genes.push(g);
    }
  });
  return { cells, genes: Uint32Array.from(genes), geneMap };
}

/**
 * Cell chunks of the selection: one chunk per source chunk holding kept cells. `nnz` is the
 * source's until the caller sets the view's (known after a pass: `countStored`).
 */
export function selectCells(src: CellChunks, sel: Selection): CellChunks {
  const { cells, geneMap, genes } = sel;
  let everyGene = geneMap.length === genes.length;
  for (let g = 0; everyGene && g < geneMap.length; g++) everyGene = geneMap[g] === g;
  // source chunk of each view chunk, and its first kept cell (position in `cells`)
  const from: number[] = [];
  const first: number[] = [];
  let p = 0;
  for (let i = 0; i < src.chunkCount && p < cells.length; i++) {
    const end = src.chunkStart(i + 1);
    if (cells[p] >= end) continue;
    from.push(i);
    first.push(p);
    while (p < cells.length && cells[p] < end) p++;
  }
  first.push(cells.length);
  return {
    nCells: cells.length,
    nGenes: genes.length,
    nnz: src.nnz,
    chunkCount: from.length,
    chunkStart: (i) => first[Math.min(i, from.length)],
    chunk(i) {
      const m = src.chunk(from[i]);
      const c0 = src.chunkStart(from[i]);
      const f = first[i];
      const n = first[i + 1] - f;
      // kept cells' extents in the source chunk (final when every gene is kept)
      const indptr = new Float64Array(n + 1);
      for (let j = 0; j < n; j++) {
        const c = cells[f + j] - c0;
        indptr[j + 1] = indptr[j] + (m.indptr[c + 1] - m.indptr[c]);
      }
      const out = { nGenes: genes.length, nCells: n, indptr, indices: m.indices, data: m.data };
      if (everyGene) copyCellRuns(m, cells, f, c0, out);
      else dropGenes(m, cells, f, c0, geneMap, out);
      return out;
    },
  };
}

/**
 * The kept cells of `m` when every gene is kept (new gene = old gene): each run of consecutive
 * kept cells is one contiguous stretch of the source, copied whole. `out.indptr` is already final.
 */
function copyCellRuns(m: CountMatrix, cells: Uint32Array, f: number, c0: number, out: CountMatrix): void {
  const n = out.nCells;
  const { indptr } = out;
  const indices = new Uint32Array(indptr[n]);
  const data = new Float32Array(indptr[n]);
  for (let j = 0; j < n;) {
    const c = cells[f + j] - c0;
    let e = j + 1;
    while (e < n && cells[f + e] - c0 === c + (e - j)) e++;
    const k0 = m.indptr[c];
    const k1 = m.indptr[c + e - j];
    indices.set(m.indices.subarray(k0, k1), indptr[j]);
    data.set(m.data.subarray(k0, k1), indptr[j]);
    j = e;
  }
  out.indices = indices;
  out.data = data;
}

/**
 * The kept cells of `m` with dropped genes left out and the others renumbered, in one pass:
 * `out.indptr` holds each cell's source extent on entry (an upper bound) and its kept extent on
 * return; the arrays are trimmed only when a value was dropped.
 */
function dropGenes(
  m: CountMatrix,
  cells: Uint32Array,
  f: number,
  c0: number,
  geneMap: Int32Array,
  out: CountMatrix,
): void {
  const n = out.nCells;
  const { indptr } = out;
  const bound = indptr[n];
  let indices = new Uint32Array(bound);
  let data = new Float32Array(bound);
  let o = 0;
  for (let j = 0; j < n; j++) {
    const c = cells[f + j] - c0;
    o = copyKept(m.indices, m.data, m.indptr[c], m.indptr[c + 1], geneMap, indices, data, o);
    indptr[j + 1] = o;
  }
  if (o < bound) {
    indices = indices.slice(0, o);
    data = data.slice(0, o);
  }
  out.indices = indices;
  out.data = data;
}

/** Gene blocks of the selection; `geneNnz`: stored values of each kept gene over the kept cells. */
export function selectGenes(src: GeneBlocks, sel: Selection, geneNnz: Float64Array): GeneBlocks {
  const { cells, genes } = sel;
  // the kept cells are increasing: all of them kept means new cell = old cell
  const everyCell = cells.length === src.nCells;
  const cellMap = new Int32Array(everyCell ? 0 : src.nCells).fill(-1);
  if (!everyCell) for (let i = 0; i < cells.length; i++) cellMap[cells[i]] = i;
  const parts = mergedSampleParts(src);
  return {
    nCells: cells.length,
    nGenes: genes.length,
    geneNnz,
    genes(g0, g1) {
      const indptr = new Float64Array(g1 - g0 + 1);
      if (g1 <= g0)
        return {
          g0,
          g1,
          nCells: cells.length,
          indptr,
          indices: new Uint32Array(0),
          data: new Float32Array(0),
        };
      const o0 = genes[g0];
      for (let j = g0; j < g1; j++) indptr[j - g0 + 1] = indptr[j - g0] + geneNnz[j];
      const nnz = indptr[g1 - g0];
      const out = {
        g0,
        g1,
        nCells: cells.length,
        indptr,
        indices: new Uint32Array(nnz),
        data: new Float32Array(nnz),
      };
      if (parts) {
        // merged samples: each sample's values selected from its own block, no merged copy
        const at = indptr.slice(0, g1 - g0);
        for (const p of parts(o0, genes[g1 - 1] + 1))
          if (p.block) copySamplePart(p, genes, g0, everyCell ? undefined : cellMap, at, out);
        for (let j = 0; j < g1 - g0; j++)
          if (at[j] !== indptr[j + 1]) throw new Error(`gene ${g0 + j}: values do not match geneNnz`);
        return out;
      }
      const b = src.genes(o0, genes[g1 - 1] + 1);
      if (everyCell) copyGeneRuns(b, genes, g0, g1, o0, out);
      else dropCells(b, genes, g0, g1, o0, cellMap, out);
      return out;
    },
  };
}

/**
 * Appends a merged sample's values of the kept genes g0 … g1 − 1 at `at[j]` (advanced past them):
 * its cells offset by the sample's first cell, or renumbered by `cellMap` (dropped: −1). Values
 * of a gene land after those of the samples before, as in the merged block.
 */
function copySamplePart(
  p: SamplePart,
  genes: Uint32Array,
  g0: number,
  cellMap: Int32Array | undefined,
  at: Float64Array,
  out: GeneBlock,
): void {
  const b = p.block!;
  const { indices, data } = out;
  const map = cellMap?.subarray(p.offset);
  for (let j = 0; j < at.length; j++) {
    const g = p.inverse[genes[g0 + j]];
    if (g < 0) continue;
    const k0 = b.indptr[g - b.g0];
    const k1 = b.indptr[g - b.g0 + 1];
    if (k1 === k0) continue;
    if (map) at[j] = copyKept(b.indices, b.data, k0, k1, map, indices, data, at[j]);
    else at[j] = copyOffset(b.indices, b.data, k0, k1, p.offset, indices, data, at[j]);
  }
}

/** Copies values k0 … k1 − 1 to `indices`/`data` from position `o`, indices plus `offset`. */
function copyOffset(
  from: Uint32Array,
  values: Float32Array,
  k0: number,
  k1: number,
  offset: number,
  indices: Uint32Array,
  data: Float32Array,
  o: number,
): number {
  data.set(values.subarray(k0, k1), o);
  if (offset === 0) indices.set(from.subarray(k0, k1), o);
  else for (let k = k0; k < k1; k++) indices[o + k - k0] = from[k] + offset;
  return o + k1 - k0;
}

/** Kept genes g0 … g1 − 1 of `b` when every cell is kept: each run of consecutive source genes copied whole. */
function copyGeneRuns(
  b: GeneBlock,
  genes: Uint32Array,
  g0: number,
  g1: number,
  o0: number,
  out: GeneBlock,
): void {
  const { indices, data } = out;
  let o = 0;
  for (let j = g0; j < g1;) {
    let e = j + 1;
    while (e < g1 && genes[e] === genes[j] + (e - j)) e++;
    const k0 = b.indptr[genes[j] - o0];
    const k1 = b.indptr[genes[e - 1] - o0 + 1];
    indices.set(b.indices.subarray(k0, k1), o);
    data.set(b.data.subarray(k0, k1), o);
    o += k1 - k0;
    j = e;
  }
}

/** Kept genes g0 … g1 − 1 of `b`, values of dropped cells left out and the others renumbered. */
function dropCells(
  b: GeneBlock,
  genes: Uint32Array,
  g0: number,
  g1: number,
  o0: number,
  cellMap: Int32Array,
  out: GeneBlock,
): void {
  let o = 0;
  for (let j = g0; j < g1; j++) {
    const r = genes[j] - o0;
    o = copyKept(b.indices, b.data, b.indptr[r], b.indptr[r + 1], cellMap, out.indices, out.data, o);
  }
}

/**
 * Copies values k0 … k1 − 1 whose index `map` keeps (≥ 0), renumbered, to `indices`/`data` from
 * position `o`; returns the position after the last one written.
 */
function copyKept(
  from: Uint32Array,
  values: Float32Array,
  k0: number,
  k1: number,
  map: Int32Array,
  indices: Uint32Array,
  data: Float32Array,
  o: number,
): number {
  for (let k = k0; k < k1; k++) {
    const t = map[from[k]];
    if (t < 0) continue;
    indices[o] = t;
    data[o++] = values[k];
  }
  return o;
}

/** Calls `visit` with each chunk of `cells` and its first cell, in order. */
export function forEachChunk(cells: CellChunks, visit: (m: CountMatrix, c0: number) => void): void {
  for (let i = 0; i < cells.chunkCount; i++) visit(cells.chunk(i), cells.chunkStart(i));
}

/** What one pass over the selected counts gives the later steps. */
export interface StoredCounts {
  /** Sum of the stored counts of each cell (logNormalize's totals). */
  totals: Float64Array;
  /** Stored values of each gene. */
  geneNnz: Float64Array;
  nnz: number;
  /** countsKind (steps/normalize.ts) of the values. */
  kind: ValueKind;
}

export function countStored(cells: CellChunks): StoredCounts {
  const totals = new Float64Array(cells.nCells);
  const geneNnz = new Float64Array(cells.nGenes);
  let nnz = 0;
  let nonInteger = false;
  let max = 0;
  forEachChunk(cells, (m, c0) => {
    for (let c = 0; c < m.nCells; c++) {
      let total = 0;
      for (let k = m.indptr[c]; k < m.indptr[c + 1]; k++) {
        const v = m.data[k];
        total += v;
        geneNnz[m.indices[k]]++;
        if (v > max) max = v;
        if (!nonInteger && !Number.isInteger(v)) nonInteger = true;
      }
      totals[c0 + c] = total;
    }
    nnz += m.indptr[m.nCells];
  });
  return { totals, geneNnz, nnz, kind: valueKindOf(nonInteger, max) };
}
