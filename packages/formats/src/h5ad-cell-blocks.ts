import { FormatError } from './errors';
import { readDataFrame, readObsm } from './h5ad-elements';
import {
  attrString,
  child,
  datasetAt,
  groupAt,
  isGroup,
  numbers,
  type RandomAccessSource,
  withH5,
  withH5Source,
  type H5Group,
} from './h5-io';
import { cellBlocksOf, type CellBlocks } from './cell-blocks';
import type { CellTable, Dataset, GeneTable } from './matrix';
import { geneTable, readH5adBytes } from './read-h5ad';

export interface H5adParts extends Pick<Dataset, 'genes' | 'embeddings'> {
  counts: CellBlocks;
  genes: GeneTable;
  cells: CellTable;
  /** True when the counts were not a CSR layers["counts"] and the whole matrix was read. */
  inMemory?: boolean;
}

/**
 * Runs `fn` over an .h5ad whose `layers["counts"]` is CSR cells × genes (our analysis.h5ad) while
 * the file is open: obs, var, obsm are read; the counts are sliced from the HDF5 datasets on
 * demand. Only the file's bytes (held, not copied) — none from a random-access source — and the
 * requested blocks are in memory.
 * Other layouts (counts in X or raw.X, CSC, dense) fall back to the whole-matrix reader.
 */
export async function withH5adCellBlocks<T>(
  input: Uint8Array | RandomAccessSource,
  file: string,
  fn: (parts: H5adParts) => T,
): Promise<T> {
  const other = Symbol('not a CSR counts layer');
  const open = (g: (f: H5Group) => T | typeof other) =>
    input instanceof Uint8Array ? withH5(input, file, g) : withH5Source(input, file, g);
  const r = await open((f) => {
    const obs = readDataFrame(child(f, 'obs'), 'obs', file);
    const genes = geneTable(readDataFrame(child(f, 'var'), 'var', file));
    const layers = groupAt(f, 'layers');
    const g = layers && child(layers, 'counts');
    if (!g || !isGroup(g) || attrString(g, 'encoding-type') !== 'csr_matrix') return other;
    const indices = datasetAt(g, 'indices');
    const data = datasetAt(g, 'data');
    const indptrSet = datasetAt(g, 'indptr');
    if (!indices || !data || !indptrSet)
      throw new FormatError('h5.missing_field', { file, field: 'layers/counts' });
    const indptr = numbers(indptrSet, file);
    const nCells = obs.index.length;
    if (indptr.length !== nCells + 1)
      throw new FormatError('h5.bad_field', {
        file,
        field: 'layers/counts/indptr',
        detail: `${indptr.length - 1} rows for ${nCells} cells`,
      });
    const slice = (d: typeof data, start: number, end: number) =>
      (start === end ? new Float32Array(0) : d.slice([[start, end]])) as ArrayLike<number>;
    const counts: CellBlocks = {
      nCells,
      nGenes: genes.ids.length,
      indptr,
      entries: (start, end) => ({ indices: slice(indices, start, end), data: slice(data, start, end) }),
    };
    return fn({
      counts,
      genes,
      cells: { barcodes: obs.index, columns: obs.columns },
      embeddings: readObsm(groupAt(f, 'obsm'), nCells, file),
    });
  });
  if (r !== other) return r as T;
  // other layouts (counts in X or raw.X, CSC, dense): the whole-matrix reader
  let bytes: Uint8Array;
  if (input instanceof Uint8Array) bytes = input;
  else input.readInto((bytes = new Uint8Array(input.size)), 0);
  const ds = await readH5adBytes(bytes, file);
  return fn({
    counts: cellBlocksOf(ds.counts),
    genes: ds.genes,
    cells: ds.cells,
    embeddings: ds.embeddings,
    inMemory: true,
  });
}
