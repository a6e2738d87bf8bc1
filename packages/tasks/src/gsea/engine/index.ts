import { GSEA_COLUMNS } from '@cellcloud/contracts/tasks/enrichment-common';
import { comparisonRows } from '../../_shared/engine/comparison/source';
import { indexGeneSets, loadGeneSets } from '../../_shared/engine/gene-sets/library';
import { speciesMap } from '../../_shared/engine/gene-sets/species';
import { TaskError } from '@cellcloud/engine/tasks/kit';
import type { EngineTask, TableValue } from '@cellcloud/engine/tasks/kit';
import type { GseaParams, GseaSummary } from '../contract';
import { estimateMemoryBytes } from '../memory';
import { fgseaSimple, runningScore } from './fgsea';

/** Ranked list of docs/methods/gsea.md from a step-1 comparison. */
export function rankedList(
  rows1: { g: number; mean: number; pct1: number; pct2: number }[],
  rows2: { g: number; mean: number }[],
  minPct: number,
  human: readonly string[],
): { genes: Int32Array; metric: Float64Array } {
  const mean2 = new Map(rows2.map((r) => [r.g, r.mean]));
  const seen = new Set<string>();
  const kept: { g: number; v: number }[] = [];
  for (const r of rows1) {
    if (r.g < 0 || !(r.pct1 >= minPct || r.pct2 >= minPct)) continue;
    const v = r.mean - (mean2.get(r.g) ?? 0); // Seurat avg_log2FC: log2(mean expm1 + 1) difference
    if (v === 0 || !Number.isFinite(v)) continue;
    kept.push({ g: r.g, v });
  }
  kept.sort((a, b) => b.v - a.v || a.g - b.g);
  const out = kept.filter((k) => {
    const h = human[k.g];
    if (!h || seen.has(h)) return false; // one entry per (human) gene name, as GSEA needs unique names
    seen.add(h);
    return true;
  });
  return { genes: Int32Array.from(out, (k) => k.g), metric: Float64Array.from(out, (k) => k.v) };
}

/** GSEA (docs/methods/gsea.md); `../contract.ts` lists the outputs. */
export const engine: EngineTask<GseaParams, GseaSummary> = {
  name: 'gsea',
  async run(ctx) {
    const { result, params, onProgress, sink, resources, uploads } = ctx;
    onProgress({ fraction: 0, step: 'species' });
    const map = await speciesMap(result, resources);
    const cmp = await comparisonRows(ctx, (f) => onProgress({ fraction: 0.4 * f, step: 'wilcoxon' }));
    const ranked = rankedList(cmp.rows[0], cmp.rows[1], params.minPct, map.human);
    const n = ranked.genes.length;
    if (n < 20)
      throw new TaskError('enrichment.tooFewRanked', `Only ${n} genes ranked.`, {
        genes: n,
        pct: params.minPct * 100,
      });
    const posOf = new Map<number, number>();
    ranked.genes.forEach((g, i) => posOf.set(g, i));
    const lib = indexGeneSets(await loadGeneSets(params.library, resources, uploads), map.human, {
      universe: ranked.genes,
      min: params.minSetSize,
      max: params.maxSetSize,
      source: params.library,
    });
    const positions = lib.sets.map((s) => Int32Array.from(s.genes, (g) => posOf.get(g)!).sort());
    onProgress({ fraction: 0.45, step: 'permutations' });
    const res = fgseaSimple(ranked.metric, positions, params.nperm, params.seed, (f) =>
      onProgress({ fraction: 0.45 + 0.5 * f, step: 'permutations' }),
    );
    const symbols = result.genes.symbols;
    // by p.adjust, then |NES| (the permutation p has a floor of 1/(nperm + 1), so strong sets tie on p)
    const order = res
      .map((_, i) => i)
      .sort((a, b) => res[a]!.padj - res[b]!.padj || Math.abs(res[b]!.nes) - Math.abs(res[a]!.nes) || a - b);
    const rows = order.map((i) => {
      const s = lib.sets[i]!;
      const r = res[i]!;
      const size = s.genes.length;
      const rank = r.peak + 1;
      const tags = r.leadingEdge.length / size;
      const list = (r.es >= 0 ? rank : n - rank + 1) / n;
      const signal = tags * (1 - list) * (n / (n - size));
      const row: Record<(typeof GSEA_COLUMNS)[number], TableValue> = {
        ID: s.id,
        Description: s.description,
        setSize: size,
        enrichmentScore: r.es,
        NES: r.nes,
        pvalue: r.pval,
        'p.adjust': r.padj,
        qvalue: r.qval,
        rank,
        leading_edge: `tags=${Math.round(tags * 100)}%, list=${Math.round(list * 100)}%, signal=${Math.round(signal * 100)}%`,
        core_enrichment: r.leadingEdge.map((p) => symbols[ranked.genes[p]!]).join('/'),
      };
      return GSEA_COLUMNS.map((c) => row[c]);
    });
    await sink.table('gsea', { columns: [...GSEA_COLUMNS], rows });
    const selected = params.selectedTerms.length
      ? order.filter((i) => params.selectedTerms.includes(lib.sets[i]!.id))
      : order.slice(0, params.topTerms);
    const step = Math.max(1, Math.floor(n / 1000));
    const metric: [number, number][] = [];
    for (let i = 0; i < n; i += step) metric.push([i, Math.round(ranked.metric[i]! * 1e5) / 1e5]);
    await sink.data('running', {
      nGenes: n,
      metric,
      terms: selected.map((i) => ({
        ID: lib.sets[i]!.id,
        Description: lib.sets[i]!.description,
        ES: res[i]!.es,
        NES: res[i]!.nes,
        pvalue: res[i]!.pval,
        pAdjust: res[i]!.padj,
        hits: Array.from(positions[i]!),
        points: runningScore(positions[i]!, Float64Array.from(ranked.metric, Math.abs), n),
      })),
    });
    onProgress({ fraction: 1, step: 'done' });
    return {
      group1: { label: cmp.labels[0], cells: cmp.cells[0] },
      group2: { label: cmp.labels[1], cells: cmp.cells[1] },
      rankedGenes: n,
      setsTested: lib.sets.length,
      significant: res.filter((r) => r.padj < 0.05).length,
      nperm: params.nperm,
      seed: params.seed,
      mapping: map.mapping,
    };
  },
  estimateMemoryBytes,
};
