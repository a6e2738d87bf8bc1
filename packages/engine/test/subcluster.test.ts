import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { directorySink } from '../src/cli/fs-sink';
import { writeOutputs } from '../src/write-outputs';
import { anndataPython, readWithAnndata } from './support/anndata';
import { isEngineError } from '../src/errors';
import { adjustedRandIndex } from '../src/stats/ari';
import { runSubcluster } from '../src/subcluster';
import { syntheticDataset } from '../src/synthetic';

const syn = syntheticDataset({ nCells: 900, nGenes: 2000, nClusters: 5, markersPerCluster: 40, seed: 11 });
const { counts, genes, cells } = syn.dataset;

describe('runSubcluster (sub-celltype child analysis on the parent counts)', () => {
  it('re-clusters only the chosen cells, keeping every one of them, and separates the planted groups', async () => {
    const chosen = Array.from(syn.truth.keys()).filter((c) => syn.truth[c] === 1 || syn.truth[c] === 3);
    const steps = new Set<string>();
    const r = await runSubcluster(
      {
        name: 'T_cells',
        counts,
        genes,
        barcodes: cells.barcodes,
        cells: chosen,
        parentParams: { pcValue: 10 },
        child: { clusteringResolution: 0.3 },
      },
      (e) => steps.add(e.step),
    );
    expect(r.counts.nCells).toBe(chosen.length);
    expect(r.barcodes).toEqual(chosen.map((c) => cells.barcodes[c]));
    expect(r.params.clusterResolution).toBe(0.3);
    expect(r.params.doubletDetectionAndRemoval).toBe(false);
    expect(r.embeddings.umap!.values.length).toBe(chosen.length * 2);
    const codes = (r.obs.cluster as { values: string[] }).values;
    expect(
      adjustedRandIndex(
        chosen.map((c) => syn.truth[c]!),
        codes.map(Number),
      ),
    ).toBeGreaterThan(0.8);
    expect(r.markers.length).toBe(r.clusterLabels.length * r.geneIds.length);
    expect(steps.has('clusters')).toBe(true);
    if (anndataPython) {
      // the child result's analysis.h5ad (streamed to a file) opens in python anndata as is
      const dir = await mkdtemp(path.join(os.tmpdir(), 'cellcloud-subcluster-'));
      try {
        await writeOutputs(r, directorySink(dir));
        const a = readWithAnndata(path.join(dir, 'analysis.h5ad'));
        expect(a.shape).toEqual([chosen.length, r.geneIds.length]);
        expect(a.hvgDtype).toBe('bool');
        expect(a.clusters).toEqual(r.clusterLabels);
        expect(a.obsm).toEqual(expect.arrayContaining(['X_pca', 'X_umap']));
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
  }, 300_000);

  it('keeps the parent PCs with reDimensionalityReduction: false (graph on the given rows)', async () => {
    const chosen = Array.from(syn.truth.keys()).filter(
      (c) => syn.truth[c] === 0 || syn.truth[c] === 2 || syn.truth[c] === 4,
    );
    // parent PCs: 5 dims where the planted group of each parent cell sits at its own corner, plus noise
    const dims = 5;
    let state = 7;
    const noise = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5) * 0.5;
    const values = Float32Array.from(
      { length: counts.nCells * dims },
      (_, k) => (syn.truth[Math.floor(k / dims)] === k % dims ? 3 : 0) + noise(),
    );
    const base = {
      name: 'keep',
      counts,
      genes,
      barcodes: cells.barcodes,
      cells: chosen,
      parentParams: { pcValue: 5 },
    };
    const r = await runSubcluster({
      ...base,
      pcs: { dims, values },
      child: { reDimensionalityReduction: false, clusteringResolution: 0.3 },
    });
    expect(r.embeddings.pca!.dims).toBe(dims);
    expect(Array.from(r.embeddings.pca!.values.subarray(0, dims))).toEqual(
      Array.from(values.subarray(chosen[0]! * dims, chosen[0]! * dims + dims)),
    );
    const codes = (r.obs.cluster as { values: string[] }).values;
    expect(
      adjustedRandIndex(
        chosen.map((c) => syn.truth[c]!),
        codes.map(Number),
      ),
    ).toBeGreaterThan(0.9);
    await expect(runSubcluster({ ...base, child: { reDimensionalityReduction: false } })).rejects.toSatisfy(
      (e: unknown) => isEngineError(e) && e.code === 'INVALID_PARAMS',
    );
  }, 300_000);

  it('refuses fewer than 100 cells', async () => {
    await expect(
      runSubcluster({
        name: 'few',
        counts,
        genes,
        barcodes: cells.barcodes,
        cells: Array.from({ length: 99 }, (_, i) => i),
        parentParams: {},
        child: {},
      }),
    ).rejects.toSatisfy((e: unknown) => isEngineError(e) && e.code === 'TOO_FEW_CELLS');
  });
});
