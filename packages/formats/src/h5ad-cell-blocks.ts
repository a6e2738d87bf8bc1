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
  /** Where the streamed counts are (layers["counts"], raw.X or X); absent when read whole. */
  where?: string;
}

/** Values of a first chunk that decide whether a CSR raw.X / X holds counts (as readH5adBytes). */
const SAMPLE = 65_536;
const countLike = (xs: ArrayLike<number>) => {
  for (let i = 0; i < xs.length; i++) if (!(xs[i]! >= 0) || !Number.isInteger(xs[i]!)) return false;
  return true;
};

/**
 * Runs `fn` over an .h5ad whose `layers["counts"]` is CSR cells × genes (our analysis.h5ad) while
 * the file is open: obs, var, obsm are read; the counts are sliced from the HDF5 datasets on
 * demand. Only the file's bytes (held, not copied) — none from a random-access source — and the
 * requested blocks are in memory.
 * With `rawOrX` (the public ingest of a CELLxGENE file, issue 33) and no layers["counts"], a CSR
 * raw.X, else X, is streamed the same way when its first 65,536 values are non-negative integers;
 * the reader of the blocks checks the rest as they come (readH5adBytes checks the whole matrix).
 * Other layouts (CSC, dense, non-integer first values) fall back to the whole-matrix reader.
 */
export async function withH5adCellBlocks<T>(
  input: Uint8Array | RandomAccessSource,
  file: string,
  fn: (parts: H5adParts) => T,
  opts: { rawOrX?: boolean } = {},
): Promise<T> {
  const other = Symbol('not a CSR counts layer');
  const open = (g: (f: H5Group) => T | typeof other) =>
    input instanceof Uint8Array ? withH5(input, file, g) : withH5Source(input, file, g);
  const r = await open((f) => {
    const obs = readDataFrame(child(f, 'obs'), 'obs', file);
    const genes = geneTable(readDataFrame(child(f, 'var'), 'var', file));
    const layers = groupAt(f, 'layers');
    const raw = groupAt(f, 'raw');
    const csr = (g: ReturnType<typeof child> | undefined) =>
      g && isGroup(g) && attrString(g, 'encoding-type') === 'csr_matrix' ? g : undefined;
    let where = 'layers["counts"]';
    let at = 'layers/counts';
    let g = csr(layers && child(layers, 'counts'));
    let varOf = genes;
    if (!g && opts.rawOrX && !(layers && child(layers, 'counts'))) {
      // raw.X, else X, as readH5adBytes picks them; a candidate whose first values are not
      // counts is passed over, any other layout goes to the whole reader
      for (const [w, path, e] of [
        ['raw.X', 'raw/X', raw && child(raw, 'X')],
        ['X', 'X', child(f, 'X')],
      ] as const) {
        if (!e) continue;
        const c = csr(e);
        if (!c) break;
        const d = datasetAt(c, 'data');
        const n = d ? Number(d.shape?.[0] ?? 0) : 0;
        if (d && !countLike((n ? d.slice([[0, Math.min(n, SAMPLE)]]) : []) as ArrayLike<number>)) continue;
        g = c;
        where = w;
        at = path;
        if (w === 'raw.X') varOf = geneTable(readDataFrame(child(raw!, 'var'), 'raw/var', file));
        break;
      }
    }
    if (!g) return other;
    const indices = datasetAt(g, 'indices');
    const data = datasetAt(g, 'data');
    const indptrSet = datasetAt(g, 'indptr');
    if (!indices || !data || !indptrSet) throw new FormatError('h5.missing_field', { file, field: at });
    const indptr = numbers(indptrSet, file);
    const nCells = obs.index.length;
    if (indptr.length !== nCells + 1)
      throw new FormatError('h5.bad_field', {
        file,
        field: `${at}/indptr`,
        detail: `${indptr.length - 1} rows for ${nCells} cells`,
      });
    const slice = (d: typeof data, start: number, end: number) =>
      (start === end ? new Float32Array(0) : d.slice([[start, end]])) as ArrayLike<number>;
    const counts: CellBlocks = {
      nCells,
      nGenes: varOf.ids.length,
      indptr,
      entries: (start, end) => ({ indices: slice(indices, start, end), data: slice(data, start, end) }),
    };
    return fn({
      counts,
      genes: varOf,
      where,
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
