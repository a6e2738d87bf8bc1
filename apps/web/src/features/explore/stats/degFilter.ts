import { LIMITS } from '@cellcloud/contracts/constants';
import type { DegRow } from '@cellcloud/contracts/artifacts';

/** docs/product/validation.md#deg-display-filter: the shown DEG table keeps Log2FC ≥ 0.25, adjusted p ≤ 0.05 and (Pct1 or Pct2) ≥ 0.1. */
export function passesDegFilter(
  r: DegRow,
  f: { log2fc: number; padj: number; pct: number } = LIMITS.degFilter,
): boolean {
  return r.log2fc >= f.log2fc && r.padj <= f.padj && (r.pct1 >= f.pct || r.pct2 >= f.pct);
}

export type DegSortKey = keyof DegRow;

export function filterDegRows(
  rows: readonly DegRow[],
  opts: { applySpecFilter: boolean; search: string; cluster: string | null },
): DegRow[] {
  const q = opts.search.trim().toUpperCase();
  return rows.filter(
    (r) =>
      (!opts.applySpecFilter || passesDegFilter(r)) &&
      (opts.cluster === null || r.cluster === opts.cluster) &&
      (q === '' || r.gene.toUpperCase().includes(q)),
  );
}

export function sortDegRows(rows: DegRow[], key: DegSortKey, dir: 'asc' | 'desc'): DegRow[] {
  const s = dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = a[key];
    const y = b[key];
    return typeof x === 'number' && typeof y === 'number'
      ? (x - y) * s
      : String(x).localeCompare(String(y)) * s;
  });
}
