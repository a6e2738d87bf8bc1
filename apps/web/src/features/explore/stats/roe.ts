import { chiSquarePValue } from './chiSquare';

/**
 * Ro/e (ratio of observed to expected cell numbers) of cell types across samples or groups, with
 * the chi-square test of independence of the contingency table. docs/product/errors.md#messages: when p > 0.05 the Ro/e is
 * reported as a failure (the distribution does not differ from chance).
 */
export interface RoeResult {
  /** roe[row][col] = observed / expected; NaN where expected is 0. */
  roe: number[][];
  observed: number[][];
  expected: number[][];
  chiSquare: number;
  df: number;
  pValue: number;
  significant: boolean;
  /** Samples or groups (columns) holding cells: Ro/e compares two or more. */
  groups: number;
}

/**
 * What the Composition tab says about the Ro/e: `single` when fewer than two samples or groups
 * hold cells (no comparison is possible: not a failure), else whether the chi-square test passed.
 */
export function roeVerdict(r: RoeResult): 'single' | 'significant' | 'chance' {
  if (r.groups < 2) return 'single';
  return r.significant ? 'significant' : 'chance';
}

export function roeTable(observed: number[][], alpha = 0.05): RoeResult {
  const cols = observed[0]?.length ?? 0;
  const rowSum = observed.map((r) => r.reduce((a, b) => a + b, 0));
  const colSum = Array.from({ length: cols }, (_, j) => observed.reduce((a, r) => a + (r[j] ?? 0), 0));
  const total = rowSum.reduce((a, b) => a + b, 0);
  const expected = observed.map((_, i) => colSum.map((cs) => (total > 0 ? (rowSum[i]! * cs) / total : 0)));
  let chi = 0;
  const roe = observed.map((r, i) =>
    r.map((o, j) => {
      const e = expected[i]![j]!;
      if (e > 0) chi += (o - e) ** 2 / e;
      return e > 0 ? o / e : Number.NaN;
    }),
  );
  const liveRows = rowSum.filter((s) => s > 0).length;
  const liveCols = colSum.filter((s) => s > 0).length;
  const df = Math.max(0, (liveRows - 1) * (liveCols - 1));
  const pValue = chiSquarePValue(chi, df);
  return {
    roe,
    observed,
    expected,
    chiSquare: chi,
    df,
    pValue,
    significant: df > 0 && pValue <= alpha,
    groups: liveCols,
  };
}
