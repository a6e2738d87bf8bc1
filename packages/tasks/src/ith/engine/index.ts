import { type IthBoxData, ithParams, type IthParams, type IthSummary } from '../contract';
import { categoricalLevel, Random, TaskError } from '@cellcloud/engine/tasks/kit';
import { estimateMemoryBytes } from '../memory';
import { sparsePca } from '@cellcloud/engine/methods/sparse-pca';
import { subsetCells } from '@cellcloud/engine/sparse';
import { seuratV3Hvg } from '@cellcloud/engine/stats/seurat-v3-hvg';
import { boxAndViolin, holm, signifStars, welchTTest, wilcoxTest } from '@cellcloud/engine/stats/two-sample';
import type { EngineTask, TableValue } from '@cellcloud/engine/tasks/kit';

/**
 * ITH (docs/methods/ith.md): per identity with ≥ ncellMin cells (seeded downsampling to ncellMax):
 *  - dist: Seurat FindVariableFeatures (vst, nHvg genes, on that identity's counts) → ScaleData
 *    (centre, unit variance over the identity's cells, on the log-normalized data) → PCA with
 *    nPcs components → every pairwise Euclidean distance between cells in PC space;
 *  - iqr: Pearson correlation between every pair of cells on the log-normalized expression of the
 *    same variable genes; the IQR of the correlations is recorded.
 * The distribution of those values is the identity's ITH score. Comparisons between identities:
 * t.test (Welch, default) or wilcox.test, Holm-adjusted (ggpubr compare_means), stars.
 * Difference: ScaleData's clipping at 10 is not applied; PCA is a randomized SVD (seeded).
 */
function identityScores(
  result: Parameters<EngineTask<IthParams, IthSummary>['run']>[0]['result'],
  cells: number[],
  p: IthParams,
): Float64Array {
  const counts = subsetCells(result.counts(), cells);
  const norm = subsetCells(result.normalized(), cells);
  const n = cells.length;
  const hvg = seuratV3Hvg(counts, Math.min(p.nHvg, counts.nGenes));
  const genes: number[] = [];
  hvg.selected.forEach((s, g) => s && genes.push(g));
  const G = genes.length;
  const col = new Int32Array(norm.nGenes).fill(-1);
  genes.forEach((g, j) => (col[g] = j));
  const mean = new Float64Array(G);
  const sq = new Float64Array(G);
  for (let c = 0; c < n; c++) {
    for (let k = norm.indptr[c]; k < norm.indptr[c + 1]; k++) {
      const j = col[norm.indices[k]];
      if (j < 0) continue;
      mean[j] += norm.data[k];
      sq[j] += norm.data[k] ** 2;
    }
  }
  for (let j = 0; j < G; j++) mean[j] /= n;
  const out = new Float64Array((n * (n - 1)) / 2);
  if (p.method === 'dist') {
    const scale = new Float64Array(G);
    for (let j = 0; j < G; j++) {
      const v = (sq[j] - n * mean[j] ** 2) / Math.max(1, n - 1);
      scale[j] = v > 0 ? 1 / Math.sqrt(v) : 0;
    }
    const fit = sparsePca(norm, Int32Array.from(genes), Math.min(p.nPcs, n - 1, G), {
      center: mean,
      scale,
      seed: p.seed,
    });
    const d = fit.nPcs;
    let o = 0;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        let s = 0;
        for (let t = 0; t < d; t++) s += (fit.pcs[i * d + t] - fit.pcs[j * d + t]) ** 2;
        out[o++] = Math.sqrt(s);
      }
    }
    return out;
  }
  // iqr: Pearson correlation between cells over the variable genes
  const x = new Float64Array(n * G);
  for (let c = 0; c < n; c++) {
    for (let k = norm.indptr[c]; k < norm.indptr[c + 1]; k++) {
      const j = col[norm.indices[k]];
      if (j >= 0) x[c * G + j] = norm.data[k];
    }
    let s = 0;
    for (let j = 0; j < G; j++) s += x[c * G + j];
    const m = s / G;
    let ss = 0;
    for (let j = 0; j < G; j++) {
      x[c * G + j] -= m;
      ss += x[c * G + j] ** 2;
    }
    const inv = ss > 0 ? 1 / Math.sqrt(ss) : 0;
    for (let j = 0; j < G; j++) x[c * G + j] *= inv;
  }
  let o = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      let s = 0;
      for (let t = 0; t < G; t++) s += x[i * G + t] * x[j * G + t];
      out[o++] = s;
    }
  }
  return out;
}

