import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import '@cellcloud/formats/node-sources';
import { readH5adBytes } from '@cellcloud/formats';
import { directorySink } from '../src/cli/fs-sink';
import { type AnalysisResult, runAnalysis } from '../src/run-analysis';
import { syntheticDataset } from '../src/synthetic';
import { type OutputsInProgress, startOutputs, writeOutputs } from '../src/write-outputs';

async function files(dir: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(path.join(dir, rel), { withFileTypes: true })) {
    const p = path.join(rel, e.name);
    if (e.isDirectory()) out.push(...(await files(dir, p)));
    else out.push(p);
  }
  return out.sort();
}

describe('outputs written while the embeddings compute', () => {
  it('gives the same files, byte for byte, as writing everything after the job', async () => {
    const syn = syntheticDataset({ nCells: 900, nGenes: 2000, nClusters: 4, markersPerCluster: 30, seed: 5 });
    const root = await mkdtemp(path.join(os.tmpdir(), 'cellcloud-overlap-'));
    try {
      const alongside = path.join(root, 'alongside');
      const after = path.join(root, 'after');
      let early: AnalysisResult | undefined;
      let outputs: OutputsInProgress | undefined;
      const result = await runAnalysis([{ name: 's1', dataset: syn.dataset }], {}, undefined, {
        whileEmbeddings: async (partial) => {
          early = partial;
          outputs = await startOutputs(partial, directorySink(alongside));
        },
      });
      // the early result: the matrices, columns and markers; no UMAP / t-SNE yet
      expect(early!.counts).toBe(result.counts);
      expect(early!.markers.length).toBeGreaterThan(0);
      expect(Object.keys(early!.embeddings)).toEqual(['pca']);
      expect(Object.keys(result.embeddings)).toEqual(
        expect.arrayContaining(['pca', 'umap', 'tsne', 'umap3D']),
      );
      // a per-cell column added after the pipeline (as the job's annotation does) is written too
      result.obs.annot = { kind: 'categorical', values: result.barcodes.map((_, i) => `t${i % 2}`) };
      const manifest = await outputs!.finish(result);
      expect(manifest.obs.map((o) => o.key)).toContain('annot');
      const again = await writeOutputs(result, directorySink(after));
      expect(manifest).toEqual(again);
      const names = await files(alongside);
      expect(names).toEqual(await files(after));
      expect(names).toEqual(
        expect.arrayContaining(['analysis.h5ad', 'markers.csv', 'artifacts/manifest.json']),
      );
      for (const f of names)
        expect(
          Buffer.compare(await readFile(path.join(alongside, f)), await readFile(path.join(after, f))),
          f,
        ).toBe(0);
      // and the h5ad reads back with its embeddings
      const back = await readH5adBytes(
        new Uint8Array(await readFile(path.join(alongside, 'analysis.h5ad'))),
        'a.h5ad',
      );
      expect(back.counts.nCells).toBe(result.counts.nCells);
      expect(back.cells.columns['annot']).toEqual(result.obs.annot);
      expect(back.embeddings['X_umap']?.values).toEqual(result.embeddings.umap!.values);
      expect(back.embeddings['X_tsne']?.values).toEqual(result.embeddings.tsne!.values);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }, 300_000);
});
