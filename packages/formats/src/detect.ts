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
  if (text.length === 0 && bundle.entries.length === 1 && (await looksLikeTable(bundle.entries[0]!))) text.push(bundle.entries[0]!);
  if (text.length > 0) {
    const biggest = text.reduce((a, b) => (b.size > a.size ? b : a));
    return { format: 'dense-text', bundle, source: biggest };
  }
  throw new FormatError('format.unknown', { file: input.name });
}

/** Detect the format and read the bundle into the canonical Dataset. */
export async function readDataset(input: SourceBundle, opts: ReadOptions = {}): Promise<Dataset> {
  const d = await detectFormat(input);
  switch (d.format) {
    case 'celescope':
      return readCelescope(d.bundle, opts);
    case '10x-mtx':
      return read10xMtx(d.bundle, opts);
    case 'h5ad':
      return readH5adBytes(await readAll(d.source!), d.source!.name, opts);
    case '10x-h5':
      return read10xH5Bytes(await readAll(d.source!), d.source!.name, opts);
    case 'dense-text':
      return readDenseText(d.source!, opts);
  }
}
