import { NOT_IN_SUBSET } from '@cellcloud/contracts/explore';
import { decodeCodes } from '@cellcloud/formats/artifacts-decode';
import type { CellColumn } from '@cellcloud/formats/matrix';
import type { Storage } from '../storage/storage';

/**
 * Per-cell columns of a result besides its analysis.h5ad obs: the explorer's saved levels /
 * subsets (`subset:<id>`, named by the user) and earlier completed tasks' columns (annot_auto,
 * annot_sub, …). Read in child processes (tasks see them as extraObs; downloads write them into
 * the exported h5ad / Seurat metadata). Child-safe: storage and formats only.
 */
export type ExtraObsSource =
  | { key: string; kind: 'subset'; codesKey: string; labels: string[]; name: string }
  | { key: string; kind: 'categorical'; fileKey: string; dtype: 'u16' | 'u32'; labels: string[] }
  | { key: string; kind: 'numeric'; fileKey: string };

/** The column of one source, or undefined when its file is missing or has another length. */
export async function extraColumn(
  storage: Storage,
  s: ExtraObsSource,
  nCells: number,
): Promise<CellColumn | undefined> {
  const bytes = await storage.getBytes(s.kind === 'subset' ? s.codesKey : s.fileKey).catch(() => undefined);
  if (!bytes) return undefined;
  if (s.kind === 'numeric') {
    if (bytes.byteLength !== 4 * nCells) return undefined;
    const f = new Float32Array(nCells);
    new Uint8Array(f.buffer).set(bytes);
    return { kind: 'numeric', values: Float64Array.from(f) };
  }
  const codes = s.kind === 'subset' ? decodeCodes(bytes, 'u32') : decodeCodes(bytes, s.dtype);
  if (codes.length !== nCells) return undefined;
  return {
    kind: 'categorical',
    values: Array.from(codes, (c) => (c === NOT_IN_SUBSET || c >= s.labels.length ? 'NA' : s.labels[c]!)),
  };
}
