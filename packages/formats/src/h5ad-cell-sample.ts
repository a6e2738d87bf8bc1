import type { CellBlocks } from './cell-blocks';
import {
  attrString,
  child,
  datasetAt,
  groupAt,
  isGroup,
  withH5Source,
  type RandomAccessSource,
} from './h5-io';
import type { CellColumn, CountMatrix, Dataset } from './matrix';

/**
 * A documented, deterministic sample of a large result's cells (issue 33: the downstream tasks on
 * a 1M-cell result never hold the whole matrix) and the sampled cells' dataset, read a span of
 * cells at a time from cell blocks (withH5adCellBlocks over a random-access file).
 *
 * The rule (docs/engine-scaling.md "Downstream tasks on large results"):
 *  - strata are the labels of one categorical level (each label one stratum), else all cells;
 *  - every stratum first keeps min(its size, floor) cells, floor = min(FLOOR, ⌊n / (2·strata)⌋);
 *  - the rest of the n cells are shared in proportion to each stratum's remaining cells
 *    (⌊share⌋, the leftover by largest remainder, ties to the earlier stratum): at most n in all;
 *  - inside a stratum the cells kept are those of smallest mix32(seed, cell index), a hash of the
 *    cell's position — the same cells on every rerun, independent of the strata's order;
 *  - the sample is returned in the result's cell order.
 */

/**
 * The cell count of an .h5ad whose `layers["counts"]` is CSR (our analysis.h5ad: what
 * withH5adCellBlocks streams), from the shape of its indptr — a few positional reads; undefined
 * for other layouts.
 */
export function h5adCsrCellCount(source: RandomAccessSource, file: string): Promise<number | undefined> {
  return withH5Source(source, file, (f) => {
    const layers = groupAt(f, 'layers');
    const g = layers && child(layers, 'counts');
    if (!g || !isGroup(g) || attrString(g, 'encoding-type') !== 'csr_matrix') return undefined;
    const indptr = datasetAt(g, 'indptr');
    return indptr ? Math.max(0, Number(indptr.shape?.[0] ?? 1) - 1) : undefined;
  });
}

/** Cells every stratum keeps first (fewer when it is smaller or there are many strata). */
export const SAMPLE_STRATUM_FLOOR = 200;

/** Cells each of `groups` strata keeps first in a sample of `n` cells (before the proportional rest). */
export function stratumFloor(n: number, groups: number): number {
  return Math.min(SAMPLE_STRATUM_FLOOR, Math.floor(n / (2 * Math.max(1, groups))));
}

