import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { artifactManifest } from '@cellcloud/contracts/artifacts';
import { readDataset } from '@cellcloud/formats';
import { cellChunksOf, geneBlocksOf } from '@cellcloud/formats/cell-chunks';
import { pathBundle } from '@cellcloud/formats/node-sources';
import { directorySink } from '../../src/cli/fs-sink';
import { runAnalysisStreamed } from '../../src/stream/run-streamed';
import { storeSample } from '../../src/stream/types';
import { writeStreamedOutputs } from '../../src/stream/write-streamed';
import { syntheticDataset } from '../../src/synthetic';

/** 600 synthetic cells of four clusters, one sample read through cell chunks and gene blocks. */
function syntheticSample() {
  const { dataset } = syntheticDataset({ nCells: 600, nGenes: 1500, nClusters: 4, seed: 3 });
  return storeSample('s', {
    cells: cellChunksOf(dataset.counts, 256),
    genes: geneBlocksOf(dataset.counts),
    geneIds: dataset.genes.ids,
    geneSymbols: dataset.genes.symbols,
    barcodes: dataset.cells.barcodes,
  });
}
const PARAMS = { doubletDetectionAndRemoval: false, expressedGeneRange: { range: [10, 20000] } };

/**
 * Above STREAMED_ALL_LAYOUTS_MAX_CELLS the out-of-core run computes the 2-D UMAP only; its outputs
 * must still be written (the store500k bench stopped at writing: the writer expected a t-SNE), and
 * the manifest says which layouts were left out and why (the explorer shows the reason).
 */
describe('streamed outputs of a run with the 2-D UMAP only', () => {
  it('writes analysis.h5ad and artifacts with X_umap and no t-SNE', async () => {
    const sample = syntheticSample();
    const result = await runAnalysisStreamed([sample], PARAMS, undefined, { layouts: 'umap' });
    expect(result.embeddings.umap?.dims).toBe(2);
    expect(result.embeddings.tsne).toBeUndefined();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'stream-umap-only-'));
    try {
      await writeStreamedOutputs(result, directorySink(dir));
      const back = await readDataset(await pathBundle(path.join(dir, 'analysis.h5ad')));
      expect(Object.keys(back.embeddings).sort()).toEqual(['X_pca', 'X_umap']);
      const manifest = JSON.parse(await readFile(path.join(dir, 'artifacts/manifest.json'), 'utf8'));
      expect(manifest.embeddings.map((e: { name: string }) => e.name)).toEqual(['umap']);
      // asked for by the caller, not left out for the size: nothing for the explorer to explain
      expect(manifest.layoutsNotComputed).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);

  it('says in the manifest which layouts the cell limit left out, and why', async () => {
    const sample = syntheticSample();
    // the default layouts with a limit of 500 input cells: 600 is above it
    const result = await runAnalysisStreamed([sample], PARAMS, undefined, { allLayoutsMaxCells: 500 });
    expect(Object.keys(result.embeddings).sort()).toEqual(['pca', 'umap']);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'stream-umap-only-'));
    try {
      const returned = await writeStreamedOutputs(result, directorySink(dir));
      const text = await readFile(path.join(dir, 'artifacts/manifest.json'), 'utf8');
      const manifest = artifactManifest.parse(JSON.parse(text));
      const said = { names: ['tsne', 'umap3D', 'tsne3D'], reason: 'cells', cells: 600, maxCells: 500 };
      expect(manifest.layoutsNotComputed).toEqual(said);
      expect(returned).toEqual(manifest);
      expect(manifest.embeddings.map((e) => e.name)).toEqual(['umap']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
