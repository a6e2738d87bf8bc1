import { tripletsToCsc } from '../csc';
import type { RandomAccessSource } from '../h5-io';
import { withH5adCellBlocks } from '../h5ad-cell-blocks';
import type { PositionalSink } from '../hdf5-write';
import type { StoreWriteOptions, StoreWriteResult } from './from-mtx';
import { CountStoreWriter } from './writer';

/** Non-zeros read from the HDF5 file per block of cells. */
const BLOCK_NNZ = 1 << 22;

/**
 * Streams the counts of an .h5ad into a count store (docs/formats/count-store.md#from-uploads):
 * when `layers["counts"]` is CSR cells × genes, blocks of cells are sliced from the file and
 * written one after the other; other layouts are read whole by the in-memory reader first
 * (withH5adCellBlocks), and a warning says so. Rows whose gene indices are unsorted or repeated
 * are sorted and summed as readDataset does.
 */
export async function writeStoreFromH5ad(
  input: Uint8Array | RandomAccessSource,
  file: string,
  sink: PositionalSink,
  opts: StoreWriteOptions = {},
): Promise<StoreWriteResult> {
  let streamed = true;
  const r = await withH5adCellBlocks(input, file, async (parts) => {
    const { counts, genes, cells } = parts;
    streamed = !parts.inMemory;
    const header = {
      geneIds: genes.ids,
      geneSymbols: genes.symbols,
      ...(opts.sampleName !== undefined ? { sampleName: opts.sampleName } : {}),
    };
    const w = new CountStoreWriter(sink, header, opts);
    let duplicates = 0;
    for (let c0 = 0; c0 < counts.nCells;) {
      const s = Number(counts.indptr[c0]);
      let c1 = c0 + 1;
      while (c1 < counts.nCells && Number(counts.indptr[c1 + 1]) - s <= BLOCK_NNZ) c1++;
      const e = Number(counts.indptr[c1]);
      const { indices, data } = counts.entries(s, e);
      const n = e - s;
      const gene = new Uint32Array(n);
      const cell = new Uint32Array(n);
      const val = new Float32Array(n);
      for (let c = c0; c < c1; c++)
        for (let k = Number(counts.indptr[c]) - s; k < Number(counts.indptr[c + 1]) - s; k++) {
          gene[k] = indices[k]!;
          cell[k] = c - c0;
          val[k] = data[k]!;
        }
      const m = tripletsToCsc(gene, cell, val, genes.ids.length, c1 - c0);
      duplicates += m.duplicates;
      await w.addCells(m.matrix, cells.barcodes.slice(c0, c1));
      c0 = c1;
    }
    const done = await w.finish();
    const warnings = duplicates ? [`${file}: ${duplicates} repeated (gene, cell) entries were summed.`] : [];
    return { ...done, ...header, barcodes: cells.barcodes, warnings };
  });
  if (!streamed)
    r.warnings.push(
      `${file}: the counts are not a CSR layers["counts"]; the file was read whole in memory to build the count store.`,
    );
  return { ...r, streamed };
}
