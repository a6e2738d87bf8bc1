import type { TaskTable } from '@cellcloud/contracts/tasks/csv';

/** Column `name` of a task table as numbers (missing / text → NaN). */
export function numberColumn(t: TaskTable, name: string): number[] | undefined {
  const j = t.columns.indexOf(name);
  if (j < 0) return undefined;
  return t.rows.map((r) => (typeof r[j] === 'number' ? r[j] : NaN));
}

/** Column `name` of a task table as text (null → ''). */
export function textColumn(t: TaskTable, name: string): string[] | undefined {
  const j = t.columns.indexOf(name);
  if (j < 0) return undefined;
  return t.rows.map((r) => (r[j] === null || r[j] === undefined ? '' : String(r[j])));
}

/** Rows of `tb` ordered by `col` ascending (NaN last), first `n`. */
export function topBy(tb: TaskTable, col: string, n: number): number[] {
  const v = numberColumn(tb, col) ?? [];
  return v
    .map((x, i) => [x, i] as const)
    .filter(([x]) => Number.isFinite(x))
    .sort((a, b) => a[0] - b[0])
    .slice(0, n)
    .map(([, i]) => i);
}
