/**
 * The CSR matrices of an .h5ad (write-h5ad.ts): X and layers/counts, cells × genes, read in element
 * ranges (CsrRanges) and written as anndata csr_matrix groups. When X and the counts share their
 * sparsity layout, X's data, X's indices and the counts' data are written with their chunks
 * interleaved (one pass over the counts' source) and the counts' indices and indptr are hard links
 * to X's.
 */
import type { DatasetNode, GroupNode } from './hdf5-write';
import type { AnnWriter } from './h5ad-write-elements';
import type { CountMatrix } from './matrix';

/**
 * A CSR matrix (cells × genes) read in element ranges, for writers that stream it without holding
 * it (issue 33: the out-of-core engine's cell chunks). The writer reads `data` and `indices` each
 * in increasing, consecutive ranges — one after the other, or (layers/counts beside X, writeCsrPair)
 * alternating: a range of the counts' indices, then the same range of their data — then
 * `indptr()` once.
 */
export interface CsrRanges {
  nCells: number;
  nGenes: number;
  /** Stored values. */
  nnz: number;
  data(start: number, end: number): Float32Array;
  indices(start: number, end: number): Int32Array;
  /** The nCells + 1 offsets, asked for once the values and indices are read. */
  indptr(): Float64Array;
}

/** An in-memory matrix as CsrRanges (views, no copy). */
export function rangesOf(m: CountMatrix): CsrRanges {
  return {
    nCells: m.nCells,
    nGenes: m.nGenes,
    nnz: m.indptr[m.nCells]!,
    data: (s, e) => m.data.subarray(s, e),
    indices: (s, e) => new Int32Array(m.indices.buffer, m.indices.byteOffset + 4 * s, e - s),
    indptr: () => m.indptr,
  };
}

/** A CSR matrix group (data, indices, indptr); writeCsrPair writes two that share their layout. */
async function writeCsr(w: AnnWriter, parent: GroupNode, name: string, m: CsrRanges): Promise<void> {
  const g = w.group(parent, name, 'csr_matrix', '0.1.0');
  w.h5.attr(g, 'shape', BigInt64Array.from([BigInt(m.nCells), BigInt(m.nGenes)]));
  const shape = [m.nnz];
  await w.numeric(g, 'data', m.data, { kind: 'f32', shape, encoded: false });
  await w.numeric(g, 'indices', m.indices, { kind: 'i32', shape, encoded: false });
  await writeIndptr(w, g, m);
}

/** A CSR matrix's indptr (int64 from 2³¹ non-zeros), asked of `m` once its data and indices are read. */
async function writeIndptr(w: AnnWriter, g: GroupNode, m: CsrRanges): Promise<DatasetNode> {
  const wide = m.nnz >= 2 ** 31;
  let offsets: Float64Array | undefined;
  const ptr = (s: number, e: number) => {
    offsets ??= m.indptr();
    return wide
      ? BigInt64Array.from(offsets.subarray(s, e), (x) => BigInt(x))
      : Int32Array.from(offsets.subarray(s, e));
  };
  return w.numeric(g, 'indptr', ptr, {
    kind: wide ? 'i64' : 'i32',
    shape: [m.nCells + 1],
    encoded: false,
  });
}

/**
 * X (`x`, e.g. the normalized values) and layers/counts (`counts`) of one sparsity layout:
 * X's data, X's indices and the counts' data written together, chunk by chunk (the counts'
 * indices and data are read in one pass over their source: the streamed path decodes each
 * cell chunk of the counts once for both), then X's indptr; the counts' indices and indptr are
 * hard links to X's.
 */
async function writeCsrPair(
  w: AnnWriter,
  parent: GroupNode,
  layers: GroupNode,
  x: CsrRanges,
  counts: CsrRanges,
): Promise<void> {
  const gx = w.group(parent, 'X', 'csr_matrix', '0.1.0');
  const gc = w.group(layers, 'counts', 'csr_matrix', '0.1.0');
  for (const g of [gx, gc]) w.h5.attr(g, 'shape', BigInt64Array.from([BigInt(x.nCells), BigInt(x.nGenes)]));
  const shape = [x.nnz];
  const [, indices] = await w.numerics([
    { parent: gx, name: 'data', data: x.data, opts: { kind: 'f32', shape, encoded: false } },
    { parent: gx, name: 'indices', data: counts.indices, opts: { kind: 'i32', shape, encoded: false } },
    { parent: gc, name: 'data', data: counts.data, opts: { kind: 'f32', shape, encoded: false } },
  ]);
  const indptr = await writeIndptr(w, gx, x);
  w.h5.link(gc, 'indices', indices!);
  w.h5.link(gc, 'indptr', indptr);
}

/** X (normalized, else counts) and layers/counts, its indices and indptr linked to X's when `linked`. */
export async function writeMatrices(
  w: AnnWriter,
  f: GroupNode,
  counts: CsrRanges,
  normalized: CsrRanges | undefined,
  linked: boolean,
): Promise<void> {
  if (normalized && linked) {
    await writeCsrPair(w, f, w.group(f, 'layers'), normalized, counts);
    return;
  }
  await writeCsr(w, f, 'X', normalized ?? counts);
  const layers = w.group(f, 'layers');
  if (normalized) await writeCsr(w, layers, 'counts', counts);
}
