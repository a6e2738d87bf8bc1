import { Bytes } from './hdf5-encode';

/** HDF5 shuffle filter (H5Z_filter_shuffle): byte k of element i goes to k·n + i. */
export function shuffleBytes(
  raw: Uint8Array,
  esize: number,
  out: Uint8Array = new Uint8Array(raw.length),
): Uint8Array {
  const n = Math.floor(raw.length / esize);
  if (out.length !== raw.length) throw new Error('shuffleBytes: the output is not the input size');
  if (esize === 4 && raw.byteOffset % 4 === 0) {
    const words = new Uint32Array(raw.buffer, raw.byteOffset, n);
    for (let i = 0; i < n; i++) {
      const v = words[i]!;
      out[i] = v;
      out[n + i] = v >>> 8;
      out[2 * n + i] = v >>> 16;
      out[3 * n + i] = v >>> 24;
    }
  } else {
    for (let k = 0; k < esize; k++) for (let i = 0; i < n; i++) out[k * n + i] = raw[i * esize + k]!;
  }
  out.set(raw.subarray(n * esize), n * esize); // leftover bytes stay in place, as HDF5 does
  return out;
}

/**
 * Filter pipeline message (version 2) of a chunked dataset: [shuffle (id 2), its client value the
 * element size, as H5Pset_shuffle] then deflate (id 1, optional flag as H5Pset_deflate, the level).
 */
export function filterPipeline(level: number, shuffleElementSize = 0): Uint8Array {
  const b = new Bytes().u8(2).u8(shuffleElementSize ? 2 : 1);
  if (shuffleElementSize) b.u16(2).u16(1).u16(1).u32(shuffleElementSize);
  return b.u16(1).u16(1).u16(1).u32(level).done();
}
