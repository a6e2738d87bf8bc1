import { valueKindOf } from '@cellcloud/contracts/files';
import { expandArchives } from './archive';
import { FormatError } from './errors';
import { readAll, type ByteSource, type SourceBundle, baseName } from './sources';
import { contentChunks } from './gzip';
import { isH5Magic, withH5 } from './h5-io';
import type { Dataset, SourceFormat } from './matrix';
import { find10xMtx, read10xMtx, type ReadOptions } from './read-10x-mtx';
import { findCelescopeSamples, readCelescope } from './read-celescope';
import { readDenseText } from './read-dense-text';
import { is10xH5, read10xH5Bytes } from './read-10x-h5';
import { isH5ad, readH5adBytes } from './read-h5ad';

export interface Detected {
  format: SourceFormat;
  /** The bundle with archives unpacked. */
  bundle: SourceBundle;
  /** The file to read for single-file formats (HDF5, dense text). */
  source?: ByteSource;
}

const TEXT = /\.(tsv|csv|txt|tab)(\.gz)?$/i;

async function hdf5Entries(bundle: SourceBundle): Promise<ByteSource[]> {
  const out: ByteSource[] = [];
  for (const e of bundle.entries) if (e.size >= 8 && isH5Magic(await e.read(0, 8))) out.push(e);
  return out;
}

async function classifyH5(e: ByteSource): Promise<'h5ad' | '10x-h5' | undefined> {
  return withH5(await readAll(e), e.name, (f) => (isH5ad(f) ? 'h5ad' : is10xH5(f) ? '10x-h5' : undefined));
}

/** First 64 KiB (decompressed) is printable text with several delimited lines. */
async function looksLikeTable(e: ByteSource): Promise<boolean> {
  let head: Uint8Array | undefined;
  try {
    for await (const c of contentChunks(e)) {
      head = c.subarray(0, 65536);
      break;
    }
  } catch {
    return false;
  }
  if (!head || head.length === 0) return false;
  let lines = 0;
  for (const b of head) {
    if (b === 10) lines++;
    else if (b < 9 || (b > 13 && b < 32)) return false;
  }
  return lines >= 2;
}

/** Work out which reader fits the bundle (archives are unpacked first). */
export async function detectFormat(input: SourceBundle): Promise<Detected> {
  const bundle = await expandArchives(input);
  if (findCelescopeSamples(bundle).length > 0) return { format: 'celescope', bundle };
  if (find10xMtx(bundle).length > 0) return { format: '10x-mtx', bundle };
  const h5 = await hdf5Entries(bundle);
  const named = h5.find((e) => /\.h5ad$/i.test(e.name));
  if (named) return { format: 'h5ad', bundle, source: named };
  for (const e of h5) {
    const kind = await classifyH5(e);
    if (kind) return { format: kind, bundle, source: e };
  }
  if (bundle.entries.some((e) => /matrix\.mtx(\.gz)?$/i.test(e.name))) return { format: '10x-mtx', bundle };
  const text = bundle.entries.filter((e) => TEXT.test(baseName(e.name)));
  if (text.length === 0 && bundle.entries.length === 1 && (await looksLikeTable(bundle.entries[0]!)))
    text.push(bundle.entries[0]!);
  if (text.length > 0) {
    const biggest = text.reduce((a, b) => (b.size > a.size ? b : a));
    return { format: 'dense-text', bundle, source: biggest };
  }
  throw new FormatError('format.unknown', { file: input.name });
}

/** Options of readDataset: the readers' options plus the formats in which non-integer values are accepted. */
export interface ReadDatasetOptions extends ReadOptions {
  /** Accept (and flag) non-integer values only in these formats (e.g. dense TPM tables). */
  nonIntegerFormats?: SourceFormat[];
}

/**
 * Detect the format and read the bundle into the canonical Dataset. Whatever the reader, the
 * result is checked: a non-empty matrix, a consistent sparse structure, finite non-negative
 * values (a FormatError naming the cell and gene otherwise); `nonInteger` flags accepted
 * non-integer values.
 */
export async function readDataset(input: SourceBundle, opts: ReadDatasetOptions = {}): Promise<Dataset> {
  const d = await detectFormat(input);
  const o: ReadOptions = {
    ...opts,
    allowNonInteger: opts.allowNonInteger || (opts.nonIntegerFormats?.includes(d.format) ?? false),
  };
  const file = d.source?.name ?? input.name;
  let ds: Dataset;
  switch (d.format) {
    case 'celescope':
      ds = await readCelescope(d.bundle, o);
      break;
    case '10x-mtx':
      ds = await read10xMtx(d.bundle, o);
      break;
    case 'h5ad':
      ds = await readH5adBytes(await readAll(d.source!), d.source!.name, o);
      break;
    case '10x-h5':
      ds = await read10xH5Bytes(await readAll(d.source!), d.source!.name, o);
      break;
    case 'dense-text':
      ds = await readDenseText(d.source!, o);
      break;
  }
  const scan = validateDataset(ds, file);
  ds.nonInteger = scan.nonInteger;
  ds.valueKind = valueKindOf(scan.nonInteger, scan.max);
  if (ds.valueKind === 'logNormalized')
    ds.warnings.push(
      `${file}: the values look log-normalized (non-integer, largest ${+scan.max.toPrecision(4)}); the analysis uses them as they are, without normalizing again.`,
    );
  return ds;
}

/**
 * Structure and value checks of a read dataset; returns whether non-integer values occur and the
 * largest value (what `valueKindOf` needs).
 */
export function validateDataset(ds: Dataset, file: string): { nonInteger: boolean; max: number } {
  const { nGenes, nCells, indptr, indices, data } = ds.counts;
  if (nGenes === 0 || nCells === 0)
    throw new FormatError('matrix.empty', { file, genes: nGenes, cells: nCells });
  const bad = (detail: string) => new FormatError('h5.bad_field', { file, field: 'X', detail });
  if (
    indptr.length !== nCells + 1 ||
    indptr[0] !== 0 ||
    indptr[nCells] !== data.length ||
    indices.length !== data.length
  )
    throw bad('the sparse matrix structure is inconsistent');
  if (ds.genes.ids.length !== nGenes || ds.cells.barcodes.length !== nCells)
    throw bad(
      `${ds.genes.ids.length} genes / ${ds.cells.barcodes.length} cells listed for a ${nGenes} × ${nCells} matrix`,
    );
  let nonInteger = false;
  let max = 0;
  for (let j = 0; j < nCells; j++) {
    const a = indptr[j]!;
    const b = indptr[j + 1]!;
    if (!(b >= a)) throw bad(`the column pointers decrease at cell ${j + 1}`);
    for (let k = a; k < b; k++) {
      const v = data[k]!;
      const g = indices[k]!;
      if (!(g < nGenes)) throw bad(`gene index ${g} of cell ${j + 1} is outside the ${nGenes} genes`);
      if (v > max) max = v;
      if (Number.isInteger(v) && v >= 0) continue;
      const where = `cell ${ds.cells.barcodes[j]}, gene ${ds.genes.symbols[g] ?? ds.genes.ids[g]}`;
      if (!Number.isFinite(v)) throw new FormatError('counts.not_finite', { file, where, value: v });
      if (v < 0) throw new FormatError('counts.negative', { file, where, value: v });
      nonInteger = true;
    }
  }
  return { nonInteger, max };
}
