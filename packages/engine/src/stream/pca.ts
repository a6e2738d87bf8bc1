import type { CellChunks } from '@cellcloud/formats/cell-chunks';
import type { CsrMatrix } from '@cellcloud/formats/matrix';
import { MAX_SCALED_VALUE, PCA_START_SEED, scaledSparsePca, type PcaResult } from '../steps/pca';
import { newGeneIndices, subsetGenes } from '../sparse';
import { forEachChunk } from './select';

/**
 * PcaStep (steps/pca.ts) on streamed values: the HVG submatrix of the normalized values is
 * gathered chunk by chunk into shared memory (6 B per HVG value — a 4-byte value and a 2-byte gene
 * index, as subsetGenesCompact gives in memory — the only part of the matrix held; `geneNnz` sizes
 * it without a counting pass) and fitted by the same scaledSparsePca: the same PCs.
 * TODO(issue 33): at millions of cells this is still most of the peak (docs/engine-scaling.md);
 * the values could be recomputed from 2-byte counts and the cells' size factors where the
 * products read them, or re-read per Krylov block.
 */
export function streamedPca(normalized: CellChunks, selected: Uint8Array, geneNnz: Float64Array): PcaResult {
  const sub = hvgSubmatrix(normalized, selected, geneNnz);
  return scaledSparsePca(sub, PCA_START_SEED, MAX_SCALED_VALUE, true);
}

/** subsetGenes(normalized, selected, shared) (sparse.ts) from cell chunks: chunk by chunk, into shared memory. */
export function hvgSubmatrix(cells: CellChunks, selected: Uint8Array, geneNnz: Float64Array): CsrMatrix {
  let nGenes = 0;
  let nnz = 0;
  for (let g = 0; g < cells.nGenes; g++) {
    if (!selected[g]) continue;
    nGenes++;
    nnz += geneNnz[g];
  }
  const indptr = new Float64Array(new SharedArrayBuffer((cells.nCells + 1) * 8));
  const indices = newGeneIndices(nnz, nGenes, (bytes) => new SharedArrayBuffer(bytes));
  const data = new Float32Array(new SharedArrayBuffer(nnz * 4));
  let p = 0;
  forEachChunk(cells, (m, c0) => {
    const part = subsetGenes(m, selected);
    const n = part.indptr[part.nCells];
    indices.set(part.indices.subarray(0, n), p);
    data.set(part.data.subarray(0, n), p);
    for (let c = 0; c < part.nCells; c++) indptr[c0 + c + 1] = p + part.indptr[c + 1];
    p += n;
  });
  if (p !== nnz) throw new Error(`streamed PCA: ${p} HVG values read where the gene counts give ${nnz}`);
  return { nGenes, nCells: cells.nCells, indptr, indices, data };
}
