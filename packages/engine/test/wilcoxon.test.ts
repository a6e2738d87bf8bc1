import { describe, expect, it } from 'vitest';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { compareGroups, filterDegTable } from '../src/markers';
import { benjaminiHochberg, erfc, twoSidedNormalP } from '../src/stats/normal';
import {
  WILCOXON_BLOCK_GENES,
  WILCOXON_BLOCK_VALUES,
  wilcoxonBlockGenes,
  wilcoxonByGroup,
} from '../src/stats/wilcoxon';

/** One gene, values per cell → a 1-gene cell-major matrix. */
function oneGene(values: number[]): CountMatrix {
  const indptr = new Float64Array(values.length + 1);
  const indices: number[] = [];
  const data: number[] = [];
  values.forEach((v, c) => {
    if (v !== 0) {
      indices.push(0);
      data.push(v);
    }
    indptr[c + 1] = indices.length;
  });
  return {
    nGenes: 1,
    nCells: values.length,
    indptr,
    indices: Uint32Array.from(indices),
    data: Float32Array.from(data),
  };
}

/** Mid-ranks of all values (ties share their average rank). */
function midRanks(v: number[]): number[] {
  const order = v.map((_, i) => i).sort((a, b) => v[a] - v[b]);
  const r = new Array<number>(v.length);
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && v[order[j + 1]] === v[order[i]]) j++;
    for (let k = i; k <= j; k++) r[order[k]] = (i + j + 2) / 2;
    i = j + 1;
  }
  return r;
}

/** Exact permutation distribution of the rank sum of a group of size m: every subset enumerated. */
function exactRankSum(
  ranks: number[],
  m: number,
): { mean: number; variance: number; pTwoSided: (obs: number) => number } {
  const sums: number[] = [];
  const rec = (start: number, left: number, acc: number) => {
    if (left === 0) return void sums.push(acc);
    for (let i = start; i <= ranks.length - left; i++) rec(i + 1, left - 1, acc + ranks[i]);
  };
  rec(0, m, 0);
  const mean = sums.reduce((a, b) => a + b, 0) / sums.length;
  const variance = sums.reduce((a, b) => a + (b - mean) ** 2, 0) / sums.length;
  return {
    mean,
    variance,
    pTwoSided: (obs) =>
      sums.filter((s) => Math.abs(s - mean) >= Math.abs(obs - mean) - 1e-9).length / sums.length,
  };
}

