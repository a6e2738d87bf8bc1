import type { StepName } from './steps/step';

/**
 * Checkpoints of the analysis pipeline (issue 34): after each finished step the runner hands the
 * state of every finished step to an injected `CheckpointStore`; a re-run of the same job (a
 * worker died, the job was retried) loads the last one and skips the finished steps. The engine
 * does no I/O: the caller's store writes the parts wherever the job keeps its files.
 *
 * Format (version CHECKPOINT_FORMAT): "CCKP", a little-endian u32 header length, the UTF-8 JSON
 * header (format, key, the steps it holds, the byte length of each buffer, the encoded value tree),
 * zero padding to 8 bytes, then each distinct ArrayBuffer / SharedArrayBuffer once, each padded to
 * 8 bytes. Typed arrays are views (buffer, offset, length) into those buffers and every object is
 * stored once (later uses are references), so what the steps share (the normalized values share
 * the counts' indices; filtered results share gene lists) is shared again after a restore, and
 * shared memory comes back as shared memory (worker threads read it). A file whose length does not
 * match its header (a write cut short) or whose key differs (other engine, parameters or inputs)
 * is not used.
 */
export const CHECKPOINT_FORMAT = 1;

const MAGIC = [0x43, 0x43, 0x4b, 0x50]; // "CCKP"

/** Where a job's checkpoints live: the caller's storage, behind this interface. */
export interface CheckpointStore {
  /** The last checkpoint saved for this job, if any. */
  load(): Promise<Uint8Array | undefined>;
  /** Saves a checkpoint (its parts in order, written as one object), replacing the earlier ones. */
  save(parts: Uint8Array[], info: { step: StepName; bytes: number }): Promise<void>;
}

/** What a runner needs to checkpoint: the store and the key that makes a checkpoint reusable. */
export interface CheckpointOptions {
  store: CheckpointStore;
  /**
   * Identifies the computation: the engine identity, the normalized parameters and the inputs
   * (the server uses the job's result cache key plus the running engine's identity). A
   * checkpoint saved under another key is ignored.
   */
  key: string;
}

export interface CheckpointState {
  key: string;
  /** The finished steps it holds, in pipeline order (the last one is where it was taken). */
  steps: StepName[];
  /** Per step, its snapshot (Step.snapshot()). */
  values: Record<string, unknown>;
}

type Encoded = null | boolean | number | string | Encoded[] | { [k: string]: Encoded };

const TYPED = {
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
} as const;
type TypedName = keyof typeof TYPED;
type Typed = InstanceType<(typeof TYPED)[TypedName]>;

const pad8 = (n: number) => (8 - (n % 8)) % 8;

/** The checkpoint bytes of `state`, as parts (the buffers are not copied). */
export function encodeCheckpoint(state: CheckpointState): Uint8Array[] {
  const buffers: (ArrayBuffer | SharedArrayBuffer)[] = [];
  const bufferIds = new Map<ArrayBuffer | SharedArrayBuffer, number>();
  const seen = new Map<object, number>();
  const encode = (v: unknown): Encoded => {
    if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
    if (v === undefined) return { $u: 1 };
    if (typeof v === 'number')
      return Number.isFinite(v) && !Object.is(v, -0) ? v : { $n: Object.is(v, -0) ? '-0' : String(v) };
    if (typeof v !== 'object') throw new Error(`checkpoint: cannot store a ${typeof v}`);
    const ref = seen.get(v);
    if (ref !== undefined) return { $r: ref };
    seen.set(v, seen.size);
    if (ArrayBuffer.isView(v)) {
      const name = v.constructor.name as TypedName;
      if (!(name in TYPED)) throw new Error(`checkpoint: cannot store a ${name}`);
      let b = bufferIds.get(v.buffer);
      if (b === undefined) {
        b = buffers.length;
        bufferIds.set(v.buffer, b);
        buffers.push(v.buffer);
      }
      return { $t: name, b, o: v.byteOffset, l: (v as Typed).length };
    }
    if (Array.isArray(v)) return { $a: v.map(encode) };
    const proto = Object.getPrototypeOf(v) as unknown;
    if (proto !== Object.prototype && proto !== null)
      throw new Error(`checkpoint: cannot store an instance of ${(v as object).constructor?.name}`);
    const out: Record<string, Encoded> = {};
    for (const [k, x] of Object.entries(v)) out[k] = encode(x);
    return { $o: out };
  };
  const root = encode(state.values);
  const header = new TextEncoder().encode(
    JSON.stringify({
      format: CHECKPOINT_FORMAT,
      key: state.key,
      steps: state.steps,
      buffers: buffers.map((b) => ({ shared: b instanceof SharedArrayBuffer, bytes: b.byteLength })),
      root,
    }),
  );
  const head = new Uint8Array(8 + header.length + pad8(header.length));
  head.set(MAGIC, 0);
  new DataView(head.buffer).setUint32(4, header.length, true);
  head.set(header, 8);
  const parts: Uint8Array[] = [head];
  for (const b of buffers) {
    parts.push(new Uint8Array(b));
    if (pad8(b.byteLength)) parts.push(new Uint8Array(pad8(b.byteLength)));
  }
  return parts;
}

/**
 * The state in checkpoint bytes, or undefined when they are not a complete checkpoint of this
 * format saved under `key` (then the job starts from the beginning).
 */
export function decodeCheckpoint(bytes: Uint8Array, key: string): CheckpointState | undefined {
  if (bytes.length < 8 || MAGIC.some((m, i) => bytes[i] !== m)) return undefined;
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, 8).getUint32(4, true);
  if (8 + headerLength > bytes.length) return undefined;
  let header: {
    format: number;
    key: string;
    steps: StepName[];
    buffers: { shared: boolean; bytes: number }[];
    root: Encoded;
  };
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)));
  } catch {
    return undefined;
  }
  if (header.format !== CHECKPOINT_FORMAT || header.key !== key) return undefined;
  let at = 8 + headerLength + pad8(headerLength);
  const expected = header.buffers.reduce((a, b) => a + b.bytes + pad8(b.bytes), at);
  if (expected !== bytes.length) return undefined;
  const buffers = header.buffers.map((b) => {
    const buf = b.shared ? new SharedArrayBuffer(b.bytes) : new ArrayBuffer(b.bytes);
    new Uint8Array(buf).set(bytes.subarray(at, at + b.bytes));
    at += b.bytes + pad8(b.bytes);
    return buf;
  });
  const objects: unknown[] = [];
  const decode = (e: Encoded): unknown => {
    if (e === null || typeof e !== 'object' || Array.isArray(e)) return e;
    if ('$u' in e) return undefined;
    if ('$n' in e) return Number(e.$n);
    if ('$r' in e) return objects[e.$r as number];
    if ('$t' in e) {
      const Kind = TYPED[e.$t as TypedName];
      const view = new Kind(buffers[e.b as number] as ArrayBuffer, e.o as number, e.l as number);
      objects.push(view);
      return view;
    }
    if ('$a' in e) {
      const arr: unknown[] = [];
      objects.push(arr);
      for (const x of e.$a as Encoded[]) arr.push(decode(x));
      return arr;
    }
    const obj: Record<string, unknown> = {};
    objects.push(obj);
    for (const [k, x] of Object.entries(e.$o as Record<string, Encoded>)) obj[k] = decode(x);
    return obj;
  };
  return { key, steps: header.steps, values: decode(header.root) as Record<string, unknown> };
}
