import { describe, expect, it } from 'vitest';
import { pearsonResidualHvg } from '../../src/methods/pearson-hvg';
import { Random } from '../../src/methods/random';
import { fromDenseColumns } from './fixtures';

describe('pearsonResidualHvg', () => {
  it('ranks planted variable genes first, whatever their mean', () => {
    const rng = new Random(8);
    const nGenes = 400;
    const nCells = 500;
    const base = Float64Array.from({ length: nGenes }, () => Math.exp(rng.normal() * 1.5) / 400);
    const planted = Array.from({ length: 20 }, (_, i) => i * 19 + 3); // spread over the mean range
    const columns: Float64Array[] = [];
    for (let c = 0; c < nCells; c++) {
      const lib = 3000 * Math.exp(0.4 * rng.normal());
      const group = c % 2;
      columns.push(
        Float64Array.from(base, (p, g) => {
          const up = planted.includes(g) && group === 1 ? 6 : 1;
          return rng.poisson(lib * p * up);
        }),
      );
    }
    const counts = fromDenseColumns(columns, nGenes);
    const res = pearsonResidualHvg(counts, 20);
    const hits = planted.filter((g) => res.selected[g]).length;
    console.log(`[pearson hvg] ${hits}/20 planted genes in the top 20`);
    expect(hits).toBeGreaterThanOrEqual(18);
    // the non-planted genes behave like Poisson noise: residual variance near 1
    const others = Array.from({ length: nGenes }, (_, g) => g).filter(
      (g) => !planted.includes(g) && res.variances[g] > 0,
    );
    const meanVar = others.reduce((a, g) => a + res.variances[g], 0) / others.length;
    expect(meanVar).toBeGreaterThan(0.8);
    expect(meanVar).toBeLessThan(1.2);
  });

  it('matches a dense computation of the clipped residual variance', () => {
    const columns = [
      Float64Array.from([0, 3, 1, 0]),
      Float64Array.from([2, 0, 0, 1]),
      Float64Array.from([5, 1, 0, 0]),
    ];
    const counts = fromDenseColumns(columns, 4);
    const res = pearsonResidualHvg(counts, 2, 100, 1.5);
    const cellSum = columns.map((c) => c.reduce((a, b) => a + b, 0));
    const geneSum = [0, 1, 2, 3].map((g) => columns.reduce((a, c) => a + c[g], 0));
    const total = cellSum.reduce((a, b) => a + b, 0);
    for (let g = 0; g < 4; g++) {
      const r = columns.map((col, c) => {
        const mu = (cellSum[c] * geneSum[g]) / total;
        return Math.min(1.5, Math.max(-1.5, (col[g] - mu) / Math.sqrt(mu + (mu * mu) / 100)));
      });
      const m = r.reduce((a, b) => a + b, 0) / 3;
      const v = r.reduce((a, b) => a + (b - m) ** 2, 0) / 3;
      expect(res.variances[g]).toBeCloseTo(v, 10);
    }
    expect(res.selected.reduce((a, b) => a + b, 0)).toBe(2);
  });
});
