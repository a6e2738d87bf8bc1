import type { OraPlotData } from '../contract';
import type { OraTerm } from './ora';

export function oraPlotData(
  group: 'group1' | 'group2',
  library: string,
  reported: OraTerm[],
  showTerms: number,
  symbols: readonly string[],
  log2fcOf: (g: number) => number,
): OraPlotData {
  const shown = reported.slice(0, showTerms);
  const ratio = (s: string) => {
    const [a, b] = s.split('/').map(Number);
    return b ? a! / b : 0;
  };
  const heatGenes: number[] = [];
  const heatIdx = new Map<number, number>();
  const cells: [number, number, number][] = [];
  shown.forEach((t, j) => {
    for (const g of t.hits) {
      if (!heatIdx.has(g)) {
        heatIdx.set(g, heatGenes.length);
        heatGenes.push(g);
      }
      cells.push([heatIdx.get(g)!, j, log2fcOf(g)]);
    }
  });
  const emapTerms = reported.slice(0, 30);
  const sets = emapTerms.map((t) => new Set(t.hits));
  const edges: [number, number, number][] = [];
  for (let i = 0; i < sets.length; i++) {
    for (let j = i + 1; j < sets.length; j++) {
      let inter = 0;
      for (const g of sets[i]!) if (sets[j]!.has(g)) inter++;
      const jac = inter / (sets[i]!.size + sets[j]!.size - inter);
      if (jac >= 0.2) edges.push([i, j, Math.round(jac * 1e4) / 1e4]);
    }
  }
  const cnetTerms = reported.slice(0, 5);
  const cnetGenes: number[] = [];
  const cnetIdx = new Map<number, number>();
  const cnetEdges: [number, number][] = [];
  cnetTerms.forEach((t, j) => {
    for (const g of t.hits) {
      if (!cnetIdx.has(g)) {
        cnetIdx.set(g, cnetGenes.length);
        cnetGenes.push(g);
      }
      cnetEdges.push([j, cnetIdx.get(g)!]);
    }
  });
  return {
    group,
    library,
    terms: shown.map((t) => ({
      ID: t.ID,
      Description: t.Description,
      Count: t.Count,
      GeneRatio: ratio(t.GeneRatio),
      pAdjust: t['p.adjust'],
      logp: -Math.log10(t['p.adjust']),
    })),
    heat: { genes: heatGenes.map((g) => symbols[g]!), terms: shown.map((t) => t.Description), cells },
    emap: {
      nodes: emapTerms.map((t) => ({
        ID: t.ID,
        Description: t.Description,
        Count: t.Count,
        pAdjust: t['p.adjust'],
      })),
      edges,
    },
    cnet: {
      terms: cnetTerms.map((t) => ({ ID: t.ID, Description: t.Description, Count: t.Count })),
      genes: cnetGenes.map((g) => ({ gene: symbols[g]!, log2fc: log2fcOf(g) })),
      edges: cnetEdges,
    },
  };
}
