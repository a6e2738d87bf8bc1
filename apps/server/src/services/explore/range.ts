/**
 * One HTTP byte range (RFC 9110 §14.1.2): `bytes=a-b`, `bytes=a-` or `bytes=-n`, clamped to the
 * file. `null` = no/unsupported Range header (send the whole file); 'unsatisfiable' → 416.
 */
export type ByteRange = { start: number; end: number } | null | 'unsatisfiable';

export function parseRange(header: string | undefined, size: number): ByteRange {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null; // multi-range or malformed: full body
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}
