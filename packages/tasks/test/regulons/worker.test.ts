import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { Random } from '@cellcloud/engine/methods/random';
import { binFeatures, GRNBOOST2, type GrnSlice } from '../../src/regulons/engine/binning';
import { boostSlice } from '../../src/regulons/engine/gbm';
import { boostTargets } from '../../src/regulons/engine/grn';

/** 400 cells, 12 sparse features, 6 targets driven by two features each plus noise. */
function slice(): GrnSlice {
  const rng = new Random(7);
  const n = 400;
  const features = Array.from({ length: 12 }, () =>
    Float32Array.from({ length: n }, () => (rng.uniform() < 0.3 ? 1 + 3 * rng.uniform() : 0)),
  );
  const targets = new Float32Array(6 * n);
  for (let t = 0; t < 6; t++)
    for (let i = 0; i < n; i++)
      targets[t * n + i] = features[t]![i]! + 0.5 * features[t + 6]![i]! + rng.uniform();
  return {
    features: binFeatures(features, GRNBOOST2.maxBins),
    targets,
    exclude: Int32Array.of(-1, 1, -1, 3, -1, -1),
    params: GRNBOOST2,
    seed: 11,
  };
}

describe('GRNBoost2 worker threads (grn-worker.ts)', () => {
  it('a worker loads the boosting files under plain Node and returns what this thread computes', async () => {
    const input = slice();
    const expected = boostSlice(input, 0, 6);
    const worker = new Worker(new URL('../../src/regulons/engine/grn-worker.ts', import.meta.url), {
      workerData: { task: 'grn-boost', input },
    });
    const got = await new Promise<{ ticks: number; out: Float64Array }>((resolve, reject) => {
      let ticks = 0;
      worker.on('message', (m: { tick?: number; done?: boolean; out?: Float64Array }) => {
        if (m.tick) ticks++;
        if (m.done) resolve({ ticks, out: m.out! });
      });
      worker.once('error', reject);
      worker.postMessage({ from: 0, to: 6 });
    });
    await worker.terminate();
    expect(got.ticks).toBe(6);
    expect(Array.from(got.out)).toEqual(Array.from(expected));
    // the planted drivers lead their target's importances
    const row = expected.subarray(0, 12);
    expect([...row.keys()].sort((a, b) => row[b]! - row[a]!)[0]).toBe(0);
  });

  it('two threads give the same importances as one', async () => {
    const input = slice();
    const one = await boostTargets(input, 6, { threads: 1 });
    const two = await boostTargets(input, 6, { threads: 2 });
    expect(Array.from(two)).toEqual(Array.from(one));
  });
});
