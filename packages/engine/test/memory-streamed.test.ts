import { describe, expect, it } from 'vitest';
import {
  estimateMemoryBytes,
  estimateStreamedMemoryBytes,
  notStreamable,
  STREAMED_MIN_CELLS,
} from '../src/memory';
import { STREAMED_ALL_LAYOUTS_MAX_CELLS } from '../src/stream/run-streamed';

// the synthetic atlases of bench:engine (scripts/synth/atlas.ts): samples of 50k cells, ≈ 1,480
// non-zeros per cell, 20,000 genes; the engine on two threads (engineThreads()'s default)
const atlas = (cells: number) => ({
  cells,
  genes: 20_000,
  nnz: cells * 1480,
  largestSampleNnz: Math.min(cells, 50_000) * 1480,
  threads: 2,
});
const MiB = 2 ** 20;

describe('estimateStreamedMemoryBytes (issue 33)', () => {
  it('grows with the cells, not with every non-zero', () => {
    // twice the atlas's non-zeros per cell, so that the PCA phase is surely the peak
    // (docs/engine-scaling.md, memory estimate)
    const base = estimateStreamedMemoryBytes({ ...atlas(1_000_000), nnz: 1_000_000 * 2960 });
    // ten times the non-zeros per cell moves the estimate by the HVG submatrix only: 4 B per HVG
    // value (2-byte counts and gene indices), the HVGs' share of the values 3 × 2,000 / 20,000
    const dense = estimateStreamedMemoryBytes({ ...atlas(1_000_000), nnz: 1_000_000 * 14_800 });
    const hvgValues = 0.3 * 1_000_000 * (14_800 - 2960);
    expect(Math.abs(dense - base - 4 * hvgValues)).toBeLessThanOrEqual(1);
    expect(estimateStreamedMemoryBytes(atlas(2_000_000))).toBeGreaterThan(
      estimateStreamedMemoryBytes(atlas(1_000_000)),
    );
    // far below the in-memory estimate from the threshold on
    expect(estimateMemoryBytes({ ...atlas(STREAMED_MIN_CELLS), releaseSamples: true })).toBeGreaterThan(
      2 * estimateStreamedMemoryBytes(atlas(STREAMED_MIN_CELLS)),
    );
  });

  it('is within 20 % of the peak measured on store100k (docs/engine-scaling.md "Out-of-core path")', () => {
    // BENCH_WRITE=1 npm run bench:engine -- store100k: 148,170,610 non-zeros in two 50k-cell
    // stores; the child's VmHWM reached 1,973 MiB (Scrublet), load 12–38
    const est = estimateStreamedMemoryBytes({
      cells: 100_000,
      genes: 20_000,
      nnz: 148_170_610,
      largestSampleNnz: 74.1e6,
    });
    expect(est / MiB).toBeGreaterThanOrEqual(1973);
    expect(est / MiB).toBeLessThanOrEqual(1973 * 1.2);
  });

  it('is within 20 % of the peak measured on synth1m, and above it', () => {
    // npm run bench:engine -- synth1m (20 stores of 50k cells, 1,483,692,468 non-zeros, the Leiden
    // restarts on two threads): VmHWM 3,062 MiB, in the clustering step
    const est = estimateStreamedMemoryBytes({
      cells: 1_000_000,
      genes: 20_000,
      nnz: 1_483_692_468,
      largestSampleNnz: 1_483_692_468 / 20,
      threads: 2,
    });
    expect(est / MiB).toBeGreaterThanOrEqual(3062);
    expect(est / MiB).toBeLessThanOrEqual(3062 * 1.2);
  });

  it("counts each Leiden restart thread beyond the caller's where the clustering is the peak", () => {
    // a sparse atlas (300 non-zeros per cell): the clustering phase is the largest
    const sparse = (threads: number) =>
      estimateStreamedMemoryBytes({ ...atlas(1_000_000), nnz: 300e6, largestSampleNnz: 15e6, threads });
    const perThread = 57 * MiB + 224 * 1_000_000;
    expect(sparse(2) - sparse(1)).toBe(perThread);
    expect(sparse(3) - sparse(2)).toBe(perThread);
  });

  it('counts t-SNE and the 3-D layouts only where the streamed run computes them', () => {
    const at = (cells: number) => estimateStreamedMemoryBytes({ ...atlas(cells), largestSampleNnz: 1 });
    const below = at(STREAMED_ALL_LAYOUTS_MAX_CELLS);
    const above = at(STREAMED_ALL_LAYOUTS_MAX_CELLS + 1);
    expect(above).toBeLessThan(below);
  });

  it('adds converting the largest sample when the job child writes the stores', () => {
    const given = estimateStreamedMemoryBytes(atlas(100_000));
    const converts = estimateStreamedMemoryBytes({ ...atlas(100_000), convertsSamples: true });
    expect(converts).toBeGreaterThan(given);
    expect(converts - given).toBeLessThanOrEqual(30 * 50_000 * 1480);
  });
});

describe('notStreamable', () => {
  it('names the options the streamed run does not offer yet', () => {
    expect(notStreamable({})).toEqual([]);
    expect(notStreamable({ batchEffectRemoval: { enabled: true, batchKey: 'Sample ID' } })).toEqual([]);
    expect(
      notStreamable({
        removeCellCycleEffects: true,
        hvgMethod: 'pearson',
        batchEffectRemoval: { enabled: true, batchKey: 'donor' },
      }),
    ).toEqual(['removeCellCycleEffects', 'hvgMethod', 'batchEffectRemoval']);
  });
});
