/**
 * Label transfer from public database datasets onto the user's cells (issue 20): the per-cell
 * columns an integrated result carries (written by the engine's label-transfer.ts, read by the
 * explorer's summary) and the summary artifact `artifacts/label-transfer.json`.
 */

/** The standardized levels of public datasets (docs/methods/public-data.md#annotation-levels) that are transferred onto the user's cells. */
export const TRANSFERRED_LEVELS = ['annot_full', 'annot_sub', 'annot_sub2'] as const;
export type TransferredLevel = (typeof TRANSFERRED_LEVELS)[number];

/** Label given to a cell whose winning label holds less than `minConfidence` of its neighbours. */
export const UNASSIGNED = 'unassigned';

/** Categorical column telling reference (public) cells from the cells that received labels. */
export const ANNOTATION_SOURCE = 'annotation_source';
export const SOURCE_PUBLIC = 'public';
export const SOURCE_TRANSFERRED = 'transferred';

/** Numeric column with the winning label's share of the neighbours (NaN on reference cells). */
export function confidenceColumn(level: string): string {
  return `${level}_confidence`;
}

/** File name of the summary under the result's `artifacts/`. */
export const LABEL_TRANSFER_ARTIFACT = 'label-transfer.json';

export interface LabelTransferSummary {
  k: number;
  minConfidence: number;
  referenceCells: number;
  queryCells: number;
  levels: { level: string; unassigned: number; meanConfidence: number }[];
}
