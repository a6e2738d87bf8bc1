import { describe, expect, it } from 'vitest';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { findMarkers } from '../src/markers';
import { logNormalize } from '../src/steps/normalize';
import { lastWilcoxon, wilcoxonBlocks, wilcoxonByGroup, type GroupTestResult } from '../src/stats/wilcoxon';
import { syntheticDataset } from '../src/synthetic';

const KEYS = ['z', 'pval', 'padj', 'log2fc', 'meanGroup', 'pct1', 'pct2'] as const;

/** Synthetic log-normalized data with shared indices (as the merged input has), its clusters as groups. */
function data(nCells: number, nGenes: number): { norm: CountMatrix; labels: Int32Array; nGroups: number } {
  const { dataset, truth } = syntheticDataset({ nCells, nGenes, nClusters: 6, seed: 7 });
  const norm = logNormalize(dataset.counts);
  const indices = new Uint32Array(new SharedArrayBuffer(norm.indices.byteLength));
  indices.set(norm.indices);
  const labels = truth.slice();
  for (let c = 0; c < nCells; c += 11) labels[c] = -1; // cells not tested
  return { norm: { ...norm, indices }, labels, nGroups: 6 };
}

function expectSame(a: GroupTestResult, b: GroupTestResult): void {
  for (const key of KEYS) {
    expect(a[key].length).toBe(b[key].length);
    a[key].forEach((arr, k) => expect(Array.from(arr)).toEqual(Array.from(b[key][k])));
  }
}

describe('Wilcoxon markers on two threads (issue 14)', () => {
  it('normalizes into shared memory (a worker thread reads the values without a copy)', () => {
    const { norm } = data(200, 500);
    expect(norm.data.buffer).toBeInstanceOf(SharedArrayBuffer);
  });

  it('gives exactly the one-thread result, blocks of genes shared with a worker thread', () => {
    const { norm, labels, nGroups } = data(2500, 4000);
    const one = wilcoxonByGroup(norm, labels, nGroups, undefined, { threads: 1 });
    expect(lastWilcoxon.inWorker).toBe(0);
    const fractions: number[] = [];
    const two = wilcoxonByGroup(norm, labels, nGroups, (f) => fractions.push(f), {
      threads: 2,
      parallelMinValues: 0,
      awaitWorker: true,
    });
    console.log(
      `[wilcoxon] ${norm.indices.length} values: ${lastWilcoxon.inWorker} of ${lastWilcoxon.blocks} blocks in the worker thread`,
    );
    expect(lastWilcoxon.inWorker).toBeGreaterThan(0);
    expect(fractions.at(-1)).toBe(1);
    expectSame(two, one);
    // the markers table (rows, order, every figure) is the same too
    const names = Array.from({ length: nGroups }, (_, k) => `c${k}`);
    const genes = Array.from({ length: norm.nGenes }, (_, g) => `g${g}`);
    expect(findMarkers(norm, labels, names, genes)).toEqual(
      findMarkers({ ...norm, indices: Uint32Array.from(norm.indices) }, labels, names, genes),
    );
    // sanity: a planted marker of cluster 0 ranks first in its group
    const top = Array.from(one.z[0]).reduce((best, z, g, zs) => (z > zs[best] ? g : best), 0);
    expect(one.log2fc[0][top]).toBeGreaterThan(1);
  });

  it('runs on one thread below the size threshold or without shared indices', () => {
    const { norm, labels, nGroups } = data(300, 800);
    wilcoxonByGroup(norm, labels, nGroups);
    expect(lastWilcoxon.inWorker).toBe(0);
    const unshared = { ...norm, indices: Uint32Array.from(norm.indices) };
    wilcoxonByGroup(unshared, labels, nGroups, undefined, { parallelMinValues: 0 });
    expect(lastWilcoxon.inWorker).toBe(0);
  });

  it('splits the genes into blocks that cover them once, shrinking at the end on two threads', () => {
    for (const [nGenes, size] of [
      [20_000, 2048],
      [1000, 64],
      [3, 2048],
    ]) {
      for (const parallel of [false, true]) {
        const starts = Array.from(wilcoxonBlocks(nGenes, size, parallel));
        expect(starts[0]).toBe(0);
        expect(starts.at(-1)).toBe(nGenes);
        for (let b = 1; b < starts.length; b++) {
          expect(starts[b] - starts[b - 1]).toBeGreaterThan(0);
          expect(starts[b] - starts[b - 1]).toBeLessThanOrEqual(size);
        }
      }
    }
    const two = wilcoxonBlocks(20_000, 2048, true);
    expect(two[two.length - 1] - two[two.length - 2]).toBeLessThan(2048);
  });
});
