import type { AnnotateSummary } from '../contract';
import type { AnnotateParams } from '../contract';
import type { TableValue, TaskRunContext } from '@cellcloud/engine/tasks/kit';
import type { SingleRResult } from './singler';

const UNASSIGNED = 'unassigned';
const OTHER = 'other';

export interface AnnotationOutputInput {
  ctx: TaskRunContext<AnnotateParams>;
  mode: 'auto' | 'subtype';
  species: string;
  tissue: string;
  reference: string;
  /** annotated cells (all cells in auto mode) */
  cells: Uint32Array;
  /** cluster of each annotated cell (same order as cells) */
  cluster: readonly string[];
  sr?: SingleRResult;
  major: readonly string[];
  final: readonly string[];
  sub2?: readonly string[];
  markerCalls?: Map<string, { label: string; score: number }>;
  lineage?: string;
  seconds: number;
}

function full(n: number, cells: Uint32Array, values: readonly string[], fill: string): string[] {
  const out = new Array<string>(n).fill(fill);
  cells.forEach((c, i) => (out[c] = values[i]!));
  return out;
}

const round = (x: number, d = 4) => (Number.isFinite(x) ? Math.round(x * 10 ** d) / 10 ** d : 0);

/**
 * Writes the annotation's per-cell levels, tables and figure data; returns the summary.
 *
 * Auto mode obs: `annot_auto` (final per-cell label), `annot_auto_major` (reference label),
 * `annot_auto_pruned` (label, or "unassigned" for calls pruned by delta), `annot_auto_cluster`
 * (per-cluster majority of annot_auto), `annot_auto_score`, `annot_auto_delta`,
 * `annot_auto_confidence` (fraction of the cluster agreeing with its majority),
 * `annot_auto_markers` (marker-list call of the cell's cluster). Subtype mode: `annot_sub`
 * (and `annot_sub2`), "other" outside the annotated cells.
 *
 * Tables: `cells` (barcode, cluster, label columns, score, delta, pruned), `clusters` (cluster,
 * cells, label, confidence, mean_score, marker_label, marker_score), `cluster_labels` (cluster,
 * label, cells, fraction, mean_score). Data: `markers.json` (label → reference marker genes) and
 * `dotplot.json` (clusters × marker genes: mean normalized expression and fraction expressing).
 */
