import { FormatError } from '../errors';

/**
 * The frame of a count-store file (docs/formats/count-store.md#file-layout): a 16-byte header
 * (magic, version), the sections at 8-byte-aligned offsets, a JSON footer (the index) and a
 * 32-byte trailer that locates the footer.
 */
export const STORE_MAGIC = 'CCSTORE\0';
export const TRAILER_MAGIC = 'CCSTEND\0';
export const STORE_VERSION = 1;
export const HEADER_BYTES = 16;
export const TRAILER_BYTES = 32;

/** The file name used in error messages. */
export const STORE_FILE = 'count store';

export function storeCorrupt(detail: string): FormatError {
  return new FormatError('store.corrupt', { file: STORE_FILE, detail });
}

export function storeInvalidInput(detail: string): FormatError {
  return new FormatError('write.invalid_input', { file: STORE_FILE, detail });
}

export const align8 = (n: number) => Math.ceil(n / 8) * 8;

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

export function encodeHeader(): Uint8Array {
  const b = new Uint8Array(HEADER_BYTES);
  b.set(ascii(STORE_MAGIC), 0);
  new DataView(b.buffer).setUint32(8, STORE_VERSION, true);
  return b;
}

export function checkHeader(b: Uint8Array): void {
  const magic = String.fromCharCode(...b.subarray(0, 8));
  if (b.length < HEADER_BYTES || magic !== STORE_MAGIC)
    throw storeCorrupt('the count-store signature is missing');
  const version = new DataView(b.buffer, b.byteOffset, HEADER_BYTES).getUint32(8, true);
  if (version !== STORE_VERSION)
    throw storeCorrupt(`version ${version} is not supported (this reader: ${STORE_VERSION})`);
}

export interface Trailer {
  footerOffset: number;
  footerBytes: number;
  footerCrc: number;
}

export function encodeTrailer(t: Trailer): Uint8Array {
  const b = new Uint8Array(TRAILER_BYTES);
  const dv = new DataView(b.buffer);
  dv.setUint32(0, t.footerOffset % 2 ** 32, true);
  dv.setUint32(4, Math.floor(t.footerOffset / 2 ** 32), true);
  dv.setUint32(8, t.footerBytes, true);
  dv.setUint32(12, t.footerCrc, true);
  dv.setUint32(16, STORE_VERSION, true);
  b.set(ascii(TRAILER_MAGIC), 24);
  return b;
}

export function decodeTrailer(b: Uint8Array, fileSize: number): Trailer {
  const magic = String.fromCharCode(...b.subarray(24, 32));
  if (b.length < TRAILER_BYTES || magic !== TRAILER_MAGIC)
    throw storeCorrupt('the end marker is missing: the file is truncated or was not finished');
  const dv = new DataView(b.buffer, b.byteOffset, TRAILER_BYTES);
  const footerOffset = dv.getUint32(0, true) + dv.getUint32(4, true) * 2 ** 32;
  const footerBytes = dv.getUint32(8, true);
  if (footerOffset < HEADER_BYTES || footerOffset + footerBytes + TRAILER_BYTES !== fileSize)
    throw storeCorrupt('the footer lies outside the file');
  return { footerOffset, footerBytes, footerCrc: dv.getUint32(12, true) };
}
