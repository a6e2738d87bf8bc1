import { describe, expect, it } from 'vitest';
import { Random } from '../../src/methods/random';
import { loessQuadratic, seuratV3Hvg } from '../../src/stats/seurat-v3-hvg';
import { fromDenseColumns } from './fixtures';

describe('seuratV3Hvg (scanpy flavor seurat_v3 / Seurat vst)', () => {
  it('loess of degree 2 reproduces a quadratic exactly and follows a smooth trend', () => {
    const x = Float64Array.from({ length: 400 }, (_, i) => -2 + (4 * i) / 399);
    const quad = loessQuadratic(
      x,
      x.map((v) => 1 + 2 * v - 0.5 * v * v),
      0.3,
    );
    x.forEach((v, i) => expect(quad[i]).toBeCloseTo(1 + 2 * v - 0.5 * v * v, 9));
    const rng = new Random(1);
    const noisy = loessQuadratic(
      x,
      x.map((v) => Math.sin(v) + 0.05 * rng.normal()),
      0.3,
    );
    let err = 0;
    x.forEach((v, i) => (err = Math.max(err, Math.abs(noisy[i] - Math.sin(v)))));
    expect(err).toBeLessThan(0.05);
  });

  it('selects the genes whose counts vary beyond the mean–variance trend', () => {
    const rng = new Random(7);
    const nCells = 400;
    const nGenes = 300;
    // Genes 0..289: Poisson around means spread over three decades. Genes 290..299: the same
    // mean range, but expressed only in a quarter of the cells (a marker-like, over-dispersed pattern).
    const means = Float64Array.from({ length: nGenes }, (_, g) => Math.pow(10, -1.5 + (3 * (g % 290)) / 290));
    const columns = Array.from({ length: nCells }, (_, c) => {
      const col = new Float64Array(nGenes);
      for (let g = 0; g < nGenes; g++)
        col[g] = g >= 290 ? (c % 4 === 0 ? rng.poisson(4 * means[g] + 2) : 0) : rng.poisson(means[g]);
      return col;
    });
    const res = seuratV3Hvg(fromDenseColumns(columns, nGenes), 10);
    const chosen = Array.from(res.selected).flatMap((s, g) => (s ? [g] : []));
    expect(chosen).toEqual(Array.from({ length: 10 }, (_, i) => 290 + i));
    // Poisson genes sit near standardized variance 1.
    const poisson = Array.from(res.variancesNorm.subarray(0, 290)).sort((a, b) => a - b);
    expect(poisson[145]).toBeGreaterThan(0.7);
    expect(poisson[145]).toBeLessThan(1.3);
    expect(res.means[0]).toBeCloseTo(columns.reduce((a, col) => a + col[0], 0) / nCells, 9);
  });

  it('never selects constant genes and selects at most nTop', () => {
    const columns = Array.from({ length: 50 }, (_, c) =>
      Float64Array.from([1, 0, c % 3, c % 5, (c * 7) % 11]),
    );
    const res = seuratV3Hvg(fromDenseColumns(columns, 5), 10);
    expect(res.selected[0]).toBe(0);
    expect(res.selected[1]).toBe(0);
    expect(Array.from(res.selected.subarray(2))).toEqual([1, 1, 1]);
  });
});
