/** The per-cell columns in the explorer encoding (obs/), and the file stems of keys. */
import type { ArtifactManifest } from '@cellcloud/contracts/artifacts';
import type { CellColumn } from '../matrix';
import { bytesOf } from './sink';

/** File-name-safe, unique stem for a key (the manifest keeps the original key). */
export function stems(keys: string[]): Map<string, string> {
  const used = new Set<string>();
  const out = new Map<string, string>();
  for (const k of keys) {
    let stem = k.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^\.+/, '_') || '_';
    let i = 1;
    const base = stem;
    while (used.has(stem.toLowerCase())) stem = `${base}_${i++}`;
    used.add(stem.toLowerCase());
    out.set(k, stem);
  }
  return out;
}

/** Order of category labels: numeric labels numerically, the rest alphabetically. */
export function categoryOrder(values: string[]): string[] {
  const cats = [...new Set(values)];
  if (cats.every((c) => c !== '' && !Number.isNaN(Number(c))))
    return cats.sort((a, b) => Number(a) - Number(b));
  return cats.sort((a, b) => a.localeCompare(b));
}

/**
 * One per-cell column in the explorer encoding: categorical → `obs/<stem>.u16|u32` codes into
 * `labels` (categoryOrder), numeric → `obs/<stem>.f32` with min/max. Also used for task outputs.
 */
export function encodeObsColumn(
  key: string,
  col: CellColumn,
  stem: string,
): { entry: ArtifactManifest['obs'][number]; bytes: Uint8Array } {
  const nCells = col.values.length;
  if (col.kind === 'categorical') {
    const labels = categoryOrder(col.values);
    const pos = new Map(labels.map((l, i) => [l, i]));
    const dtype = labels.length <= 65536 ? 'u16' : 'u32';
    const codes = dtype === 'u16' ? new Uint16Array(nCells) : new Uint32Array(nCells);
    col.values.forEach((v, i) => (codes[i] = pos.get(v)!));
    return {
      entry: { kind: 'categorical', key, file: `obs/${stem}.${dtype}`, dtype, labels },
      bytes: bytesOf(codes),
    };
  }
  let min = Infinity;
  let max = -Infinity;
  for (const v of col.values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return {
    entry: {
      kind: 'numeric',
      key,
      file: `obs/${stem}.f32`,
      min: Number.isFinite(min) ? min : 0,
      max: Number.isFinite(max) ? max : 0,
    },
    bytes: bytesOf(Float32Array.from(col.values)),
  };
}
