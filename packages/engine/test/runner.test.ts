import { afterAll, describe, expect, it } from 'vitest';
import { EngineError } from '../src/errors';
import { fuzzyConnectivities } from '../src/methods/fuzzy-graph';
import { AnalysisRunner } from '../src/runner';
import { adjustedRandIndex } from '../src/stats/ari';
import { umapLayout } from '../src/stats/umap-layout';
import { umapEpochs, umapMinDist } from '../src/steps/embeddings';
import { syntheticDataset } from '../src/synthetic';
import { validateSamples } from '../src/validate';
import { analysisParams } from '@cellcloud/contracts/analysis-params';
import type { ProgressEvent } from '../src/steps/step';

const syn = syntheticDataset({ nCells: 1500, nGenes: 3000, nClusters: 5, markersPerCluster: 40, seed: 3 });
const sample = { name: 'syn', dataset: syn.dataset };
const base = { doubletDetectionAndRemoval: false, pcValue: 10, clusterResolution: 0.5 };

describe('AnalysisRunner', () => {
  const runner = new AnalysisRunner();
  afterAll(() => runner.free());

  it('runs every step in order with monotone progress and recovers the planted clusters', async () => {
    const events: ProgressEvent[] = [];
    await runner.run([sample], base, (e) => events.push(e));
    const fractions = events.map((e) => e.fraction);
    expect(fractions.every((f, i) => i === 0 || f >= fractions[i - 1])).toBe(true);
    expect(fractions.at(-1)).toBeCloseTo(1, 10);
    expect([...new Set(events.map((e) => e.step))]).toEqual(runner.lastComputed);
    // the 2D and 3D layouts ran in workers alongside t-SNE: the same as on the main thread
    const n = runner.neighbors.value.nn.numberOfCells();
    const graph = fuzzyConnectivities(runner.neighbors.value.nn.serialize(), { nNeighbors: 15 });
    for (const [step, dims] of [
      [runner.umap, 2],
      [runner.umap3d, 3],
    ] as const) {
      const single = umapLayout(graph, { dims, minDist: umapMinDist(n), epochs: umapEpochs(n), seed: 42 });
      expect(Array.from(step.value.values)).toEqual(Array.from(single));
    }
    expect(runner.tsne.value.dims).toBe(2);
    expect(runner.tsne3d.value?.dims).toBe(3); // 1500 cells: within the tsne3D limit
    const data = runner.doublets.value;
    const truth = Array.from(data.cellIndex, (c) => syn.truth[c]);
    expect(adjustedRandIndex(truth, runner.clusters.value.codes)).toBeGreaterThan(0.9);
  }, 300_000);

  it('starts the UMAP layouts once the neighbour graph exists and stops them when a later step fails', async () => {
    const other = new AnalysisRunner();
    const runningAt: Record<string, boolean[]> = {};
    const stop = new Error('stop in the markers step');
    try {
      await expect(
        other.run([sample], base, (e) => {
          runningAt[e.step] = [other.umap.running, other.umap3d.running]; // at the step's last event
          if (e.step === 'markers') throw stop;
        }),
      ).rejects.toBe(stop);
      expect(runningAt.neighbors).toEqual([false, false]);
      expect(runningAt.clusters).toEqual([true, true]); // started before the clustering
      // the failure cancelled both workers; the steps hold no layout
      expect([other.umap.running, other.umap3d.running]).toEqual([false, false]);
      expect(() => other.umap.value).toThrow(/not been computed/);
    } finally {
      other.free();
    }
  }, 300_000);

  it('recomputes only the steps downstream of a changed parameter', async () => {
    const before = runner.umap.value;
    const before3d = runner.umap3d.value;
    await runner.run(undefined, { ...base, clusterResolution: 1.5 });
    expect(runner.lastComputed).toEqual(['clusters', 'markers']);
    expect(runner.umap.value).toBe(before);
    expect(runner.umap3d.value).toBe(before3d);
    await runner.run(undefined, { ...base, clusterResolution: 1.5, pcValue: 8 });
    expect(runner.lastComputed).toEqual([
      'batch',
      'neighbors',
      'clusters',
      'markers',
      'tsne',
      'tsne3D',
      'umap',
      'umap3D',
    ]);
    await runner.run(undefined, { ...base, clusterResolution: 1.5, pcValue: 8 });
    expect(runner.lastComputed).toEqual([]);
  }, 300_000);

  it('is deterministic for a seed', async () => {
    const other = new AnalysisRunner();
    try {
      await other.run([sample], { ...base, clusterResolution: 1.5, pcValue: 8 });
      expect(Array.from(other.clusters.value.codes)).toEqual(Array.from(runner.clusters.value.codes));
      expect(Array.from(other.umap.value.values)).toEqual(Array.from(runner.umap.value.values));
      expect(Array.from(other.tsne.value.values)).toEqual(Array.from(runner.tsne.value.values));
      expect(Array.from(other.tsne3d.value?.values ?? [])).toEqual(
        Array.from(runner.tsne3d.value?.values ?? []),
      );
      expect(runner.umap3d.value?.dims).toBe(3);
      expect(Array.from(other.umap3d.value?.values ?? [])).toEqual(
        Array.from(runner.umap3d.value?.values ?? []),
      );
    } finally {
      other.free();
    }
  }, 300_000);

  it('one-shot (runAnalysis): consumes the counts in place and gives the same result as a re-runnable runner', async () => {
    const two = (s: number) =>
      syntheticDataset({
        nCells: 700,
        nGenes: 3000,
        nClusters: 5,
        markersPerCluster: 40,
        seed: 3,
        cellSeed: s,
      }).dataset;
    const params = { pcValue: 10, clusterResolution: 0.5 }; // Scrublet on: cells are dropped in place
    const regular = new AnalysisRunner();
    const oneShot = new AnalysisRunner({ oneShot: true, releaseSamples: true });
    try {
      await regular.run(
        [
          { name: 'a', dataset: two(1) },
          { name: 'b', dataset: two(2) },
        ],
        params,
      );
      const handed = [
        { name: 'a', dataset: two(1) },
        { name: 'b', dataset: two(2) },
      ];
      await oneShot.run(handed, params);
      expect(handed.every((h) => h.dataset.counts.nCells === 0 && h.dataset.counts.data.length === 0)).toBe(
        true,
      );
      expect(oneShot.inputs.value.counts.nCells).toBe(0); // released after filtering
      const a = regular.normalize.value;
      // the one-shot runner lets the normalized values go after the markers (runAnalysis recomputes them)
      expect(oneShot.normalize.dropped).toBe(true);
      const b = oneShot.normalize.value; // recomputed on reading
      expect(oneShot.normalize.dropped).toBe(false);
      expect(oneShot.doublets.value.doublets.map((d) => d.sample)).toEqual(['a', 'b']);
      expect(oneShot.doublets.value.doubletScore).toEqual(regular.doublets.value.doubletScore);
      expect(Array.from(b.indptr)).toEqual(Array.from(a.indptr));
      expect(Array.from(b.indices)).toEqual(Array.from(a.indices));
      expect(Array.from(b.data)).toEqual(Array.from(a.data));
      expect(Array.from(oneShot.clusters.value.codes)).toEqual(Array.from(regular.clusters.value.codes));
      await expect(oneShot.run(undefined, params)).rejects.toThrow(/runs once/);
    } finally {
      regular.free();
      oneShot.free();
    }
  }, 300_000);

  it('rejects unknown or out-of-range parameters with INVALID_PARAMS', async () => {
    const r = new AnalysisRunner();
    await expect(r.run([sample], { clusterResolution: 9 })).rejects.toMatchObject({ code: 'INVALID_PARAMS' });
    await expect(r.run([sample], { nope: 1 })).rejects.toBeInstanceOf(EngineError);
  });
});