export async function writeAnnotationOutputs(o: AnnotationOutputInput): Promise<AnnotateSummary> {
  const { ctx, cells, cluster, sr, final } = o;
  const { result, sink, params } = ctx;
  const n = result.nCells;
  const levels: string[] = [];
  const putCat = async (key: string, values: string[]) => {
    await sink.cellColumn(key, { kind: 'categorical', values });
    levels.push(key);
  };
  const putNum = async (key: string, values: Float64Array) => {
    await sink.cellColumn(key, { kind: 'numeric', values });
    levels.push(key);
  };
  // cluster majority of the final labels
  const byCluster = new Map<string, Map<string, number>>();
  const scoreSum = new Map<string, number>();
  cells.forEach((_, i) => {
    const k = cluster[i]!;
    let m = byCluster.get(k);
    if (!m) byCluster.set(k, (m = new Map()));
    m.set(final[i]!, (m.get(final[i]!) ?? 0) + 1);
    scoreSum.set(k, (scoreSum.get(k) ?? 0) + (sr ? sr.score[i]! : 0));
  });
  const clusters = [...byCluster.entries()]
    .map(([k, m]) => {
      const total = [...m.values()].reduce((a, b) => a + b, 0);
      const [label, count] = [...m.entries()].sort((a, b) => b[1] - a[1])[0]!;
      const mc = o.markerCalls?.get(k);
      return {
        cluster: k,
        cells: total,
        label,
        confidence: round(count / total),
        meanScore: round((scoreSum.get(k) ?? 0) / total),
        ...(mc ? { markerLabel: mc.label, markerScore: round(mc.score) } : {}),
      };
    })
    .sort((a, b) => a.cluster.localeCompare(b.cluster, undefined, { numeric: true }));
  const clusterOf = new Map(clusters.map((c) => [c.cluster, c]));
  let nPruned = 0;
  if (o.mode === 'auto') {
    await putCat('annot_auto', full(n, cells, final, UNASSIGNED));
    await putCat('annot_auto_major', full(n, cells, o.major, UNASSIGNED));
    if (sr) {
      const pr = final.map((l, i) => (sr.pruned[i] ? UNASSIGNED : l));
      nPruned = sr.pruned.reduce((a, b) => a + b, 0);
      await putCat('annot_auto_pruned', full(n, cells, pr, UNASSIGNED));
    }
    await putCat(
      'annot_auto_cluster',
      full(
        n,
        cells,
        cluster.map((k) => clusterOf.get(k)!.label),
        UNASSIGNED,
      ),
    );
    if (sr) {
      const s = new Float64Array(n).fill(NaN);
      const d = new Float64Array(n).fill(NaN);
      cells.forEach((c, i) => {
        s[c] = sr.score[i]!;
        d[c] = sr.delta[i]!;
      });
      await putNum('annot_auto_score', s);
      await putNum('annot_auto_delta', d);
    }
    const conf = new Float64Array(n).fill(NaN);
    cells.forEach((c, i) => (conf[c] = clusterOf.get(cluster[i]!)!.confidence));
    await putNum('annot_auto_confidence', conf);
    if (o.markerCalls) {
      await putCat(
        'annot_auto_markers',
        full(
          n,
          cells,
          cluster.map((k) => o.markerCalls!.get(k)?.label ?? 'Unknown'),
          UNASSIGNED,
        ),
      );
    }
  } else {
    await putCat('annot_sub', full(n, cells, final, OTHER));
    if (o.sub2) await putCat('annot_sub2', full(n, cells, o.sub2, OTHER));
  }
  // tables
  const labelCols =
    o.mode === 'auto' ? ['annot_auto', 'annot_auto_major'] : ['annot_sub', ...(o.sub2 ? ['annot_sub2'] : [])];
  const cellRows: TableValue[][] = [];
  cells.forEach((c, i) => {
    const row: TableValue[] = [result.barcodes[c]!, cluster[i]!, final[i]!];
    if (o.mode === 'auto') row.push(o.major[i]!);
    else if (o.sub2) row.push(o.sub2[i]!);
    row.push(
      sr ? round(sr.score[i]!) : null,
      sr ? round(sr.delta[i]!) : null,
      sr ? sr.pruned[i] === 1 : null,
    );
    cellRows.push(row);
  });
  await sink.table('cells', {
    columns: ['barcode', 'cluster', ...labelCols, 'score', 'delta', 'pruned'],
    rows: cellRows,
  });
  await sink.table('clusters', {
    columns: ['cluster', 'cells', 'label', 'confidence', 'mean_score', 'marker_label', 'marker_score'],
    rows: clusters.map((c) => [
      c.cluster,
      c.cells,
      c.label,
      c.confidence,
      c.meanScore,
      c.markerLabel ?? null,
      c.markerScore ?? null,
    ]),
  });
  // cluster × label: counts of final labels with the mean reference score of the cells
  const clRows: TableValue[][] = [];
  const cellScoreSum = new Map<string, number>();
  cells.forEach((_, i) => {
    const key = `${cluster[i]}\u0000${final[i]}`;
    cellScoreSum.set(key, (cellScoreSum.get(key) ?? 0) + (sr ? sr.score[i]! : 0));
  });
  for (const c of clusters) {
    for (const [label, count] of [...byCluster.get(c.cluster)!.entries()].sort((a, b) => b[1] - a[1])) {
      clRows.push([
        c.cluster,
        label,
        count,
        round(count / c.cells),
        round(cellScoreSum.get(`${c.cluster}\u0000${label}`)! / count),
      ]);
    }
  }
  await sink.table('cluster_labels', {
    columns: ['cluster', 'label', 'cells', 'fraction', 'mean_score'],
    rows: clRows,
  });
  // reference markers per called label + dot plot per cluster
  if (sr) {
    const called = new Set(Array.from(sr.call, (l) => sr.labels[l]!));
    const markers: Record<string, string[]> = {};
    sr.labels.forEach((label, l) => {
      if (called.has(label))
        markers[label] = sr.labelMarkers[l]!.slice(0, 5).map((g) => result.genes.symbols[g]!);
    });
    await sink.data('markers', markers);
    const genes = [...new Set(Object.values(markers).flat())];
    const gIdx = genes.map((g) => result.geneIndex(g));
    const pos = new Map(gIdx.map((g, i) => [g, i]));
    const norm = result.normalized();
    const clusterNames = clusters.map((c) => c.cluster);
    const ci = new Map(clusterNames.map((k, i) => [k, i]));
    const sum = new Float64Array(clusterNames.length * genes.length);
    const nz = new Float64Array(clusterNames.length * genes.length);
    cells.forEach((c, i) => {
      const k = ci.get(cluster[i]!)!;
      for (let p = norm.indptr[c]!; p < norm.indptr[c + 1]!; p++) {
        const j = pos.get(norm.indices[p]!);
        if (j === undefined) continue;
        sum[k * genes.length + j]! += norm.data[p]!;
        nz[k * genes.length + j]! += norm.data[p]! > 0 ? 1 : 0;
      }
    });
    await sink.data('dotplot', {
      clusters: clusterNames,
      genes,
      labelOfGene: Object.fromEntries(Object.entries(markers).flatMap(([l, gs]) => gs.map((g) => [g, l]))),
      mean: clusters.map((c, k) => genes.map((_, j) => round(sum[k * genes.length + j]! / c.cells, 3))),
      fraction: clusters.map((c, k) => genes.map((_, j) => round(nz[k * genes.length + j]! / c.cells, 3))),
    });
  }
  const labelCounts = new Map<string, number>();
  final.forEach((l) => labelCounts.set(l, (labelCounts.get(l) ?? 0) + 1));
  ctx.onProgress({ fraction: 1, step: 'done' });
  return {
    mode: o.mode,
    species: o.species,
    tissue: o.tissue,
    reference: o.reference,
    markerSource: o.mode === 'auto' ? (o.markerCalls ? params.markerSource : 'none') : 'panel',
    clusterKey: params.clusterKey,
    nCells: n,
    nAnnotated: cells.length,
    nPruned,
    levels,
    labels: [...labelCounts.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([label, cells]) => ({ label, cells })),
    clusters,
    ...(o.lineage ? { lineage: o.lineage } : {}),
    seconds: round(o.seconds, 3),
  };
}
