/**
 * HDF5 object encoding for the streaming writer (hdf5-write.ts): Jenkins lookup3 checksums,
 * little-endian byte building, and the header messages AnnData files need — datatypes (integers,
 * floats, the h5py boolean enum, fixed- and variable-length UTF-8 strings), dataspaces, attributes
 * (strings in a global heap collection), version-2 object headers. Written against the HDF5 File
 * Format Specification 3.0. Pure byte encoders: no I/O, no object tree.
 */
export type NumericKind = 'f32' | 'f64' | 'i8' | 'i16' | 'i32' | 'i64' | 'u8' | 'u32' | 'bool';
export type Dtype = { kind: NumericKind } | { kind: 'string'; length: number } | { kind: 'vlen-string' };

export type ElementArray =
  | Float32Array
  | Float64Array
  | Int8Array
  | Int16Array
  | Int32Array
  | BigInt64Array
  | Uint8Array
  | Uint32Array;

export const UNDEF = 0xffffffffffffffffn;
const ELEMENT_SIZE: Record<NumericKind, number> = {
  f32: 4,
  f64: 8,
  i8: 1,
  i16: 2,
  i32: 4,
  i64: 8,
  u8: 1,
  u32: 4,
  bool: 1,
};

// ---------------------------------------------------------------------------------------------
// Jenkins lookup3 hashlittle (HDF5 H5_checksum_lookup3, initval 0).

function rot(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

export function lookup3(bytes: Uint8Array, initval = 0): number {
  let length = bytes.length;
  let a = (0xdeadbeef + length + initval) >>> 0;
  let b = a;
  let c = a;
  let k = 0;
  const w = (i: number) =>
    (bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24)) >>> 0;
  while (length > 12) {
    a = (a + w(k)) >>> 0;
    b = (b + w(k + 4)) >>> 0;
    c = (c + w(k + 8)) >>> 0;
    a = (a - c) >>> 0;
    a = (a ^ rot(c, 4)) >>> 0;
    c = (c + b) >>> 0;
    b = (b - a) >>> 0;
    b = (b ^ rot(a, 6)) >>> 0;
    a = (a + c) >>> 0;
    c = (c - b) >>> 0;
    c = (c ^ rot(b, 8)) >>> 0;
    b = (b + a) >>> 0;
    a = (a - c) >>> 0;
    a = (a ^ rot(c, 16)) >>> 0;
    c = (c + b) >>> 0;
    b = (b - a) >>> 0;
    b = (b ^ rot(a, 19)) >>> 0;
    a = (a + c) >>> 0;
    c = (c - b) >>> 0;
    c = (c ^ rot(b, 4)) >>> 0;
    b = (b + a) >>> 0;
    length -= 12;
    k += 12;
  }
  if (length === 0) return c;
  const byte = (i: number) => (i < length ? bytes[k + i]! : 0);
  a = (a + (byte(0) | (byte(1) << 8) | (byte(2) << 16) | (byte(3) << 24))) >>> 0;
  if (length > 4) b = (b + (byte(4) | (byte(5) << 8) | (byte(6) << 16) | (byte(7) << 24))) >>> 0;
  if (length > 8) c = (c + (byte(8) | (byte(9) << 8) | (byte(10) << 16) | (byte(11) << 24))) >>> 0;
  c = (c ^ b) >>> 0;
  c = (c - rot(b, 14)) >>> 0;
  a = (a ^ c) >>> 0;
  a = (a - rot(c, 11)) >>> 0;
  b = (b ^ a) >>> 0;
  b = (b - rot(a, 25)) >>> 0;
  c = (c ^ b) >>> 0;
  c = (c - rot(b, 16)) >>> 0;
  a = (a ^ c) >>> 0;
  a = (a - rot(c, 4)) >>> 0;
  b = (b ^ a) >>> 0;
  b = (b - rot(a, 14)) >>> 0;
  c = (c ^ b) >>> 0;
  c = (c - rot(b, 24)) >>> 0;
  return c;
}

// ---------------------------------------------------------------------------------------------
// Little-endian byte building.

export class Bytes {
  private buf = new Uint8Array(256);
  private view = new DataView(this.buf.buffer);
  length = 0;

