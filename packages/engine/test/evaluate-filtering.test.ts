import { describe, expect, it } from 'vitest';
import type { Dataset } from '@cellcloud/formats/matrix';
import { evaluateCellFiltering } from '../src/evaluate-filtering';
import { estimateMemoryBytes } from '../src/memory';

/** A sample whose cell i has `genes[i]` genes with one UMI each; the first `mito[i]` of them are MT- genes. */
function sample(genes: number[], mito: number[]): Dataset {
  const nGenes = 3000;
  const symbols = Array.from({ length: nGenes }, (_, g) => (g < 20 ? `MT-G${g}` : `GENE${g}`));
  const indptr = new Float64Array(genes.length + 1);
  const indices: number[] = [];
  genes.forEach((n, c) => {
    for (let i = 0; i < mito[c]; i++) indices.push(i);
    for (let i = 0; i < n - mito[c]; i++) indices.push(20 + i);
    indptr[c + 1] = indices.length;
  });
  return {
    counts: {
      nGenes,
      nCells: genes.length,
      indptr,
      indices: Uint32Array.from(indices),
      data: new Float32Array(indices.length).fill(1),
    },
    genes: { ids: symbols, symbols },
    cells: { barcodes: genes.map((_, i) => `c${i}`), columns: {} },
    embeddings: {},
    format: '10x-mtx',
    warnings: [],
  };
}

describe('evaluateCellFiltering', () => {
  it('reports recommended thresholds, before/after counts and distributions per sample', () => {
    // 100 cells: genes 150..1140 step 10 (5 cells below 200); mito: 4 cells at 10% (> 5 and ≤ 10).
    const genes = Array.from({ length: 100 }, (_, i) => 150 + 10 * i);
    const mito = genes.map((n, i) => (i >= 10 && i < 14 ? Math.round(n * 0.1) : 0));
    // the recommended (docs/methods/pipeline.md#qc-filters) gene and UMI caps; the defaults are fixed ranges (issue 14)
    const recommended = {
      expressedGeneRange: { state: 'recommended' },
      expressedUmiRange: { state: 'recommended' },
    } as const;
    const ev = evaluateCellFiltering([{ name: 's1', dataset: sample(genes, mito) }], recommended);
    const s = ev.samples[0];
    expect(s.cellsBefore).toBe(100);
    expect(s.thresholds.minGenes).toBe(200);
    // After min filters: 95 cells with genes 200..1140; P98 = 200 + 0.98·94·10 = 1121.2 → 1122.
    expect(s.thresholds.maxGenes).toBe(1122);
    // 4 of 95 cells (4.2%) above 5% is closest to 5% → cutoff 5; those 4 cells have exactly ~10%.
    expect(ev.mitochondrialThreshold).toBe(5);
    expect(s.failed.genes).toBe(5 + 2); // 150..190 and 1130, 1140
    expect(s.failed.mito).toBe(4);
    expect(s.cellsAfter).toBe(100 - 7 - 4);
    expect(ev.cellsAfter).toBe(s.cellsAfter);
    expect(s.before.nGenes.min).toBe(150);
    expect(s.after.nGenes.min).toBe(200);
    expect(s.after.pctMito.max).toBe(0);
  });

  it('rejects a sample with too few cells before doing any work', () => {
    expect(() => evaluateCellFiltering([{ name: 'tiny', dataset: sample([300, 300], [0, 0]) }], {})).toThrow(
      /more than 30/,
    );
  });
});

describe('estimateMemoryBytes', () => {
  it('grows with the data and with memory-hungry options', () => {
    const small = estimateMemoryBytes({ cells: 3000, genes: 20000, nnz: 3e6 });
    const big = estimateMemoryBytes({ cells: 100_000, genes: 20000, nnz: 1.5e8 });
    expect(big).toBeGreaterThan(small * 5);
    expect(
      estimateMemoryBytes({
        cells: 100_000,
        genes: 20000,
        nnz: 1.5e8,
        params: { removeCellCycleEffects: true },
      }),
    ).toBeGreaterThan(big);
    expect(() =>
      estimateMemoryBytes({ cells: 1, genes: 1, nnz: 1, params: { bogus: true } as never }),
    ).toThrow(/Invalid analysis parameters/);
  });

  it('covers the peaks measured with bench:engine and admits synth500k within 12 GiB (issue 14)', () => {
    const MiB = 2 ** 20;
    // writing after the pipeline, as bench:engine BENCH_WRITE=after (alongside holds the normalized values)
    const est = (cells: number, nnz: number, largestSampleNnz: number, writesAlongside = false) =>
      estimateMemoryBytes({
        cells,
        genes: 20000,
        nnz,
        largestSampleNnz,
        releaseSamples: true,
        writesAlongside,
      });
    // docs/benchmarks/engine.md "200k and 500k": measured peaks, current code
    expect(est(20_000, 29.63e6, 29.63e6)).toBeGreaterThan(1034 * MiB * 1.05);
    expect(est(100_000, 148e6, 74e6)).toBeGreaterThan(2422 * MiB * 1.2);
    expect(est(100_000, 148e6, 74e6, true)).toBeGreaterThan(3144 * MiB * 1.05);
    const at500k = est(500_000, 741.84e6, 74.2e6);
    expect(at500k).toBeGreaterThan(6517 * MiB * 1.5);
    expect(at500k).toBeLessThanOrEqual(12 * 1024 * MiB);
    expect(est(500_000, 741.84e6, 74.2e6, true)).toBeGreaterThan(at500k);
  });
});
