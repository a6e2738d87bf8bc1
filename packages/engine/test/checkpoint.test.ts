import { describe, expect, it } from 'vitest';
import { decodeCheckpoint, encodeCheckpoint, type CheckpointStore } from '../src/checkpoint';
import { runAnalysis, type AnalysisResult } from '../src/run-analysis';
import type { StepName } from '../src/steps/step';
import { syntheticDataset } from '../src/synthetic';

const params = { pcValue: 10, clusterResolution: 0.5, seed: 7 };
const samples = () => {
  const syn = syntheticDataset({ nCells: 900, nGenes: 2000, nClusters: 4, markersPerCluster: 30, seed: 5 });
  return [{ name: 'syn', dataset: syn.dataset }];
};

function concat(parts: Uint8Array[], total: number): Uint8Array {
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.byteLength;
  }
  return bytes;
}

/** A store in memory that keeps every checkpoint saved (the server's keeps only the last). */
function memoryStore(initial?: Uint8Array) {
  const saved: { step: StepName; bytes: Uint8Array }[] = [];
  const store: CheckpointStore = {
    load: async () => saved.at(-1)?.bytes ?? initial,
    async save(parts, info) {
      saved.push({ step: info.step, bytes: concat(parts, info.bytes) });
    },
  };
  return { store, saved };
}

/** What the writers put in analysis.h5ad's obs / obsm and markers.csv, as plain arrays. */
function outputs(r: AnalysisResult) {
  return {
    obs: Object.fromEntries(
      Object.entries(r.obs).map(([k, c]) => [k, Array.from(c.values as ArrayLike<unknown>)]),
    ),
    embeddings: Object.fromEntries(
      Object.entries(r.embeddings).map(([k, e]) => [k, [e.dims, Array.from(e.values)]]),
    ),
    markers: r.markers,
    hvg: Array.from(r.highlyVariable),
    normalized: Array.from(r.normalized.data),
    qc: r.qc,
  };
}

describe('analysis checkpoints (issue 34)', () => {
  it('encodes shared arrays, shared memory and special numbers, and refuses another key', () => {
    const shared = new Int32Array(new SharedArrayBuffer(16)).fill(3);
    const list = ['a', 'b'];
    const parts = encodeCheckpoint({
      key: 'k1',
      steps: ['inputs'],
      values: {
        a: { shared, view: shared.subarray(1, 3), list, again: list, x: [NaN, -0, Infinity, undefined] },
      },
    });
    const bytes = concat(
      parts,
      parts.reduce((n, p) => n + p.byteLength, 0),
    );
    const back = decodeCheckpoint(bytes, 'k1')!.values.a as Record<string, never>;
    const s = back.shared as Int32Array;
    expect(s.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect((back.view as Int32Array).buffer).toBe(s.buffer);
    expect(back.again).toBe(back.list);
    expect(Object.is((back.x as number[])[1], -0)).toBe(true);
    expect(back.x).toEqual([NaN, -0, Infinity, undefined]);
    expect(decodeCheckpoint(bytes, 'k2')).toBeUndefined();
    expect(decodeCheckpoint(bytes.subarray(0, bytes.length - 8), 'k1')).toBeUndefined();
  });

  it('a run resumed from the checkpoint after each of pca, clusters and tsne equals an uninterrupted one', async () => {
    const full = memoryStore();
    const whole = await runAnalysis(samples(), params, undefined, {
      checkpoint: { key: 'job', store: full.store },
    });
    expect(whole.resumed).toEqual([]);
    const steps = full.saved.map((s) => s.step);
    expect(steps).toEqual(
      expect.arrayContaining(['filter', 'normalize', 'hvg', 'pca', 'batch', 'neighbors']),
    );
    expect(steps).not.toContain('umap3D'); // the last step: the job ends, nothing to resume
    for (const at of ['pca', 'clusters', 'tsne'] as const) {
      const cp = full.saved.find((s) => s.step === at)!;
      const resumed = memoryStore(cp.bytes);
      const r = await runAnalysis(samples(), params, undefined, {
        checkpoint: { key: 'job', store: resumed.store },
      });
      expect(r.resumed!.at(-1)).toBe(at);
      expect(resumed.saved.map((s) => s.step)).toEqual(steps.slice(steps.indexOf(at) + 1));
      expect(outputs(r)).toEqual(outputs(whole));
    }
    // another key (other parameters or engine): started over
    const other = memoryStore(full.saved.find((s) => s.step === 'pca')!.bytes);
    const r = await runAnalysis(samples(), params, undefined, {
      checkpoint: { key: 'other', store: other.store },
    });
    expect(r.resumed).toEqual([]);
  }, 300_000);
});
