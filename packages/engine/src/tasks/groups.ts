import type { GroupSpec } from '@cellcloud/contracts/tasks/define';
import { TaskError } from './errors';
import type { ResultHandle } from './types';

/** The categorical annotation level `key` as per-cell labels, or a TaskError naming it. */
export function categoricalLevel(result: ResultHandle, key: string): string[] {
  const col = result.obs(key);
  if (!col)
    throw new TaskError('common.groupByMissing', `The annotation level "${key}" does not exist.`, { key });
  if (col.kind === 'categorical') return col.values;
  return Array.from(col.values, (v) => String(v));
}

/** Groups of a level: label → cell indices (labels in first-seen order). */
export function groupsOf(result: ResultHandle, key: string): Map<string, number[]> {
  const labels = categoricalLevel(result, key);
  const out = new Map<string, number[]>();
  labels.forEach((l, c) => {
    let a = out.get(l);
    if (!a) out.set(l, (a = []));
    a.push(c);
  });
  return out;
}

/** Cells matching every condition of a group spec (SPEC: a cell matches when all hold). */
export function selectCells(result: ResultHandle, spec: GroupSpec): Uint32Array {
  let keep: Uint8Array | undefined;
  for (const cond of spec) {
    const labels = categoricalLevel(result, cond.key);
    const present = new Set(labels);
    for (const v of cond.values) {
      if (!present.has(v)) {
        throw new TaskError('common.groupValueMissing', `"${cond.key}" has no group "${v}".`, {
          key: cond.key,
          value: v,
        });
      }
    }
    const want = new Set(cond.values);
    const m = new Uint8Array(result.nCells);
    labels.forEach((l, c) => (m[c] = want.has(l) && (!keep || keep[c]) ? 1 : 0));
    keep = m;
  }
  const out: number[] = [];
  keep?.forEach((k, c) => k && out.push(c));
  return Uint32Array.from(out);
}

/** Human form of a group spec for messages and table headers: "cluster=1,3; Sample ID=ctrl". */
export function describeGroup(spec: GroupSpec): string {
  return spec.map((c) => `${c.key}=${c.values.join(',')}`).join('; ');
}