describe('sample validation (docs/product/validation.md)', () => {
  const params = analysisParams.parse({});
  const withCells = (n: number) =>
    syntheticDataset({ nCells: n, nGenes: 200, nClusters: 2, markersPerCluster: 5 }).dataset;
  const code = (f: () => void) => {
    try {
      f();
    } catch (e) {
      return e instanceof EngineError ? e.code : String(e);
    }
    return 'ok';
  };

  it('needs more than 30 cells per sample', () => {
    expect(code(() => validateSamples([{ name: 'a', dataset: withCells(30) }], params))).toBe(
      'TOO_FEW_CELLS',
    );
    expect(code(() => validateSamples([{ name: 'a', dataset: withCells(31) }], params))).toBe('ok');
  });

  it('needs fewer than 100,000 cells per sample (checked on the size alone)', () => {
    const big = withCells(31);
    const huge = { ...big, counts: { ...big.counts, nCells: 100_000 } };
    const e = (() => {
      try {
        validateSamples([{ name: 'big', dataset: huge }], params);
      } catch (err) {
        return err as EngineError;
      }
    })();
    expect(e?.code).toBe('TOO_MANY_CELLS');
    expect(e?.params).toMatchObject({ sample: 'big', cells: 100_000, max: 100_000 });
  });

  it('needs one species, unique names and at least one sample', () => {
    const d = withCells(40);
    expect(
      code(() =>
        validateSamples(
          [
            { name: 'a', dataset: d, species: 'Homo sapiens' },
            { name: 'b', dataset: d, species: 'Mus musculus' },
          ],
          params,
        ),
      ),
    ).toBe('MIXED_SPECIES');
    expect(
      code(() =>
        validateSamples(
          [
            { name: 'a', dataset: d },
            { name: 'a', dataset: d },
          ],
          params,
        ),
      ),
    ).toBe('DUPLICATE_SAMPLE_NAME');
    expect(code(() => validateSamples([], params))).toBe('NO_SAMPLES');
  });
});
