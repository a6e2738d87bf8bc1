import { unzipSync } from 'fflate';
import { FormatError } from './errors';
import { isGzipMagic, readContent } from './gzip';
import { baseName, bytesSource, type ByteSource, readAll, type SourceBundle } from './sources';

/** Archive kinds recognised by content (not by name). */
export type ArchiveKind = 'zip' | 'tar' | 'tar.gz';

function isTarHeader(b: Uint8Array): boolean {
  return b.length >= 263 && String.fromCharCode(...b.subarray(257, 262)) === 'ustar';
}

function isZip(b: Uint8Array): boolean {
  return b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && (b[2] === 3 || b[2] === 5) && (b[3] === 4 || b[3] === 6);
}

export async function archiveKind(source: ByteSource): Promise<ArchiveKind | undefined> {
  const head = await source.read(0, 512);
  if (isZip(head)) return 'zip';
  if (isTarHeader(head)) return 'tar';
  if (isGzipMagic(head) && /\.(tgz|tar\.gz)$/i.test(source.name)) return 'tar.gz';
  return undefined;
}

const skip = (name: string) => name.endsWith('/') || name.startsWith('__MACOSX/') || baseName(name).startsWith('._') || baseName(name) === '.DS_Store';

function readString(b: Uint8Array, start: number, len: number): string {
  let end = start;
  while (end < start + len && b[end] !== 0) end++;
  return new TextDecoder().decode(b.subarray(start, end));
}

/** Entries of an uncompressed tar (ustar, GNU long names, pax `path`). */
export function untar(bytes: Uint8Array, file: string): ByteSource[] {
  const out: ByteSource[] = [];
  let pos = 0;
  let longName: string | undefined;
  while (pos + 512 <= bytes.length) {
    const h = bytes.subarray(pos, pos + 512);
    if (h.every((x) => x === 0)) break;
    const sizeText = readString(h, 124, 12).trim();
    const size = sizeText === '' ? 0 : parseInt(sizeText, 8);
    if (!Number.isFinite(size) || size < 0) throw new FormatError('archive.corrupt', { file, detail: `bad tar header at byte ${pos}` });
    const type = String.fromCharCode(h[156]!);
    const prefix = isTarHeader(h) ? readString(h, 345, 155) : '';
    let name = readString(h, 0, 100);
    if (prefix) name = `${prefix}/${name}`;
    const dataStart = pos + 512;
    if (dataStart + size > bytes.length) throw new FormatError('archive.corrupt', { file, detail: `tar entry "${name}" is truncated` });
    const data = bytes.subarray(dataStart, dataStart + size);
    pos = dataStart + Math.ceil(size / 512) * 512;
    if (type === 'L') {
      longName = readString(data, 0, data.length);
      continue;
    }
    if (type === 'x') {
      const m = /\d+ path=([^\n]*)\n/.exec(new TextDecoder().decode(data));
      if (m) longName = m[1];
      continue;
    }
    if (type === 'g') continue;
    const finalName = (longName ?? name).replace(/^\.\//, '');
    longName = undefined;
    if ((type === '0' || type === '\0' || type === '7') && !skip(finalName)) out.push(bytesSource(finalName, data));
  }
  return out;
}

export function unzip(bytes: Uint8Array, file: string): ByteSource[] {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, { filter: (f) => !skip(f.name) });
  } catch (e) {
    throw new FormatError('archive.corrupt', { file, detail: e instanceof Error ? e.message : String(e) });
  }
  return Object.entries(files).map(([name, data]) => bytesSource(name, data));
}

/** Unpack one archive source into its entries (names relative to the archive root). */
export async function unpackArchive(source: ByteSource, kind: ArchiveKind): Promise<ByteSource[]> {
  if (kind === 'zip') return unzip(await readAll(source), source.name);
  const bytes = kind === 'tar' ? await readAll(source) : await readContent(source);
  return untar(bytes, source.name);
}

/**
 * Replace every zip / tar / tar.gz entry of the bundle by its content. When the bundle is a single
 * archive, the archive's entries become the bundle root; archive names otherwise prefix paths.
 */
export async function expandArchives(bundle: SourceBundle): Promise<SourceBundle> {
  const entries: ByteSource[] = [];
  let changed = false;
  for (const e of bundle.entries) {
    const kind = await archiveKind(e);
    if (!kind) {
      entries.push(e);
      continue;
    }
    changed = true;
    const inner = await unpackArchive(e, kind);
    const prefix = bundle.entries.length === 1 ? '' : `${e.name}/`;
    for (const x of inner) entries.push(prefix ? { ...x, name: prefix + x.name } : x);
  }
  return changed ? { name: bundle.name, entries } : bundle;
}
