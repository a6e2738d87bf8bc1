import { FormatError } from './errors';

/**
 * Limits of the readers against decompression bombs and lying headers (issue 12). Readers never
 * allocate what a header declares before checking it against these limits and against what the
 * compressed bytes can plausibly hold; every decompressed stream is counted.
 *
 * The limits are process-wide (`setReadLimits`): uploads are parsed one per child process, which
 * sets them from the server configuration.
 */
export interface ReadLimits {
  /** Most bytes one decompressed stream (gzip member chain, zip entry) may produce. */
  maxDecompressedBytes: number;
  /** Most decompressed bytes per compressed byte (real 10x/text files: 2–5; gzip's maximum ≈ 1032). */
  maxExpansionRatio: number;
  /** Decompressed bytes always allowed whatever the ratio (small files compress well). */
  minDecompressedAllowance: number;
  /** Most stored entries (non-zeros) a matrix may declare or hold. */
  maxEntries: number;
  /** Most rows / columns (genes, cells) a matrix may declare. */
  maxDimension: number;
}

export const DEFAULT_READ_LIMITS: ReadLimits = {
  maxDecompressedBytes: 64 * 1024 ** 3,
  maxExpansionRatio: 100,
  minDecompressedAllowance: 64 * 1024 * 1024,
  maxEntries: 2_000_000_000,
  maxDimension: 50_000_000,
};

let current: ReadLimits = { ...DEFAULT_READ_LIMITS };

/** Sets the limits (unset fields take the defaults). */
export function setReadLimits(limits: Partial<ReadLimits>): void {
  current = { ...DEFAULT_READ_LIMITS, ...limits };
}

export function readLimits(): ReadLimits {
  return current;
}

/** Most decompressed bytes a stream of `compressedBytes` may produce. */
export function decompressedBudget(compressedBytes: number): number {
  const l = current;
  return Math.min(
    l.maxDecompressedBytes,
    Math.max(l.minDecompressedAllowance, compressedBytes * l.maxExpansionRatio),
  );
}

export function tooLarge(file: string, max: number): FormatError {
  return new FormatError('limits.decompressed_too_large', { file, max: formatBytes(max) });
}

/** Counts a decompressed stream and stops it once it exceeds the budget of its compressed size. */
export async function* limitDecompressed(
  chunks: AsyncIterable<Uint8Array>,
  file: string,
  compressedBytes: number,
): AsyncIterable<Uint8Array> {
  const budget = decompressedBudget(compressedBytes);
  let total = 0;
  for await (const c of chunks) {
    total += c.byteLength;
    if (total > budget) throw tooLarge(file, budget);
    yield c;
  }
}

/**
 * Checks a declared count (entries, rows, cells…) against the configured maximum and against
 * the bytes available to hold it (`minBytesEach` text bytes per item in at most `contentBytes`).
 */
export function checkDeclared(
  file: string,
  what: string,
  declared: number,
  max: number,
  contentBytes?: number,
  minBytesEach = 1,
): void {
  const fits = contentBytes === undefined ? Infinity : Math.floor(contentBytes / minBytesEach);
  if (!Number.isSafeInteger(declared) || declared > max || declared > fits) {
    throw new FormatError('limits.declared_too_large', { file, what, declared, max: Math.min(max, fits) });
  }
}

function formatBytes(n: number): string {
  if (n >= 1024 ** 3) return `${(n / 1024 ** 3).toFixed(1)} GB`;
  if (n >= 1024 ** 2) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${n} bytes`;
}