export const engine: EngineTask<IthParams, IthSummary> = {
  name: 'ith',
  estimateMemoryBytes,
  async run(ctx) {
    const p = ithParams.parse(ctx.params);
    const { result } = ctx;
    const labels = categoricalLevel(result, p.groupBy);
    const byType = new Map<string, number[]>();
    labels.forEach((l, c) => {
      let a = byType.get(l);
      if (!a) byType.set(l, (a = []));
      a.push(c);
    });
    for (const g of p.groups ?? []) {
      if (!byType.has(g))
        throw new TaskError('common.groupValueMissing', `"${p.groupBy}" has no group "${g}".`, {
          key: p.groupBy,
          value: g,
        });
    }
    const wanted = (p.groups?.length ? p.groups : [...byType.keys()]).filter((t) => t !== 'NA');
    wanted.sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
    const used = wanted.filter((t) => byType.get(t)!.length >= p.ncellMin);
    const skipped = wanted
      .filter((t) => byType.get(t)!.length < p.ncellMin)
      .map((t) => ({ type: t, cells: byType.get(t)!.length }));
    if (used.length === 0)
      throw new TaskError('ith.noIdentity', `No identity has at least ${p.ncellMin} cells.`, {
        key: p.groupBy,
        min: p.ncellMin,
      });
    const rng = new Random(p.seed);
    const scores = new Map<string, Float64Array>();
    const identities: IthSummary['identities'] = [];
    for (let i = 0; i < used.length; i++) {
      if (ctx.signal?.aborted) throw new TaskError('common.cancelled', 'The analysis was cancelled.');
      const t = used[i];
      let cells = byType.get(t)!;
      if (cells.length > p.ncellMax) {
        const c = cells.slice();
        for (let k = 0; k < p.ncellMax; k++) {
          const j = k + rng.int(c.length - k);
          [c[k], c[j]] = [c[j], c[k]];
        }
        cells = c.slice(0, p.ncellMax).sort((a, b) => a - b);
      }
      const s = identityScores(result, cells, p);
      scores.set(t, s);
      const b = boxAndViolin(s);
      identities.push({
        type: t,
        cells: byType.get(t)!.length,
        used: cells.length,
        mean: b.mean,
        median: b.median,
        iqr: b.q3 - b.q1,
      });
      ctx.onProgress({ fraction: (0.85 * (i + 1)) / used.length, step: t });
    }
    const allRows: TableValue[][] = [];
    for (const t of used) for (const v of scores.get(t)!) allRows.push([v, t]);
    await ctx.sink.table('ITH_score_all', { columns: ['ITH_score', 'type'], rows: allRows });
    const box: IthBoxData['groups'] = used.map((t) => ({ type: t, ...boxAndViolin(scores.get(t)!) }));
    await ctx.sink.table('ITH_score_stat', {
      columns: ['type', 'cells', 'pairs', 'mean', 'median', 'q1', 'q3', 'iqr'],
      rows: box.map((b, i) => [b.type, identities[i].used, b.n, b.mean, b.median, b.q1, b.q3, b.q3 - b.q1]),
    });
    const want = new Set(p.comparisons.map((c) => `${c.a}\u0000${c.b}`));
    const pairs: { a: string; b: string; requested: boolean }[] = [];
    for (let x = 0; x < used.length; x++) {
      for (let y = x + 1; y < used.length; y++) {
        const req = want.has(`${used[x]}\u0000${used[y]}`) || want.has(`${used[y]}\u0000${used[x]}`);
        pairs.push({ a: used[x], b: used[y], requested: req });
      }
    }
    const test = p.cmethod === 'ttest' ? welchTTest : wilcoxTest;
    const methodName = p.cmethod === 'ttest' ? 't.test' : 'wilcox.test';
    const ps = pairs.map((pr) => test(scores.get(pr.a)!, scores.get(pr.b)!).p);
    const adj = holm(ps);
    const outPairs = pairs.map((pr, i) => ({ ...pr, p: ps[i], pAdj: adj[i], signif: signifStars(adj[i]) }));
    await ctx.sink.table('ITH_score_sig', {
      columns: ['group1', 'group2', 'method', 'p', 'p_adj', 'p_signif', 'requested'],
      rows: outPairs.map((r) => [r.a, r.b, methodName, r.p, r.pAdj, r.signif, r.requested]),
    });
    const data: IthBoxData = { method: p.method, cmethod: p.cmethod, groups: box, pairs: outPairs };
    await ctx.sink.data('box', data);
    ctx.onProgress({ fraction: 1, step: 'done' });
    return { method: p.method, groupBy: p.groupBy, identities, skipped };
  },
};