describe('Wilcoxon rank-sum (tie-corrected normal approximation)', () => {
  // tol: distance allowed between the normal approximation and the exact permutation p-value
  // (the exact null is discrete; with heavy ties and 14 cells it is coarse).
  const cases: { name: string; a: number[]; b: number[]; tol: number }[] = [
    { name: 'no ties', a: [1.2, 3.4, 2.2, 5.1, 4.4, 0.7], b: [0.1, 0.5, 2.0, 0.3, 1.1, 0.9, 0.2], tol: 0.02 },
    { name: 'zeros and ties', a: [0, 2, 2, 3, 0, 5, 2], b: [0, 0, 1, 2, 0, 0, 1, 0], tol: 0.03 },
    { name: 'mostly zeros', a: [0, 0, 0, 1, 1, 2], b: [0, 0, 0, 0, 0, 0, 1, 0], tol: 0.1 },
  ];
  for (const { name, a, b, tol } of cases) {
    it(`matches the exact permutation moments and p-value: ${name}`, () => {
      const values = [...a, ...b];
      const labels = Int32Array.from(values, (_, i) => (i < a.length ? 0 : 1));
      const res = wilcoxonByGroup(oneGene(values), labels, 2);
      const ranks = midRanks(values);
      const observed = ranks.slice(0, a.length).reduce((x, y) => x + y, 0);
      const exact = exactRankSum(ranks, a.length);
      // z from the exact permutation mean and variance = our tie-corrected z, to rounding.
      const zExact = (observed - exact.mean) / Math.sqrt(exact.variance);
      expect(res.z[0][0]).toBeCloseTo(zExact, 10);
      expect(res.z[1][0]).toBeCloseTo(-zExact, 10);
      expect(res.pval[0][0]).toBeCloseTo(twoSidedNormalP(zExact), 12);
      // The normal approximation is close to the exact permutation p on these small groups.
      expect(Math.abs(res.pval[0][0] - exact.pTwoSided(observed))).toBeLessThan(tol);
      // pct and means from the raw values.
      expect(res.pct1[0][0]).toBeCloseTo(a.filter((v) => v > 0).length / a.length, 12);
      expect(res.pct2[0][0]).toBeCloseTo(b.filter((v) => v > 0).length / b.length, 12);
      const meanA = a.reduce((x, y) => x + Math.fround(y), 0) / a.length;
      const meanB = b.reduce((x, y) => x + Math.fround(y), 0) / b.length;
      expect(res.meanGroup[0][0]).toBeCloseTo(meanA, 6);
      expect(res.log2fc[0][0]).toBeCloseTo(
        Math.log2((Math.expm1(meanA) + 1e-9) / (Math.expm1(meanB) + 1e-9)),
        6,
      );
    });
  }

  it('gives the same statistics gene by gene as on the whole matrix (blocks of 2,048 genes)', () => {
    const nGenes = 4500;
    const nCells = 40;
    let seed = 9;
    const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const dense = Array.from({ length: nCells }, () =>
      Array.from({ length: nGenes }, () => (rnd() < 0.3 ? Math.round(rnd() * 4) : 0)),
    );
    const indptr = new Float64Array(nCells + 1);
    const indices: number[] = [];
    const data: number[] = [];
    dense.forEach((row, c) => {
      row.forEach((v, g) => {
        if (v) {
          indices.push(g);
          data.push(v);
        }
      });
      indptr[c + 1] = indices.length;
    });
    const m = { nGenes, nCells, indptr, indices: Uint32Array.from(indices), data: Float32Array.from(data) };
    const labels = Int32Array.from({ length: nCells }, (_, c) => (c % 3 === 0 ? -1 : c % 3 === 1 ? 0 : 1));
    const all = wilcoxonByGroup(m, labels, 2);
    for (const g of [0, 1, 2047, 2048, 2049, 4095, 4096, 4499]) {
      const one = wilcoxonByGroup(oneGene(dense.map((row) => row[g])), labels, 2);
      expect(all.z[0][g]).toBeCloseTo(one.z[0][0], 12);
      expect(all.pct1[1][g]).toBeCloseTo(one.pct1[1][0], 12);
      expect(all.meanGroup[0][g]).toBeCloseTo(one.meanGroup[0][0], 12);
    }
  });

  it('keeps a transposed block within 8M values at 100k and 500k cells (issue 14) and 2,048 genes on small data', () => {
    // pbmc3k-sized data: full blocks; synth100k: 148M values over 20k genes and synth500k: 741M → smaller blocks
    expect(wilcoxonBlockGenes(2.3e6, 13_714)).toBe(WILCOXON_BLOCK_GENES);
    for (const nnz of [148e6, 741e6]) {
      const genes = wilcoxonBlockGenes(nnz, 20_000);
      expect(genes).toBeLessThan(WILCOXON_BLOCK_GENES);
      expect(genes * (nnz / 20_000)).toBeLessThanOrEqual(WILCOXON_BLOCK_VALUES);
    }
    expect(WILCOXON_BLOCK_VALUES).toBe(8 * 1024 * 1024);
    expect(wilcoxonBlockGenes(1e12, 100)).toBe(64);
  });

  it('gives z = 0 and p = 1 for a gene with no expression', () => {
    const res = wilcoxonByGroup(oneGene([0, 0, 0, 0, 0, 0]), Int32Array.from([0, 0, 0, 1, 1, 1]), 2);
    expect(res.z[0][0]).toBe(0);
    expect(res.pval[0][0]).toBe(1);
  });

  it('compareGroups tests group A against group B only and rejects tiny or overlapping groups', () => {
    const m = oneGene([5, 6, 7, 0, 0, 0, 9, 9, 9]);
    const rows = compareGroups(m, ['G'], [0, 1, 2], [3, 4, 5], { a: 'hi', b: 'lo' });
    expect(rows).toHaveLength(1);
    expect(rows[0].cluster).toBe('hi');
    expect(rows[0].zscore).toBeGreaterThan(0);
    expect(rows[0].pct2).toBe(0);
    expect(() => compareGroups(m, ['G'], [0, 1], [3, 4, 5])).toThrow(/at least 3/);
    expect(() => compareGroups(m, ['G'], [0, 1, 2], [2, 4, 5])).toThrow(/both groups/);
  });
});

describe('normal tail and BH', () => {
  it('erfc is accurate far into the tail', () => {
    // Reference values (mpmath, 15 significant digits).
    expect(erfc(0.5)).toBeCloseTo(0.479500122186953, 14);
    expect(erfc(2) / 0.00467773498104727).toBeCloseTo(1, 12);
    expect(erfc(3.5) / 7.43098372341412e-7).toBeCloseTo(1, 10);
    expect(erfc(10) / 2.08848758376254e-45).toBeCloseTo(1, 10);
    expect(twoSidedNormalP(1.959963984540054)).toBeCloseTo(0.05, 12);
  });

  it('Benjamini–Hochberg matches the step-up definition', () => {
    const p = Float64Array.from([0.01, 0.04, 0.03, 0.005, 0.5]);
    const adj = benjaminiHochberg(p);
    expect(Array.from(adj)).toEqual([0.025, 0.05, 0.05, 0.025, 0.5].map((x) => expect.closeTo(x, 12)));
  });

  it('filterDegTable applies the docs/product/validation.md#deg-display-filter display filter', () => {
    const row = {
      cluster: '1',
      gene: 'G',
      avgExpr: 1,
      log2fc: 0.25,
      pct1: 0.1,
      pct2: 0,
      zscore: 3,
      pval: 0.001,
      padj: 0.05,
    };
    expect(filterDegTable([row])).toHaveLength(1);
    expect(filterDegTable([{ ...row, log2fc: 0.24 }])).toHaveLength(0);
    expect(filterDegTable([{ ...row, padj: 0.051 }])).toHaveLength(0);
    expect(filterDegTable([{ ...row, pct1: 0.05, pct2: 0.09 }])).toHaveLength(0);
    expect(filterDegTable([{ ...row, pct1: 0.05, pct2: 0.1 }])).toHaveLength(1);
  });
});
