import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDataset } from '@cellcloud/formats';
import { cellChunksOf, geneBlocksOf } from '@cellcloud/formats/cell-chunks';
import { pathBundle } from '@cellcloud/formats/node-sources';
import { directorySink } from '../../src/cli/fs-sink';
import { runAnalysisStreamed } from '../../src/stream/run-streamed';
import { storeSample } from '../../src/stream/types';
import { writeStreamedOutputs } from '../../src/stream/write-streamed';
import { syntheticDataset } from '../../src/synthetic';

/**
 * Above STREAMED_ALL_LAYOUTS_MAX_CELLS the out-of-core run computes the 2-D UMAP only; its outputs
 * must still be written (the store500k bench stopped at writing: the writer expected a t-SNE).
 */
describe('streamed outputs of a run with the 2-D UMAP only', () => {
  it('writes analysis.h5ad and artifacts with X_umap and no t-SNE', async () => {
    const { dataset } = syntheticDataset({ nCells: 600, nGenes: 1500, nClusters: 4, seed: 3 });
    const sample = storeSample('s', {
      cells: cellChunksOf(dataset.counts, 256),
      genes: geneBlocksOf(dataset.counts),
      geneIds: dataset.genes.ids,
      geneSymbols: dataset.genes.symbols,
      barcodes: dataset.cells.barcodes,
    });
    const result = await runAnalysisStreamed(
      [sample],
      { doubletDetectionAndRemoval: false, expressedGeneRange: { range: [10, 20000] } },
      undefined,
      { layouts: 'umap' },
    );
    expect(result.embeddings.umap?.dims).toBe(2);
    expect(result.embeddings.tsne).toBeUndefined();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'stream-umap-only-'));
    try {
      await writeStreamedOutputs(result, directorySink(dir));
      const back = await readDataset(await pathBundle(path.join(dir, 'analysis.h5ad')));
      expect(Object.keys(back.embeddings).sort()).toEqual(['X_pca', 'X_umap']);
      const manifest = JSON.parse(await readFile(path.join(dir, 'artifacts/manifest.json'), 'utf8'));
      expect(manifest.embeddings.map((e: { name: string }) => e.name)).toEqual(['umap']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
