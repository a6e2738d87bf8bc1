import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directorySink } from '@cellcloud/engine/cli/fs-sink';
import { runAnalysis, type AnalysisResult } from '@cellcloud/engine/run-analysis';
import { TSNE3D_MAX_CELLS } from '@cellcloud/engine/steps/tsne';
import {
  analysisRecordFromQc,
  isTaskError,
  MemorySink,
  resultHandleFromDataset,
  TaskError,
} from '@cellcloud/engine/tasks/kit';
import type { ResourceReader, ResultHandle } from '@cellcloud/engine/tasks/kit';
import { writeOutputs } from '@cellcloud/engine/write-outputs';
import { readDataset } from '@cellcloud/formats';
import { pathBundle } from '@cellcloud/formats/node-sources';
import { readH5adBytes } from '@cellcloud/formats/read-h5ad';
import { hasSharedData, sharedData } from '@cellcloud/testkit';
import { definition, LAYOUT_TSNE3D_MAX_CELLS } from '../../src/layout/contract';
import { engine, LAYOUT_FILE } from '../../src/layout/engine';
import { estimateMemoryBytes } from '../../src/layout/memory';

const PBMC = 'pbmc3k/10x';
/** The pbmc3k analysis' seed (not the default 42). */
const SEED = 7;
const noResources: ResourceReader = {
  readBytes: (p) => Promise.reject(new TaskError('common.resourceMissing', p, { path: p })),
  readText: (p) => Promise.reject(new TaskError('common.resourceMissing', p, { path: p })),
  exists: async () => false,
  list: async () => [],
};

async function runLayout(result: ResultHandle, params: object) {
  const sink = new MemorySink();
  const summary = await engine.run({
    result,
    params: definition.params.parse(params),
    onProgress: () => {},
    sink,
    resources: noResources,
  });
  const bytes = sink.datas.get(LAYOUT_FILE) as Uint8Array;
  const values = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  return { summary, values };
}

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

describe('layout params', () => {
  it("default to the t-SNE on the analysis' own seed; only the kinds the analysis makes", () => {
    expect(definition.params.parse({})).toEqual({ layout: 'tsne' });
    expect(definition.params.parse({ seed: 3 }).seed).toBe(3);
    expect(() => definition.params.parse({ seed: -1 })).toThrow();
    expect(definition.params.parse({ layout: 'umap3D' }).layout).toBe('umap3D');
    expect(() => definition.params.parse({ layout: 'umap' })).toThrow();
    expect(() => definition.params.parse({ nPcs: 10 })).toThrow();
    expect(LAYOUT_TSNE3D_MAX_CELLS).toBe(TSNE3D_MAX_CELLS);
  });

  it('estimates memory in proportion to the cells', () => {
    const small = estimateMemoryBytes(
      { nCells: 10_000, nGenes: 20_000, nnz: 1e7 },
      { layout: 'tsne', seed: 42 },
    );
    const large = estimateMemoryBytes(
      { nCells: 1_000_000, nGenes: 20_000, nnz: 1e9 },
      { layout: 'tsne', seed: 42 },
    );
    expect(large - small).toBeCloseTo(990_000 * 4_500, -3);
  });

  it('reads the representation the analysis recorded from qc.json', () => {
    expect(
      analysisRecordFromQc(JSON.stringify({ nPcsUsed: 13, batchCorrection: 'harmony', seed: 7 })),
    ).toEqual({ nPcsUsed: 13, batchCorrection: 'harmony', seed: 7 });
    expect(analysisRecordFromQc(JSON.stringify({ nPcsUsed: 13, seed: 1.5 }))).toEqual({ nPcsUsed: 13 });
    expect(analysisRecordFromQc(undefined)).toBeUndefined();
    expect(analysisRecordFromQc('not json')).toBeUndefined();
  });
});

describe.skipIf(!hasSharedData(PBMC))(
  "layout on demand on pbmc3k: the analysis' own layouts, bit for bit, on its own seed",
  () => {
    let dir: string;
    let analysis: AnalysisResult;
    let stored: ResultHandle;
    beforeAll(async () => {
      const dataset = await readDataset(await pathBundle(sharedData(PBMC) as string));
      // a seed other than the default: the layout must take the one the analysis recorded
      analysis = await runAnalysis([{ name: 'pbmc3k', dataset }], { seed: SEED });
      dir = await mkdtemp(path.join(os.tmpdir(), 'cellcloud-layout-'));
      await writeOutputs(analysis, directorySink(dir));
      // the stored result as the worker and the CLI read it: analysis.h5ad and artifacts/qc.json
      const ds = await readH5adBytes(
        new Uint8Array(await readFile(path.join(dir, 'analysis.h5ad'))),
        'analysis.h5ad',
      );
      const qc = await readFile(path.join(dir, 'artifacts', 'qc.json'), 'utf8');
      stored = resultHandleFromDataset(ds, { species: 'human', analysis: analysisRecordFromQc(qc) });
    }, 600_000);
    afterAll(async () => {
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    for (const layout of ['tsne', 'umap3D', 'tsne3D'] as const) {
      it(`${layout} from the stored PCs equals the analysis' ${layout}`, async () => {
        const expected = analysis.embeddings[layout]!;
        expect(expected).toBeDefined();
        const c0 = cpu();
        const { summary, values } = await runLayout(stored, { layout });
        console.log(`layout ${layout}: ${(cpu() - c0).toFixed(1)} CPU s on ${stored.nCells} cells`);
        expect(summary).toMatchObject({
          layout,
          dims: expected.dims,
          nCells: analysis.barcodes.length,
          representation: 'pca',
          nPcs: analysis.qc.nPcsUsed,
          nPcsFrom: 'analysis',
          seed: SEED,
        });
        expect(values.length).toBe(expected.values.length);
        expect(Buffer.from(values.buffer).equals(Buffer.from(expected.values.buffer))).toBe(true);
      }, 300_000);
    }

    it('refuses the 3-D t-SNE above its cell limit, saying the limit', async () => {
      const big = { ...stored, nCells: TSNE3D_MAX_CELLS + 1 };
      const e = await runLayout(big, { layout: 'tsne3D' }).catch((x: unknown) => x);
      expect(isTaskError(e) && e.key).toBe('layout.tsne3dTooManyCells');
    });
  },
);
