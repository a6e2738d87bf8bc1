import { SOURCE_TRANSFERRED, UNASSIGNED } from '@cellcloud/contracts/label-transfer';
import type { ObsColumn } from '../data/protocol';

type Categorical = Extract<ObsColumn, { kind: 'categorical' }>;
type Numeric = Extract<ObsColumn, { kind: 'numeric' }>;

export interface TransferRow {
  label: string;
  cells: number;
  /** Mean winning share of the neighbours over the row's cells (NaN without a confidence column). */
  meanConfidence: number;
}

export interface TransferStats {
  /** Cells that received transferred labels (the user's cells). */
  queryCells: number;
  assigned: number;
  unassigned: number;
  /** Assigned types, most cells first; the unassigned cells are not a row. */
  rows: TransferRow[];
  unassignedMeanConfidence: number;
}

/**
 * Per transferred label: how many of the user's cells (annotation source "transferred") received
 * it and their mean confidence; the cells left "unassigned" (below the confidence threshold) apart.
 */
export function transferStats(level: Categorical, source: Categorical, confidence?: Numeric): TransferStats {
  const transferred = source.labels.indexOf(SOURCE_TRANSFERRED);
  const n = level.labels.length;
  const cells = new Float64Array(n);
  const conf = new Float64Array(n);
  let queryCells = 0;
  for (let i = 0; i < level.codes.length; i++) {
    if (source.codes[i] !== transferred) continue;
    queryCells++;
    const c = level.codes[i]!;
    if (c >= n) continue;
    cells[c]! += 1;
    if (confidence) conf[c]! += confidence.values[i]!;
  }
  const mean = (c: number) => (confidence && cells[c] ? conf[c]! / cells[c]! : NaN);
  const u = level.labels.indexOf(UNASSIGNED);
  const rows: TransferRow[] = [];
  level.labels.forEach((label, c) => {
    if (c !== u && cells[c]) rows.push({ label, cells: cells[c]!, meanConfidence: mean(c) });
  });
  rows.sort((a, b) => b.cells - a.cells || a.label.localeCompare(b.label));
  const unassigned = u >= 0 ? cells[u]! : 0;
  return {
    queryCells,
    assigned: queryCells - unassigned,
    unassigned,
    rows,
    unassignedMeanConfidence: u >= 0 ? mean(u) : NaN,
  };
}
