import type { CellChunks } from '@cellcloud/formats/cell-chunks';
import { collectGarbage } from '../collect-garbage';
import type { ProductMatrix } from '../methods/implicit-matrix';
import { countValues } from '../methods/sparse-products';
import { MAX_SCALED_VALUE, PCA_START_SEED, scaledSparsePca, type PcaResult } from '../steps/pca';
import { newGeneIndices, subsetGenes } from '../sparse';
import type { NormalizedCells } from './views';

/**
 * PcaStep (steps/pca.ts) on streamed values: the HVG submatrix is gathered chunk by chunk into
 * shared memory — the only part of the matrix held; `geneNnz` sizes it without a counting pass —
 * and fitted by the same scaledSparsePca: the same PCs. Integer counts (the view's `fromCounts`)
 * are held as 2-byte counts beside the 2-byte gene indices, 4 B per HVG value (issue 33), and the
 * products decode each cell's values through its table of counts 0–15 (methods/sparse-products.ts
 * CountValues): the same float32 values as the view's. Other values, or a count above 65,535, are
 * held as float32 values (6 B per HVG value).
 */
export function streamedPca(
  normalized: NormalizedCells,
  selected: Uint8Array,
  geneNnz: Float64Array,
): PcaResult {
  const sub = hvgSubmatrix(normalized, selected, geneNnz);
  return scaledSparsePca(sub, PCA_START_SEED, MAX_SCALED_VALUE, true);
}

/**
 * subsetGenes(normalized, selected, shared) (sparse.ts) from cell chunks: chunk by chunk, into
 * shared memory; its values held as counts (`countValues`) when `normalized.fromCounts` has them
 * and they all fit in 2 bytes (else read again, as float32 values).
 */
export function hvgSubmatrix(
  normalized: NormalizedCells,
  selected: Uint8Array,
  geneNnz: Float64Array,
): ProductMatrix {
  let nGenes = 0;
  let nnz = 0;
  for (let g = 0; g < normalized.nGenes; g++) {
    if (!selected[g]) continue;
    nGenes++;
    nnz += geneNnz[g];
  }
  const from = normalized.fromCounts;
  if (from) {
    const sub = hvgCounts(from.cells, from.factor, selected, nGenes, nnz);
    if (sub) return sub;
    collectGarbage(); // the counts gathered so far, before 6 B per value are allocated
  }
  const data = new Float32Array(new SharedArrayBuffer(nnz * 4));
  const sub = gatherHvgs(normalized, selected, nGenes, nnz, (values, p) => {
    data.set(values, p);
    return true;
  });
  if (!sub) throw new Error('streamed PCA: the HVG values could not be gathered');
  return { ...sub, data };
}

/** hvgSubmatrix with its values as counts; undefined at the first count that does not fit in 2 bytes. */
function hvgCounts(
  cells: CellChunks,
  factor: Float64Array,
  selected: Uint8Array,
  nGenes: number,
  nnz: number,
): ProductMatrix | undefined {
  const counts = new Uint16Array(new SharedArrayBuffer(nnz * 2));
  const sub = gatherHvgs(cells, selected, nGenes, nnz, (data, p) => {
    for (let k = 0; k < data.length; k++) {
      const n = data[k];
      if (n !== (n & 0xffff)) return false;
      counts[p + k] = n;
    }
    return true;
  });
  return sub && { ...sub, countValues: countValues(counts, factor, nGenes) };
}

/**
 * The HVG submatrix's indptr and gene indices in shared memory, its `nnz` values of each chunk
 * handed to `keep` at their position; undefined as soon as `keep` refuses some. `data` is empty.
 */
function gatherHvgs(
  cells: CellChunks,
  selected: Uint8Array,
  nGenes: number,
  nnz: number,
  keep: (values: Float32Array, p: number) => boolean,
): ProductMatrix | undefined {
  const indptr = new Float64Array(new SharedArrayBuffer((cells.nCells + 1) * 8));
  const indices = newGeneIndices(nnz, nGenes, (bytes) => new SharedArrayBuffer(bytes));
  let p = 0;
  for (let i = 0; i < cells.chunkCount; i++) {
    const part = subsetGenes(cells.chunk(i), selected);
    const c0 = cells.chunkStart(i);
    const n = part.indptr[part.nCells];
    if (p + n > nnz) throw new Error(`streamed PCA: more HVG values read than the gene counts give (${nnz})`);
    if (!keep(part.data.subarray(0, n), p)) return undefined;
    indices.set(part.indices.subarray(0, n), p);
    for (let c = 0; c < part.nCells; c++) indptr[c0 + c + 1] = p + part.indptr[c + 1];
    p += n;
  }
  if (p !== nnz) throw new Error(`streamed PCA: ${p} HVG values read where the gene counts give ${nnz}`);
  return { nGenes, nCells: cells.nCells, indptr, indices, data: new Float32Array(0) };
}
