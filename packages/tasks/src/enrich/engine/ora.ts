import { hypergeometricUpper, storeyQvalues } from '../../_shared/engine/gene-sets/hypergeometric';
import type { IndexedSets } from '../../_shared/engine/gene-sets/library';
import { benjaminiHochberg } from '@cellcloud/engine/tasks/kit';

/** One reported ORA term (clusterProfiler enrichResult columns) plus the hit gene indices. */
export interface OraTerm {
  ID: string;
  Description: string;
  GeneRatio: string;
  BgRatio: string;
  pvalue: number;
  'p.adjust': number;
  qvalue: number | null;
  geneID: string;
  Count: number;
  hits: number[];
  setSize: number;
}

/**
 * Over-representation analysis as clusterProfiler's enricher (DOSE enricher_internal) with a
 * universe: N = universe genes annotated to any set of the library, n = query genes among them,
 * M = set ∩ N (size bounds already applied by indexGeneSets), k = query ∩ set; only sets with k ≥ 1
 * are tested; p = P(X ≥ k) hypergeometric, BH and Storey q over the tested sets.
 * `genes`: query gene indices in display order (geneID keeps it); `symbols`: names for geneID.
 */
export function overRepresentation(
  genes: readonly number[],
  lib: IndexedSets,
  symbols: readonly string[],
): { tested: OraTerm[]; N: number; n: number } {
  let N = 0;
  lib.annotated.forEach((v) => (N += v));
  const query = genes.filter((g) => lib.annotated[g]);
  const inQuery = new Map<number, number>();
  query.forEach((g, i) => inQuery.set(g, i));
  const n = query.length;
  const tested: OraTerm[] = [];
  for (const s of lib.sets) {
    const hits: number[] = [];
    for (const g of s.genes) if (inQuery.has(g)) hits.push(g);
    if (!hits.length) continue;
    hits.sort((a, b) => inQuery.get(a)! - inQuery.get(b)!);
    const M = s.genes.length;
    tested.push({
      ID: s.id,
      Description: s.description,
      GeneRatio: `${hits.length}/${n}`,
      BgRatio: `${M}/${N}`,
      pvalue: hypergeometricUpper(hits.length, M, N, n),
      'p.adjust': 1,
      qvalue: null,
      geneID: hits.map((g) => symbols[g]).join('/'),
      Count: hits.length,
      hits,
      setSize: M,
    });
  }
  const p = Float64Array.from(tested, (t) => t.pvalue);
  const adj = benjaminiHochberg(p);
  const q = storeyQvalues(p);
  tested.forEach((t, i) => {
    t['p.adjust'] = adj[i]!;
    t.qvalue = q ? q[i]! : null;
  });
  return { tested, N, n };
}

/** Reported terms (docs/methods/enrich.md): p.adjust < 0.05 and Count ≥ 3, by p.adjust (then p). */
export function reportedTerms(tested: OraTerm[]): OraTerm[] {
  return tested
    .filter((t) => t['p.adjust'] < 0.05 && t.Count >= 3)
    .sort((a, b) => a['p.adjust'] - b['p.adjust'] || a.pvalue - b.pvalue);
}
