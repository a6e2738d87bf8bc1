import type { CnvParams, CnvScoreViolins } from '../contract';
import { boxAndViolin, holm, kruskalTest, signifStars, wilcoxTest } from '@cellcloud/engine/stats/two-sample';
import type { TableValue, TaskTable } from '@cellcloud/engine/tasks/kit';
import type { CnvAccumulation } from './accumulate';
import type { CnvCells } from './cells';

export interface CnvIdentity {
  name: string;
  /** Group label of a cell position. */
  labelOf: (i: number) => string;
}

/**
 * The identities the scores are compared across: cell type, then (observed cells by) sample,
 * group and cluster when present, then subclone. Reference cells keep their type as label.
 */
export function cnvIdentities(
  c: CnvCells,
  subcloneOfPos: readonly string[],
  groupOf: readonly string[] | null,
  clusterOf: readonly string[] | null,
): CnvIdentity[] {
  const { cells, types, sampleOf, nRef } = c;
  const isRef = (i: number) => i < nRef;
  return [
    { name: 'type', labelOf: (i) => types[cells[i]] },
    ...(c.hasSample
      ? [{ name: 'sample', labelOf: (i: number) => (isRef(i) ? types[cells[i]] : sampleOf[cells[i]]) }]
      : []),
    ...(groupOf
      ? [{ name: 'group', labelOf: (i: number) => (isRef(i) ? types[cells[i]] : groupOf[cells[i]]) }]
      : []),
    ...(clusterOf
      ? [{ name: 'cluster', labelOf: (i: number) => (isRef(i) ? types[cells[i]] : clusterOf[cells[i]]) }]
      : []),
    { name: 'subclone', labelOf: (i) => subcloneOfPos[i] },
  ];
}

/**
 * Score violins per score × identity (references first, then labels numeric-aware), with the
 * Kruskal–Wallis test over all groups and Holm-adjusted pairwise Wilcoxon tests (every pair up to
 * 12 groups, else only the requested `comparisons`), and the same tests as the score_tests table.
 */
export function cnvScoreTests(
  nA: number,
  nRef: number,
  identities: CnvIdentity[],
  acc: CnvAccumulation,
  comparisons: CnvParams['comparisons'],
): { violins: CnvScoreViolins[]; table: TaskTable } {
  const isRef = (i: number) => i < nRef;
  const testRows: TableValue[][] = [];
  const violins: CnvScoreViolins[] = (
    [
      ['CNVscore', acc.score],
      ['CNVscore_SS', acc.scoreSS],
      ['CNVscore_SD', acc.scoreSD],
    ] as const
  ).map(([name, vals]) => ({
    score: name,
    identities: identities.map((id) => {
      const groups = new Map<string, { ref: boolean; v: number[] }>();
      for (let i = 0; i < nA; i++) {
        const l = id.labelOf(i);
        let g = groups.get(l);
        if (!g) groups.set(l, (g = { ref: isRef(i), v: [] }));
        g.v.push(vals[i]);
      }
      const labels = [...groups.keys()].sort((a, b) => {
        const ra = groups.get(a)!.ref ? 0 : 1;
        const rb = groups.get(b)!.ref ? 0 : 1;
        return ra - rb || a.localeCompare(b, undefined, { numeric: true });
      });
      const overall = labels.length > 1 ? kruskalTest(labels.map((l) => groups.get(l)!.v)) : null;
      const want = new Set(comparisons.map((c) => `${c.a}\u0000${c.b}`));
      const pairs: { a: string; b: string; requested: boolean }[] = [];
      for (let x = 0; x < labels.length; x++) {
        for (let y = x + 1; y < labels.length; y++) {
          const req =
            want.has(`${labels[x]}\u0000${labels[y]}`) || want.has(`${labels[y]}\u0000${labels[x]}`);
          if (labels.length <= 12 || req) pairs.push({ a: labels[x], b: labels[y], requested: req });
        }
      }
      const ps = pairs.map((pr) => wilcoxTest(groups.get(pr.a)!.v, groups.get(pr.b)!.v).p);
      const adj = holm(ps);
      const outPairs = pairs.map((pr, i) => ({
        ...pr,
        p: ps[i],
        pAdj: adj[i],
        signif: signifStars(adj[i]),
      }));
      for (const pr of outPairs)
        testRows.push([name, id.name, pr.a, pr.b, 'wilcox.test', pr.p, pr.pAdj, pr.signif, pr.requested]);
      return {
        identity: id.name,
        groups: labels.map((l) => ({
          label: l,
          reference: groups.get(l)!.ref,
          ...boxAndViolin(groups.get(l)!.v),
        })),
        overall: overall ? { method: 'kruskal.test', p: overall.p } : null,
        pairs: outPairs,
      };
    }),
  }));
  return {
    violins,
    table: {
      columns: ['score', 'identity', 'group1', 'group2', 'method', 'p', 'p_adj', 'signif', 'requested'],
      rows: testRows,
    },
  };
}
