import { clusterName, subsetName } from '@cellcloud/contracts/explore';

export interface ClusterLabelRow {
  cluster: string;
  label: string;
  cells: number;
  /** share of the cluster's cells carrying the label */
  fraction: number;
  /** mean per-cell score of those cells (annot_auto_score), null without scores */
  meanScore: number | null;
}

export interface ClusterSummary {
  cluster: string;
  cells: number;
  /** majority label and its share of the cluster (the per-cluster confidence) */
  label: string;
  confidence: number;
  rows: ClusterLabelRow[];
}

/**
 * Cluster × label table of a level: per cluster its labels by cell count (fraction, mean score)
 * and the majority label with its share (confidence). Cells coded 0xFFFFFFFF (not in a subset)
 * are skipped.
 */
export function clusterLabelTable(
  clusterCodes: Uint32Array,
  clusterLabels: readonly string[],
  labelCodes: Uint32Array,
  labels: readonly string[],
  score?: Float32Array,
): ClusterSummary[] {
  const nL = labels.length;
  const counts = new Float64Array(clusterLabels.length * nL);
  const sums = new Float64Array(clusterLabels.length * nL);
  const scored = new Float64Array(clusterLabels.length * nL);
  for (let i = 0; i < clusterCodes.length; i++) {
    const k = clusterCodes[i]!;
    const l = labelCodes[i]!;
    if (k >= clusterLabels.length || l >= nL) continue;
    counts[k * nL + l]! += 1;
    const s = score?.[i];
    if (s !== undefined && Number.isFinite(s)) {
      sums[k * nL + l]! += s;
      scored[k * nL + l]! += 1;
    }
  }
  const out: ClusterSummary[] = [];
  clusterLabels.forEach((cluster, k) => {
    let total = 0;
    for (let l = 0; l < nL; l++) total += counts[k * nL + l]!;
    if (total === 0) return;
    const rows: ClusterLabelRow[] = [];
    for (let l = 0; l < nL; l++) {
      const c = counts[k * nL + l]!;
      if (!c) continue;
      const n = scored[k * nL + l]!;
      rows.push({
        cluster,
        label: labels[l]!,
        cells: c,
        fraction: c / total,
        meanScore: n ? sums[k * nL + l]! / n : null,
      });
    }
    rows.sort((a, b) => b.cells - a.cells);
    out.push({ cluster, cells: total, label: rows[0]!.label, confidence: rows[0]!.fraction, rows });
  });
  return out;
}

/** Per-cell confidence: the share of the cell's cluster that carries the cluster's majority label. */
export function confidencePerCell(
  clusterCodes: Uint32Array,
  clusters: readonly string[],
  table: ClusterSummary[],
): Float32Array {
  const conf = new Map(table.map((r) => [r.cluster, r.confidence]));
  return Float32Array.from(clusterCodes, (k) => conf.get(clusters[k] ?? '') ?? 0);
}

/**
 * Checks a hand edit before it is saved as a new level (docs/product/validation.md#annotation-and-cluster-names name rules, the same schemas the
 * server applies): the level name (no special symbols or Chinese, no leading digit or symbol) and
 * every new label name (no special characters).
 */
export function checkEdit(
  levelName: string,
  renames: Record<string, string>,
): { levelInvalid: boolean; badLabels: string[] } {
  return {
    levelInvalid: !subsetName.safeParse(levelName).success,
    badLabels: Object.entries(renames)
      .filter(([, to]) => !clusterName.safeParse(to).success)
      .map(([from]) => from),
  };
}

/** Only the labels whose name changes (a rename of several labels to one name merges them). */
export function changedRenames(renames: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(renames)
      .filter(([from, to]) => to.trim() && to.trim() !== from)
      .map(([f, t]) => [f, t.trim()]),
  );
}
