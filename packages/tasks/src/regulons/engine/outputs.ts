import type { RegulonCellHeatmap, RegulonFeatures, RegulonsParams, RegulonsSummary } from '../contract';
import type { TaskRunContext } from '@cellcloud/engine/tasks/kit';
import {
  activityByType,
  csiMatrix,
  csiModules,
  regulonCorrelation,
  regulonSpecificity,
  zscoreClipped,
} from './stats';

/** Cells drawn in the feature plots (evenly spaced over the cell order when there are more). */
export const FEATURE_PLOT_CELLS = 10_000;
/** Regulons in the feature plots: the best two by RSS of each cell type, at most this many. */
export const FEATURE_PLOT_REGULONS = 12;

const round = (v: number) => Math.round(v * 1000) / 1000;

/**
 * SCENIC step 2 (docs/methods/regulons.md) from the AUC matrix (cells × regulons): RSS, activity by cell
 * type, PCC / CSI and modules, top regulons per type, mean TF expression per type, the per-cell
 * heat map of the sampled cells and the feature-plot data. Returns the top 5 by RSS per type.
 */
export async function writeStep2(
  ctx: TaskRunContext<RegulonsParams>,
  input: {
    regulons: { name: string; tf: string; tfGene: number; genes: number[] }[];
    auc: Float64Array;
    labels: readonly string[];
    typeNames: string[];
    sampled: number[];
  },
): Promise<RegulonsSummary['topByType']> {
  const { result, params, sink } = ctx;
  const { regulons, auc, labels, typeNames, sampled } = input;
  const nC = result.nCells;
  const nR = regulons.length;
  const names = regulons.map((r) => r.name);
  const rss = regulonSpecificity(auc, nC, nR, labels, typeNames);
  const { means, scaled } = activityByType(auc, nC, nR, labels, typeNames);
  const pcc = regulonCorrelation(auc, nC, nR);
  const csi = csiMatrix(pcc, nR);
  const clusters = csiModules(csi, nR, params.csiModules);
  const byTypeTable = (m: Float64Array, columns = names) => ({
    columns: ['cell_type', ...columns],
    rows: typeNames.map((t, ti) => [t, ...Array.from(m.subarray(ti * nR, (ti + 1) * nR))]),
  });
  await sink.table('regulons', {
    columns: ['regulon', 'TF', 'genes', 'targets'],
    rows: regulons.map((r) => [
      r.name,
      r.tf,
      r.genes.length,
      r.genes.map((g) => result.genes.symbols[g]).join(';'),
    ]),
  });
  await sink.table('rss', byTypeTable(rss));
  await sink.table('regulon_activity_by_cell_type', byTypeTable(means));
  await sink.table('regulon_activity_scaled', byTypeTable(scaled));
  const square = (m: Float64Array) => ({
    columns: ['regulon', ...names],
    rows: names.map((n, a) => [n, ...Array.from(m.subarray(a * nR, (a + 1) * nR))]),
  });
  await sink.table('pcc_matrix', square(pcc));
  await sink.table('csi_matrix', square(csi));
  await sink.table('csi_modules', {
    columns: ['Cluster', 'Regulon'],
    rows: names.map((n, k) => [clusters[k]!, n]),
  });
  const topByType = typeNames.map((t, ti) => ({
    cellType: t,
    regulons: names
      .map((name, k) => ({ name, rss: rss[ti * nR + k]! }))
      .sort((a, b) => b.rss - a.rss)
      .slice(0, 5),
  }));
  await sink.table('top_regulons', {
    columns: ['cell_type', 'rank', 'regulon', 'RSS'],
    rows: topByType.flatMap((t) => t.regulons.map((r, i) => [t.cellType, i + 1, r.name, r.rss])),
  });

  // TF expression per cell (log-normalized) and its mean per cell type
  const norm = result.normalized();
  const column = new Map(regulons.map((r, k) => [r.tfGene, k]));
  const tfExpr = new Float32Array(nC * nR);
  for (let c = 0; c < nC; c++) {
    for (let k = norm.indptr[c]!; k < norm.indptr[c + 1]!; k++) {
      const r = column.get(norm.indices[k]!);
      if (r !== undefined) tfExpr[c * nR + r] = norm.data[k]!;
    }
  }
  const typeIndex = new Map(typeNames.map((t, i) => [t, i]));
  const tfMeans = new Float64Array(typeNames.length * nR);
  const counts = new Float64Array(typeNames.length);
  for (let c = 0; c < nC; c++) {
    const ti = typeIndex.get(labels[c]!)!;
    counts[ti]!++;
    for (let r = 0; r < nR; r++) tfMeans[ti * nR + r]! += tfExpr[c * nR + r]!;
  }
  for (let ti = 0; ti < typeNames.length; ti++)
    for (let r = 0; r < nR; r++) tfMeans[ti * nR + r]! /= Math.max(1, counts[ti]!);
  await sink.table(
    'tf_expression_by_cell_type',
    byTypeTable(
      tfMeans,
      regulons.map((r) => r.tf),
    ),
  );

  // per-cell heat map of the sampled cells (z-scored AUC, clipped)
  const nS = sampled.length;
  const sampledAuc = new Float64Array(nS * nR);
  sampled.forEach((c, j) => sampledAuc.set(auc.subarray(c * nR, (c + 1) * nR), j * nR));
  const heatmap: RegulonCellHeatmap = {
    regulons: names,
    cells: sampled.map((c) => result.barcodes[c]),
    cellTypes: sampled.map((c) => labels[c]),
    z: Array.from(zscoreClipped(sampledAuc, nS, nR), round),
  };
  await sink.data('heatmap.json', heatmap);

  // feature plots: the best two regulons by RSS of each type, TF expression and AUC per cell
  const picked: number[] = [];
  for (const rank of [0, 1])
    for (const t of topByType) {
      const name = t.regulons[rank]?.name;
      const k = name === undefined ? -1 : names.indexOf(name);
      if (k >= 0 && !picked.includes(k) && picked.length < FEATURE_PLOT_REGULONS) picked.push(k);
    }
  const embNames = result.embeddingNames();
  const embName =
    embNames.find((n) => /umap/i.test(n)) ?? embNames.find((n) => /tsne/i.test(n)) ?? embNames[0] ?? null;
  const emb = embName ? result.embedding(embName) : undefined;
  const nDraw = Math.min(nC, FEATURE_PLOT_CELLS);
  const drawn = Array.from({ length: nDraw }, (_, i) => Math.floor((i * nC) / nDraw));
  const features: RegulonFeatures = {
    embedding: emb ? embName : null,
    cellTypes: typeNames,
    x: emb ? drawn.map((c) => round(emb.values[c * emb.dims]!)) : [],
    y: emb ? drawn.map((c) => round(emb.values[c * emb.dims + 1]!)) : [],
    type: drawn.map((c) => typeIndex.get(labels[c]!)!),
    regulons: picked.map((k) => ({
      name: names[k]!,
      tf: regulons[k]!.tf,
      expression: drawn.map((c) => round(tfExpr[c * nR + k]!)),
      auc: drawn.map((c) => Math.round(auc[c * nR + k]! * 1e5) / 1e5),
    })),
  };
  await sink.data('features.json', features);
  return topByType;
}
