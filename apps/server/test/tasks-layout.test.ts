import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Random } from '@cellcloud/engine/tasks/kit';
import { readH5adBytes } from '@cellcloud/formats/read-h5ad';
import { writeH5ad } from '@cellcloud/formats/write-h5ad';
import { hasSharedData, sharedData } from '@cellcloud/testkit';
import taskChild, { type TaskChildInput } from '../src/jobs/analysis.task.child';
import type { ChildIo } from '../src/jobs/runner-child-process';
import { MATRIX_FREE_TASKS } from '../src/jobs/task-sample';
import { localStorage } from '../src/storage/local';
import type { Storage } from '../src/storage/storage';

/**
 * The layout task (packages/tasks/src/layout) through the worker's task child: it reads no
 * matrix, so above the sample threshold it still lays out every cell (MATRIX_FREE_TASKS), from
 * the stored PCs and the PC count the analysis recorded in artifacts/qc.json — the same bytes as
 * below the threshold, and the child never fetches the whole analysis.h5ad.
 */
const PBMC = sharedData('pbmc3k/pbmc3k.h5ad');
const KEY = 'results/r1/analysis.h5ad';
const QC = 'results/r1/artifacts/qc.json';
const N_PCS = 12;

describe.skipIf(!hasSharedData('pbmc3k/pbmc3k.h5ad'))('layout task through the task child', () => {
  let dir: string;
  let storage: Storage;
  const fetched: string[] = [];
  let nCells: number;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'cellcloud-layout-'));
    const base = localStorage(dir);
    storage = {
      ...base,
      getBytes: (key) => {
        fetched.push(key);
        return base.getBytes(key);
      },
    };
    const ds = await readH5adBytes(new Uint8Array(readFileSync(PBMC!)), 'pbmc3k.h5ad');
    nCells = ds.counts.nCells;
    // stand-in PCs (20 columns): the stored UMAP spread into more dimensions, seeded noise added
    const umap = ds.embeddings.X_umap!.values;
    const rng = new Random(7);
    const pcs = new Float32Array(nCells * 20);
    for (let c = 0; c < nCells; c++)
      for (let j = 0; j < 20; j++)
        pcs[c * 20 + j] = umap[c * 2 + (j % 2)]! * (1 + j / 10) + 0.3 * rng.normal();
    const clusters = Array.from(ds.cells.columns.seurat_cluster!.values as ArrayLike<unknown>, String);
    await base.put(
      KEY,
      await writeH5ad({
        counts: ds.counts,
        normalized: ds.counts,
        genes: ds.genes,
        barcodes: ds.cells.barcodes,
        obs: { cluster: { kind: 'categorical', values: clusters } },
        obsm: { X_pca: { dims: 20, values: pcs }, X_umap: ds.embeddings.X_umap! },
      }),
    );
    await base.put(
      QC,
      // the analysis' own seed (not the default 42): the layout takes it when none is given
      new TextEncoder().encode(JSON.stringify({ nPcsUsed: N_PCS, batchCorrection: 'none', seed: 11 })),
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const run = async (outPrefix: string, sample: TaskChildInput['sample']) => {
    const io = { storage: async () => storage, progress: () => {} } as unknown as ChildIo;
    const input: TaskChildInput = {
      task: 'layout',
      h5adKey: KEY,
      qcKey: QC,
      species: 'human',
      params: { layout: 'umap3D' },
      uploads: {},
      extraObs: [],
      resourcesDir: path.dirname(path.dirname(PBMC!)),
      outPrefix,
      sample,
    };
    return (await taskChild(input, io)) as { sampledCells?: number };
  };

  it('lays out every cell above the sample threshold, from the PCs the analysis used', async () => {
    expect(MATRIX_FREE_TASKS.has('layout')).toBe(true);
    const above = await run('tasks/above/', { minCells: 1_000, cells: 800 });
    expect(above.sampledCells).toBeUndefined();
    expect(fetched).not.toContain(KEY);
    await run('tasks/below/', { minCells: nCells + 1 });
    const summary = JSON.parse(new TextDecoder().decode(await storage.getBytes('tasks/above/summary.json')));
    expect(summary).toMatchObject({
      layout: 'umap3D',
      dims: 3,
      nCells,
      representation: 'pca',
      nPcs: N_PCS,
      nPcsFrom: 'analysis',
      seed: 11,
      file: 'data/layout.f32',
    });
    const above3d = await storage.getBytes('tasks/above/data/layout.f32');
    const below3d = await storage.getBytes('tasks/below/data/layout.f32');
    expect(above3d.byteLength).toBe(nCells * 3 * 4);
    expect(Buffer.from(above3d).equals(Buffer.from(below3d))).toBe(true);
    const outputs = JSON.parse(new TextDecoder().decode(await storage.getBytes('tasks/above/outputs.json')));
    expect(outputs.files).toEqual([{ name: 'layout.f32', file: 'data/layout.f32', bytes: nCells * 12 }]);
  }, 300_000);
});