/** A 32-bit mix of (seed, i) (splitmix-style finaliser): the sample's deterministic ranking. */
export function mix32(seed: number, i: number): number {
  let z = (Math.imul(i ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(seed | 0, 0xc2b2ae35)) >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return (z ^ (z >>> 16)) >>> 0;
}

/** Indices (ascending) of at most `n` of `nCells` cells, stratified by `labels` (see above). */
export function stratifiedCellSample(
  nCells: number,
  n: number,
  seed: number,
  labels?: ArrayLike<string>,
): Uint32Array {
  if (nCells <= n) return Uint32Array.from({ length: nCells }, (_, i) => i);
  const strata = new Map<string, number[]>();
  for (let c = 0; c < nCells; c++) {
    const l = labels ? labels[c]! : '';
    let a = strata.get(l);
    if (!a) strata.set(l, (a = []));
    a.push(c);
  }
  const groups = [...strata.values()];
  const floor = stratumFloor(n, groups.length);
  const quota = groups.map((g) => Math.min(g.length, floor));
  const left = n - quota.reduce((a, b) => a + b, 0);
  const rest = groups.map((g, i) => g.length - quota[i]!);
  const restSum = rest.reduce((a, b) => a + b, 0);
  if (restSum > 0 && left > 0) {
    const share = rest.map((r) => (r * left) / restSum);
    let given = 0;
    share.forEach((s, i) => {
      quota[i]! += Math.floor(s);
      given += Math.floor(s);
    });
    const order = share
      .map((s, i) => [s - Math.floor(s), i] as const)
      .sort((a, b) => b[0] - a[0] || a[1] - b[1]);
    for (let k = 0; k < left - given && k < order.length; k++) quota[order[k]![1]]! += 1;
  }
  const out: number[] = [];
  groups.forEach((g, i) => {
    const ranked = g.map((c) => [mix32(seed, c), c] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    for (let k = 0; k < quota[i]!; k++) out.push(ranked[k]![1]);
  });
  return Uint32Array.from(out).sort();
}

/** Entries of skipped cells read through rather than starting a new span (one HDF5 chunk). */
const GAP_ENTRIES = 65_536;
/** Entries of one span read at once. */
const SPAN_ENTRIES = 4_000_000;

/** The counts of `cells` (ascending) as a CountMatrix, read a span of cells at a time. */
export function sampledCounts(blocks: CellBlocks, cells: Uint32Array): CountMatrix {
  const ip = blocks.indptr;
  const indptr = new Float64Array(cells.length + 1);
  for (let k = 0; k < cells.length; k++) indptr[k + 1] = indptr[k]! + (ip[cells[k]! + 1]! - ip[cells[k]!]!);
  const nnz = indptr[cells.length]!;
  const indices = new Uint32Array(nnz);
  const data = new Float32Array(nnz);
  let k = 0;
  while (k < cells.length) {
    // a span of sampled cells whose skipped entries between them stay under GAP_ENTRIES
    let end = k + 1;
    while (
      end < cells.length &&
      ip[cells[end]!]! - ip[cells[end - 1]! + 1]! <= GAP_ENTRIES &&
      ip[cells[end]! + 1]! - ip[cells[k]!]! <= SPAN_ENTRIES
    )
      end++;
    const from = ip[cells[k]!]!;
    const e = blocks.entries(from, ip[cells[end - 1]! + 1]!);
    for (let j = k; j < end; j++) {
      const s = ip[cells[j]!]! - from;
      const len = ip[cells[j]! + 1]! - ip[cells[j]!]!;
      const at = indptr[j]!;
      for (let t = 0; t < len; t++) {
        indices[at + t] = e.indices[s + t]!;
        data[at + t] = e.data[s + t]!;
      }
    }
    k = end;
  }
  return { nGenes: blocks.nGenes, nCells: cells.length, indptr, indices, data };
}

/** A per-cell column restricted to `cells`. */
export function sampledColumn(col: CellColumn, cells: Uint32Array): CellColumn {
  if (col.kind === 'numeric')
    return { kind: 'numeric', values: Float64Array.from(cells, (c) => col.values[c]!) };
  return { kind: 'categorical', values: Array.from(cells, (c) => col.values[c]!) };
}

/** The sampled cells' dataset: their counts, obs columns, barcodes and embeddings rows. */
export function sampledDataset(
  parts: Pick<Dataset, 'genes' | 'cells' | 'embeddings'> & { counts: CellBlocks },
  cells: Uint32Array,
): Pick<Dataset, 'counts' | 'genes' | 'cells' | 'embeddings'> {
  const columns: Record<string, CellColumn> = {};
  for (const [k, col] of Object.entries(parts.cells.columns)) columns[k] = sampledColumn(col, cells);
  const embeddings: Dataset['embeddings'] = {};
  for (const [k, e] of Object.entries(parts.embeddings)) {
    const values = new Float32Array(cells.length * e.dims);
    cells.forEach((c, i) => values.set(e.values.subarray(c * e.dims, (c + 1) * e.dims), i * e.dims));
    embeddings[k] = { dims: e.dims, values };
  }
  return {
    counts: sampledCounts(parts.counts, cells),
    genes: parts.genes,
    cells: { barcodes: Array.from(cells, (c) => parts.cells.barcodes[c]!), columns },
    embeddings,
  };
}
