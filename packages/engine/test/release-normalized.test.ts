import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../src/collect-garbage';
import { AnalysisRunner } from '../src/runner';
import type { StepName } from '../src/steps/step';
import { logNormalize } from '../src/steps/normalize';
import { lastWilcoxon, wilcoxonByGroup, wilcoxonWorkersExited } from '../src/stats/wilcoxon';
import { syntheticDataset } from '../src/synthetic';

const dataset = () =>
  syntheticDataset({ nCells: 600, nGenes: 2000, nClusters: 4, markersPerCluster: 30, seed: 5 }).dataset;
const params = { doubletDetectionAndRemoval: false, pcValue: 10, clusterResolution: 0.5 };

describe('normalized values let go after the markers (issue 14, write-after one-shot runs)', () => {
  it('collects their buffer before the t-SNE starts, and recomputes the same values on reading', async () => {
    const runner = new AnalysisRunner({ oneShot: true, releaseSamples: true });
    let step: StepName | undefined;
    let ref: WeakRef<ArrayBufferLike> | undefined;
    let copy: Float32Array | undefined;
    let freedBeforeTsne = false;
    try {
      await runner.run([{ name: 's', dataset: dataset() }], params, (e) => {
        if (e.step === step) return;
        if (e.step === 'tsne') freedBeforeTsne = ref?.deref() === undefined;
        step = e.step;
        if (e.step === 'hvg') {
          copy = Float32Array.from(runner.normalize.value.data); // to compare with after the run
          ref = new WeakRef(runner.normalize.value.data.buffer);
        }
      });
      // collected between the markers and the t-SNE, not at V8's next full collection (seconds later)
      expect(ref).toBeDefined();
      expect(freedBeforeTsne).toBe(true);
      expect(runner.normalize.dropped).toBe(true);
      expect(Array.from(runner.normalize.value.data)).toEqual(Array.from(copy!));
    } finally {
      runner.free();
    }
  });

  it('the Wilcoxon worker thread has exited once wilcoxonWorkersExited resolves', async () => {
    const { dataset: d, truth } = syntheticDataset({ nCells: 1500, nGenes: 3000, nClusters: 4, seed: 9 });
    const norm = logNormalize(d.counts);
    const indices = new Uint32Array(new SharedArrayBuffer(norm.indices.byteLength));
    indices.set(norm.indices);
    wilcoxonByGroup({ ...norm, indices }, truth, 4, undefined, { parallelMinValues: 0, awaitWorker: true });
    expect(lastWilcoxon.inWorker).toBeGreaterThan(0);
    let exited = false;
    const waiting = wilcoxonWorkersExited().then(() => (exited = true));
    expect(exited).toBe(false); // terminate() is asynchronous: the worker still holds the matrix here
    await waiting;
    expect(exited).toBe(true);
    expect(typeof collectGarbage()).toBe('boolean');
  });
});
