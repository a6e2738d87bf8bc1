import { describe, expect, it } from 'vitest';
import { mergeDatasets, type NamedDataset } from '../src/steps/inputs';
import { syntheticDataset } from '../src/synthetic';

const samples = (): NamedDataset[] =>
  [1, 2, 3].map((s) => ({
    name: `s${s}`,
    dataset: syntheticDataset({ nCells: 300, nGenes: 1500, nClusters: 3, seed: 3, cellSeed: s }).dataset,
  }));

describe('mergeDatasets with releaseSamples (issue 14: 500k cells)', () => {
  it('frees each handed-over sample matrix once copied and merges exactly as without release', () => {
    const kept = mergeDatasets(samples(), false);
    const handed = samples();
    const buffers = handed.map((s) => s.dataset.counts.data.buffer);
    const released = mergeDatasets(handed, true);
    expect(Array.from(released.counts.data)).toEqual(Array.from(kept.counts.data));
    expect(Array.from(released.counts.indices)).toEqual(Array.from(kept.counts.indices));
    expect(Array.from(released.counts.indptr)).toEqual(Array.from(kept.counts.indptr));
    // the stores are detached (freed at once, not at the next full garbage collection)
    expect(buffers.map((b) => b.byteLength)).toEqual([0, 0, 0]);
    expect(handed.map((s) => s.dataset.counts.nCells)).toEqual([0, 0, 0]);
  });

  it('keeps a buffer that a later sample still reads, and views that do not span their buffer', () => {
    const base = samples();
    const ref = mergeDatasets([...samples(), { name: 'again', dataset: samples()[0].dataset }], false);
    // the fourth sample shares the first one's arrays; the second's values are a view into a larger buffer
    const second = base[1].dataset.counts;
    const padded = new Float32Array(second.data.length + 8);
    padded.set(second.data, 8);
    second.data = padded.subarray(8);
    const handed = [...base, { name: 'again', dataset: { ...base[0].dataset } }];
    const merged = mergeDatasets(handed, true);
    expect(Array.from(merged.counts.data)).toEqual(Array.from(ref.counts.data));
    expect(Array.from(merged.counts.indices)).toEqual(Array.from(ref.counts.indices));
    expect(padded.buffer.byteLength).toBe(padded.length * 4);
  });
});
