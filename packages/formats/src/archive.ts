import { unzipSync } from 'fflate';
import { FormatError } from './errors';
import { decompressedBudget, readLimits, tooLarge } from './limits';
import { isGzipMagic, readContent } from './gzip';
import { baseName, bytesSource, type ByteSource, readAll, type SourceBundle } from './sources';

/** Archive kinds recognised by content (not by name). */
export type ArchiveKind = 'zip' | 'tar' | 'tar.gz';

function isTarHeader(b: Uint8Array): boolean {
  return b.length >= 263 && String.fromCharCode(...b.subarray(257, 262)) === 'ustar';
}

function isZip(b: Uint8Array): boolean {
  return (
    b.length >= 4 &&
    b[0] === 0x50 &&
    b[1] === 0x4b &&
    (b[2] === 3 || b[2] === 5) &&
    (b[3] === 4 || b[3] === 6)
  );
}

export async function archiveKind(source: ByteSource): Promise<ArchiveKind | undefined> {
  const head = await source.read(0, 512);
  if (isZip(head)) return 'zip';
  if (isTarHeader(head)) return 'tar';
  if (isGzipMagic(head) && /\.(tgz|tar\.gz)$/i.test(source.name)) return 'tar.gz';
  return undefined;
}

const skip = (name: string) =>
  name.endsWith('/') ||
  name.startsWith('__MACOSX/') ||
  baseName(name).startsWith('._') ||
  baseName(name) === '.DS_Store';

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
    if (!Number.isFinite(size) || size < 0)
      throw new FormatError('archive.corrupt', { file, detail: `bad tar header at byte ${pos}` });
    const type = String.fromCharCode(h[156]!);
    const prefix = isTarHeader(h) ? readString(h, 345, 155) : '';
    let name = readString(h, 0, 100);
    if (prefix) name = `${prefix}/${name}`;
    const dataStart = pos + 512;
    if (dataStart + size > bytes.length)
      throw new FormatError('archive.corrupt', { file, detail: `tar entry "${name}" is truncated` });
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
    if ((type === '0' || type === '\0' || type === '7') && !skip(finalName))
      out.push(bytesSource(finalName, data));
  }
  return out;
}

/**
 * Entries of a zip. Declared sizes are checked against the limits before anything is inflated
 * (a zip bomb is refused up front), and every inflated entry must match the CRC-32 and size of
 * the central directory (a damaged archive is an error, not silently different data).
 */
export function unzip(bytes: Uint8Array, file: string): ByteSource[] {
  let files: Record<string, Uint8Array>;
  const directory = zipDirectory(bytes);
  let declaredTotal = 0;
  try {
    files = unzipSync(bytes, {
      filter: (f) => {
        if (skip(f.name)) return false;
        declaredTotal += f.originalSize;
        const budget = decompressedBudget(f.size);
        if (f.originalSize > budget) throw tooLarge(`${file}/${f.name}`, budget);
        if (declaredTotal > readLimits().maxDecompressedBytes)
          throw tooLarge(file, readLimits().maxDecompressedBytes);
        return true;
      },
    });
  } catch (e) {
    if (e instanceof FormatError) throw e;
    throw new FormatError('archive.corrupt', { file, detail: e instanceof Error ? e.message : String(e) });
  }
  for (const [name, data] of Object.entries(files)) {
    const d = directory.get(name);
    if (!d) continue;
    if (d.size !== 0xffffffff && data.length !== d.size)
      throw new FormatError('archive.corrupt', {
        file,
        detail: `"${name}" has ${data.length} bytes, ${d.size} declared`,
      });
    if (crc32(data) !== d.crc)
      throw new FormatError('archive.corrupt', { file, detail: `"${name}" fails its CRC check` });
  }
  return Object.entries(files).map(([name, data]) => bytesSource(name, data));
}

/** CRC-32 and uncompressed size of each central-directory entry, by name. */
function zipDirectory(b: Uint8Array): Map<string, { crc: number; size: number }> {
  const out = new Map<string, { crc: number; size: number }>();
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let eocd = -1;
  for (let p = b.length - 22; p >= Math.max(0, b.length - 22 - 65535); p--) {
    if (view.getUint32(p, true) === 0x06054b50) {
      eocd = p;
      break;
    }
  }
  if (eocd < 0) return out;
  const count = view.getUint16(eocd + 10, true);
  let p = view.getUint32(eocd + 16, true);
  for (let k = 0; k < count && p + 46 <= b.length; k++) {
    if (view.getUint32(p, true) !== 0x02014b50) break;
    const crc = view.getUint32(p + 16, true);
    const size = view.getUint32(p + 24, true);
    const nameLen = view.getUint16(p + 28, true);
    const extraLen = view.getUint16(p + 30, true);
    const commentLen = view.getUint16(p + 32, true);
    const name = new TextDecoder().decode(b.subarray(p + 46, p + 46 + nameLen));
    out.set(name, { crc, size });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

let crcTable: Uint32Array | undefined;

/** CRC-32 of `data`; pass the CRC of the bytes before it to continue over consecutive chunks. */
export function crc32(data: Uint8Array, previous = 0): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = (previous ^ 0xffffffff) >>> 0;
  for (let k = 0; k < data.length; k++) c = crcTable[(c ^ data[k]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
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
