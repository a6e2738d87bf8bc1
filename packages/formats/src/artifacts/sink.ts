/** The sink the explorer artifacts are written through, and the byte views handed to it. */

/** Writes the explorer artifacts (layout in packages/contracts/src/artifacts.ts) through a sink. */
export interface ArtifactSink {
  write(path: string, bytes: Uint8Array): Promise<void>;
  /**
   * Optional positional file writer: with it the gene-major expression chunks are written one
   * block of genes at a time instead of as one buffer (8 bytes per non-zero less at the peak).
   * The block buffer is reused for the next block once `write` has resolved.
   */
  open?(
    path: string,
  ): Promise<{ write(bytes: Uint8Array, position: number): Promise<void>; close(): Promise<void> }>;
}

export type PositionalFile = { write(bytes: Uint8Array, position: number): Promise<void> };

export const bytesOf = (a: Float32Array | Uint16Array | Uint32Array | Float64Array) =>
  new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1)
  throw new Error('explorer artifacts are little-endian; this platform is big-endian');