  private ensure(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
  u8(v: number): this {
    this.ensure(1);
    this.buf[this.length++] = v;
    return this;
  }
  u16(v: number): this {
    this.ensure(2);
    this.view.setUint16(this.length, v, true);
    this.length += 2;
    return this;
  }
  u32(v: number): this {
    this.ensure(4);
    this.view.setUint32(this.length, v >>> 0, true);
    this.length += 4;
    return this;
  }
  u64(v: number | bigint): this {
    this.ensure(8);
    this.view.setBigUint64(this.length, typeof v === 'bigint' ? v : BigInt(v), true);
    this.length += 8;
    return this;
  }
  bytes(b: Uint8Array): this {
    this.ensure(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
    return this;
  }
  zeros(n: number): this {
    this.ensure(n);
    this.buf.fill(0, this.length, this.length + n);
    this.length += n;
    return this;
  }
  done(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

export const utf8 = new TextEncoder();

// ---------------------------------------------------------------------------------------------
// Messages.

export function datatypeMessage(t: Dtype): Uint8Array {
  const b = new Bytes();
  if (t.kind === 'vlen-string') {
    // class 9 (variable-length) version 1: type string, null-terminated, UTF-8; 16-byte elements
    // (length, global heap collection address, object index); base type unsigned char, as HDF5
    // stores H5Tset_size(H5T_VARIABLE) strings (what h5py and anndata write for attributes)
    return new Bytes().u8(0x19).u8(0x01).u8(0x01).u8(0).u32(16).bytes(fixedPoint(1, false)).done();
  }
  if (t.kind === 'string') {
    // class 3 version 1; null-padded, UTF-8
    return b
      .u8(0x13)
      .u8(0x01 | (1 << 4))
      .u8(0)
      .u8(0)
      .u32(Math.max(1, t.length))
      .done();
  }
  if (t.kind === 'f32' || t.kind === 'f64') {
    const d = t.kind === 'f64';
    b.u8(0x11)
      .u8(0x20)
      .u8(d ? 63 : 31)
      .u8(0)
      .u32(d ? 8 : 4);
    return b
      .u16(0)
      .u16(d ? 64 : 32)
      .u8(d ? 52 : 23)
      .u8(d ? 11 : 8)
      .u8(0)
      .u8(d ? 52 : 23)
      .u32(d ? 1023 : 127)
      .done();
  }
  if (t.kind === 'bool') {
    // class 8 (enum) version 1, 2 members, size 1; base int8; names padded to 8 bytes; values.
    b.u8(0x18).u16(2).u8(0).u32(1);
    b.bytes(fixedPoint(1, true));
    b.bytes(padName('FALSE')).bytes(padName('TRUE'));
    return b.u8(0).u8(1).done();
  }
  const size = ELEMENT_SIZE[t.kind];
  return fixedPoint(size, t.kind.startsWith('i'));
}

function fixedPoint(size: number, signed: boolean): Uint8Array {
  return new Bytes()
    .u8(0x10)
    .u8(signed ? 0x08 : 0)
    .u8(0)
    .u8(0)
    .u32(size)
    .u16(0)
    .u16(size * 8)
    .done();
}

function padName(name: string): Uint8Array {
  const raw = utf8.encode(name);
  const out = new Uint8Array(Math.ceil((raw.length + 1) / 8) * 8);
  out.set(raw);
  return out;
}

export function dataspaceMessage(shape: number[] | null): Uint8Array {
  const b = new Bytes().u8(2);
  if (shape === null) return b.u8(0).u8(0).u8(0).done(); // scalar
  b.u8(shape.length).u8(0).u8(1);
  for (const d of shape) b.u64(d);
  return b.done();
}

export function elementSize(t: Dtype): number {
  if (t.kind === 'vlen-string') return 16;
  return t.kind === 'string' ? Math.max(1, t.length) : ELEMENT_SIZE[t.kind];
}

export interface Message {
  type: number;
  data: Uint8Array;
  flags?: number;
}

export function objectHeader(messages: Message[]): Uint8Array {
  let size = 0;
  for (const m of messages) size += 4 + m.data.length;
  const b = new Bytes().bytes(utf8.encode('OHDR')).u8(2).u8(0x02).u32(size);
  for (const m of messages) {
    if (m.data.length > 0xffff) throw new Error(`HDF5 header message of ${m.data.length} bytes is too large`);
    b.u8(m.type)
      .u16(m.data.length)
      .u8(m.flags ?? 0)
      .bytes(m.data);
  }
  const body = b.done();
  const out = new Uint8Array(body.length + 4);
  out.set(body);
  new DataView(out.buffer).setUint32(body.length, lookup3(body), true);
  return out;
}

/** An attribute value: strings (scalar or array), numbers as a typed array (with shape), or a boolean. */
export type AttrValue =
  string | string[] | boolean | ElementArray | { dtype: Dtype; shape: number[] | null; raw: Uint8Array };

/** Strings of attributes, stored once in the file's global heap collection. */
export class GlobalHeap {
  readonly index = new Map<string, number>();
  address = 0n;

  add(s: string): void {
    if (s !== '' && !this.index.has(s)) this.index.set(s, this.index.size + 1);
  }

  /** The collection ("GCOL" version 1, objects 8-byte aligned, free space object 0 at the end). */
  bytes(): Uint8Array {
    const b = new Bytes().bytes(utf8.encode('GCOL')).u8(1).zeros(3).u64(0);
    for (const [s, i] of this.index) {
      const data = utf8.encode(s);
      b.u16(i)
        .u16(1)
        .u32(0)
        .u64(data.length)
        .bytes(data)
        .zeros((8 - (data.length % 8)) % 8);
    }
    const used = b.length;
    const size = Math.max(4096, used + 16);
    b.u16(0)
      .u16(0)
      .u32(0)
      .u64(size - used)
      .zeros(size - used - 16);
    const out = b.done();
    new DataView(out.buffer).setBigUint64(8, BigInt(size), true);
    return out;
  }

  /** Elements of a vlen string attribute: length, collection address, object index. */
  refs(values: string[]): Uint8Array {
    const b = new Bytes();
    for (const s of values) {
      const n = utf8.encode(s).length;
      b.u32(n)
        .u64(n ? this.address : 0n)
        .u32(n ? this.index.get(s)! : 0);
    }
    return b.done();
  }
}

export function attributeMessage(name: string, value: AttrValue, heap?: GlobalHeap): Uint8Array {
  const enc =
    heap && (typeof value === 'string' || (Array.isArray(value) && value.length))
      ? {
          dtype: { kind: 'vlen-string' } as Dtype,
          shape: typeof value === 'string' ? null : [value.length],
          raw: heap.refs(typeof value === 'string' ? [value] : value),
        }
      : encodeAttr(value);
  const nameBytes = utf8.encode(name);
  const dt = datatypeMessage(enc.dtype);
  const ds = dataspaceMessage(enc.shape);
  return new Bytes()
    .u8(3)
    .u8(0)
    .u16(nameBytes.length + 1)
    .u16(dt.length)
    .u16(ds.length)
    .u8(1)
    .bytes(nameBytes)
    .u8(0)
    .bytes(dt)
    .bytes(ds)
    .bytes(enc.raw)
    .done();
}

function encodeAttr(v: AttrValue): { dtype: Dtype; shape: number[] | null; raw: Uint8Array } {
  if (typeof v === 'string') {
    const raw = utf8.encode(v);
    return {
      dtype: { kind: 'string', length: Math.max(1, raw.length) },
      shape: null,
      raw: raw.length ? raw : new Uint8Array(1),
    };
  }
  if (typeof v === 'boolean')
    return { dtype: { kind: 'bool' }, shape: null, raw: new Uint8Array([v ? 1 : 0]) };
  if (Array.isArray(v)) {
    const { dtype, raw } = encodeStrings(v);
    return { dtype, shape: [v.length], raw };
  }
  if (ArrayBuffer.isView(v))
    return {
      dtype: { kind: kindOf(v) },
      shape: [v.length],
      raw: new Uint8Array(v.buffer, v.byteOffset, v.byteLength).slice(),
    };
  return v;
}

export function kindOf(a: ElementArray): NumericKind {
  if (a instanceof Float32Array) return 'f32';
  if (a instanceof Float64Array) return 'f64';
  if (a instanceof Int8Array) return 'i8';
  if (a instanceof Int16Array) return 'i16';
  if (a instanceof Int32Array) return 'i32';
  if (a instanceof BigInt64Array) return 'i64';
  if (a instanceof Uint32Array) return 'u32';
  return 'u8';
}

/** Fixed-length UTF-8 strings, null-padded to the longest. */
export function encodeStrings(values: string[]): { dtype: Dtype; raw: Uint8Array } {
  const enc = values.map((s) => utf8.encode(s));
  // a loop, not Math.max(...spread): 500k barcodes overflowed the call stack (synth500k, issue 14)
  let length = 1;
  for (const e of enc) if (e.length > length) length = e.length;
  const raw = new Uint8Array(Math.max(1, values.length) * length);
  enc.forEach((e, i) => raw.set(e, i * length));
  return { dtype: { kind: 'string', length }, raw: values.length ? raw : new Uint8Array(0) };
}
