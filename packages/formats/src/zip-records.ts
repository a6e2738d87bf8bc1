/**
 * The records of a zip archive written as a stream (APPNOTE 6.3.x): local headers with a data
 * descriptor after the data (sizes unknown until written), central directory headers, and the
 * end records — with ZIP64 fields where a size or offset reaches 4 GiB (0xFFFFFFFF) or the
 * archive has 65,535 entries or more. Pure byte encoders; `write-zip.ts` streams with them.
 */
const U32 = 0xffffffff;
const U16 = 0xffff;
const utf8 = new TextEncoder();

export interface ZipEntryRecord {
  name: string;
  /** 0 = stored, 8 = deflated. */
  method: 0 | 8;
  crc: number;
  compressedSize: number;
  size: number;
  /** Offset of the entry's local header from the start of the archive's file. */
  offset: number;
}

class Out {
  private readonly bytes: Uint8Array;
  private readonly view: DataView;
  private at = 0;
  constructor(n: number) {
    this.bytes = new Uint8Array(n);
    this.view = new DataView(this.bytes.buffer);
  }
  u16(v: number): this {
    this.view.setUint16(this.at, v, true);
    this.at += 2;
    return this;
  }
  u32(v: number): this {
    this.view.setUint32(this.at, v >>> 0, true);
    this.at += 4;
    return this;
  }
  u64(v: number): this {
    this.view.setBigUint64(this.at, BigInt(v), true);
    this.at += 8;
    return this;
  }
  raw(b: Uint8Array): this {
    this.bytes.set(b, this.at);
    this.at += b.length;
    return this;
  }
  done(): Uint8Array {
    return this.bytes;
  }
}

// general purpose flags: bit 3 (sizes in the data descriptor), bit 11 (UTF-8 names)
const FLAGS = 0x0808;
// 1980-01-01 00:00 in MS-DOS time / date: the archive's entries carry no time
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;

export function localHeader(name: string, method: 0 | 8): Uint8Array {
  const n = utf8.encode(name);
  return new Out(30 + n.length)
    .u32(0x04034b50)
    .u16(45) // version needed: 4.5 (ZIP64), as the sizes may turn out to need it
    .u16(FLAGS)
    .u16(method)
    .u16(DOS_TIME)
    .u16(DOS_DATE)
    .u32(0)
    .u32(0)
    .u32(0)
    .u16(n.length)
    .u16(0)
    .raw(n)
    .done();
}

const isZip64 = (e: ZipEntryRecord) => e.size >= U32 || e.compressedSize >= U32;

/** Data descriptor after an entry's data: 8-byte sizes when either size reaches 4 GiB. */
export function dataDescriptor(e: ZipEntryRecord): Uint8Array {
  if (isZip64(e)) return new Out(24).u32(0x08074b50).u32(e.crc).u64(e.compressedSize).u64(e.size).done();
  return new Out(16).u32(0x08074b50).u32(e.crc).u32(e.compressedSize).u32(e.size).done();
}

/** Central directory header; the ZIP64 extended information extra field holds what overflows. */
export function centralHeader(e: ZipEntryRecord): Uint8Array {
  const n = utf8.encode(e.name);
  const sizes64 = isZip64(e);
  const offset64 = e.offset >= U32;
  const extra = (sizes64 ? 16 : 0) + (offset64 ? 8 : 0);
  const out = new Out(46 + n.length + (extra ? 4 + extra : 0))
    .u32(0x02014b50)
    .u16(45) // made by: MS-DOS, 4.5
    .u16(sizes64 || offset64 ? 45 : 20)
    .u16(FLAGS)
    .u16(e.method)
    .u16(DOS_TIME)
    .u16(DOS_DATE)
    .u32(e.crc)
    .u32(sizes64 ? U32 : e.compressedSize)
    .u32(sizes64 ? U32 : e.size)
    .u16(n.length)
    .u16(extra ? 4 + extra : 0)
    .u16(0)
    .u16(0)
    .u16(0)
    .u32(0)
    .u32(offset64 ? U32 : e.offset)
    .raw(n);
  if (extra) {
    out.u16(0x0001).u16(extra);
    if (sizes64) out.u64(e.size).u64(e.compressedSize); // original, then compressed size
    if (offset64) out.u64(e.offset);
  }
  return out.done();
}

/**
 * End of central directory; preceded by the ZIP64 end record and its locator when the entry
 * count, the directory's size or its offset does not fit the classic record.
 */
export function endRecords(count: number, directoryOffset: number, directorySize: number): Uint8Array {
  const zip64 = count >= U16 || directoryOffset >= U32 || directorySize >= U32;
  const end = new Out(22)
    .u32(0x06054b50)
    .u16(0)
    .u16(0)
    .u16(zip64 ? U16 : count)
    .u16(zip64 ? U16 : count)
    .u32(zip64 ? U32 : directorySize)
    .u32(zip64 ? U32 : directoryOffset)
    .u16(0)
    .done();
  if (!zip64) return end;
  const record64 = directoryOffset + directorySize;
  return new Out(56 + 20 + 22)
    .u32(0x06064b50)
    .u64(44) // size of the rest of this record
    .u16(45)
    .u16(45)
    .u32(0)
    .u32(0)
    .u64(count)
    .u64(count)
    .u64(directorySize)
    .u64(directoryOffset)
    .u32(0x07064b50)
    .u32(0)
    .u64(record64)
    .u32(1)
    .raw(end)
    .done();
}
