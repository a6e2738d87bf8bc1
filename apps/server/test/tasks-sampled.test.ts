import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeResourceReader } from '@cellcloud/engine/cli/node-resources';
import { resultHandleFromDataset, runTask } from '@cellcloud/engine/tasks/kit';
import { SAMPLE_STRATUM_FLOOR, stratifiedCellSample } from '@cellcloud/formats/h5ad-cell-sample';
import { readH5adBytes } from '@cellcloud/formats/read-h5ad';
import { writeH5ad } from '@cellcloud/formats/write-h5ad';
import { findTask } from '@cellcloud/tasks/contract';
import { ENGINE_TASKS } from '@cellcloud/tasks/engine';
import { hasSharedData, sharedData } from '@cellcloud/testkit';
import taskChild, { type TaskChildInput } from '../src/jobs/analysis.task.child';
import type { ChildIo } from '../src/jobs/runner-child-process';
import { readStoredResult } from '../src/jobs/runner-child-io';
import { TASK_SAMPLE_SEED } from '../src/jobs/task-sample';
import { localStorage } from '../src/storage/local';
import type { Storage } from '../src/storage/storage';

/**
 * The downstream tasks on a large result (issue 33, docs/engine-scaling.md "Downstream tasks on
 * large results"): with the threshold lowered, a task on the pbmc3k result runs on the documented
 * stratified sample, read by positional reads (the child never gets the whole analysis.h5ad's
 * bytes from storage); below it, the outputs are the whole-file reader's, byte for byte.
 */
const PBMC = sharedData('pbmc3k/pbmc3k.h5ad');
const KEY = 'results/r1/analysis.h5ad';
const GENES = ['CD3D', 'CD3E', 'CD2', 'IL7R', 'LCK', 'CD3G'];

/** A real local storage that records each whole-object read and the bytes streamed. */
function countingStorage(base: Storage) {
  const log = { getBytes: [] as string[], streamed: 0 };
  const storage: Storage = {
    ...base,
    getBytes: (key) => {
      log.getBytes.push(key);
      return base.getBytes(key);
    },
    get: async (key, range) => {
      const s = await base.get(key, range);
      s.on('data', (c: Uint8Array) => (log.streamed += c.byteLength));
      return s;
    },
  };
  return { storage, log };
}

describe.skipIf(!hasSharedData('pbmc3k/pbmc3k.h5ad'))('tasks on a sample of a large result', () => {
  let dir: string;
  let base: Storage;
  let clusters: string[];
  let nCells: number;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'cellcloud-sampled-'));
    base = localStorage(dir);
    const ds = await readH5adBytes(new Uint8Array(readFileSync(PBMC!)), 'pbmc3k.h5ad');
    clusters = Array.from(ds.cells.columns.seurat_cluster!.values as ArrayLike<unknown>, String);
    nCells = ds.counts.nCells;
    // our analysis.h5ad layout: CSR layers["counts"] (X: the pipeline's normalized values; the
    // counts stand in for them here, the tasks read the counts layer), `cluster`, the UMAP
    const bytes = await writeH5ad({
      counts: ds.counts,
      normalized: ds.counts,
      genes: ds.genes,
      barcodes: ds.cells.barcodes,
      obs: { cluster: { kind: 'categorical', values: clusters } },
      obsm: { X_umap: ds.embeddings.X_umap! },
    });
    await base.put(KEY, bytes);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const run = async (storage: Storage, outPrefix: string, sample?: TaskChildInput['sample']) => {
    const io = { storage: async () => storage, progress: () => {} } as unknown as ChildIo;
    const input: TaskChildInput = {
      task: 'cell-score',
      h5adKey: KEY,
      species: 'human',
      params: { name: 'T', genes: GENES },
      uploads: {},
      extraObs: [],
      resourcesDir: path.dirname(path.dirname(PBMC!)),
      outPrefix,
      ...(sample ? { sample } : {}),
    };
    return (await taskChild(input, io)) as { sampledCells?: number };
  };
  const files = async (prefix: string) => {
    const out: Record<string, string> = {};
    for (const k of (await base.list(prefix)).sort())
      out[k.slice(prefix.length)] = Buffer.from(await base.getBytes(k)).toString('base64');
    return out;
  };

  it('runs on the stratified sample, read by ranges, the same cells on a rerun', async () => {
    const { storage, log } = countingStorage(base);
    const sample = { minCells: 1_000, cells: 800 };
    const r1 = await run(storage, 'tasks/a/', sample);
    const r2 = await run(storage, 'tasks/b/', sample);
    expect(r1.sampledCells).toBe(800);
    expect(r2.sampledCells).toBe(800);
    expect(log.getBytes).not.toContain(KEY);
    expect(log.streamed).toBe(2 * (await base.stat(KEY))!.size);

    const outputs = JSON.parse(new TextDecoder().decode(await base.getBytes('tasks/a/outputs.json')));
    expect(outputs.nCells).toBe(nCells);
    const described = JSON.parse(
      new TextDecoder().decode(await base.getBytes('tasks/a/data/cell-sample.json')),
    );
    expect(described).toMatchObject({
      nCells,
      sampledCells: 800,
      stratifiedBy: 'cluster',
      seed: TASK_SAMPLE_SEED,
    });

    // the per-cell score covers exactly the documented sample; the other cells are missing
    const obs = outputs.obs[0] as { file: string };
    const bytes = await base.getBytes(`tasks/a/${obs.file}`);
    const values = new Float32Array(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
    );
    expect(values.length).toBe(nCells);
    const scored = [...values.keys()].filter((c) => !Number.isNaN(values[c]));
    const expected = stratifiedCellSample(nCells, 800, TASK_SAMPLE_SEED, clusters);
    expect(scored).toEqual([...expected]);

    // every cluster keeps its floor and about its share of the rest (the rule in the docs)
    const size = new Map<string, number>();
    const kept = new Map<string, number>();
    clusters.forEach((l) => size.set(l, (size.get(l) ?? 0) + 1));
    for (const c of scored) kept.set(clusters[c]!, (kept.get(clusters[c]!) ?? 0) + 1);
    const floor = Math.min(SAMPLE_STRATUM_FLOOR, Math.floor(800 / (2 * size.size)));
    // the description states the floor the web's notice quotes
    expect(described.perGroupFloor).toBe(floor);
    const floors = [...size.values()].reduce((a, n) => a + Math.min(n, floor), 0);
    for (const [l, n] of size) {
      const f = Math.min(n, floor);
      const share = f + ((n - f) * (800 - floors)) / (nCells - floors);
      expect(Math.abs(kept.get(l)! - share)).toBeLessThan(1);
    }

    // a rerun writes the same outputs
    expect(await files('tasks/b/')).toEqual(await files('tasks/a/'));
  });

  it('below the threshold writes the whole-file reader’s outputs, byte for byte', async () => {
    const { storage, log } = countingStorage(base);
    await run(storage, 'tasks/c/');
    expect(log.getBytes).not.toContain(KEY);
    // today's path: the stored bytes decoded whole, the same runTask
    const ds = await readStoredResult(base, KEY);
    await runTask({
      definition: findTask('cell-score')!,
      engineTask: ENGINE_TASKS['cell-score']!,
      result: resultHandleFromDataset(ds, { species: 'human', extraObs: {} }),
      params: { name: 'T', genes: GENES },
      writer: { write: (rel, b) => base.put(`tasks/d/${rel}`, b) },
      resources: nodeResourceReader(path.dirname(path.dirname(PBMC!))),
      uploads: {},
    });
    expect(await files('tasks/c/')).toEqual(await files('tasks/d/'));
  });

  it('gives a matrix-free task (vdj) every cell above the threshold, the same outputs', async () => {
    const contigs = sharedData('vdj_10x/vdj_nextgem_hs_pbmc3_t_filtered_contig_annotations.csv.gz');
    if (!contigs) return;
    const gz = new Uint8Array(readFileSync(contigs));
    const rows = gunzipSync(gz).toString('utf8').trim().split('\n');
    const col = rows[0]!.split(',').indexOf('barcode');
    const barcodes = [...new Set(rows.slice(1).map((l) => l.split(',')[col]!))];
    // a result of the contigs' cells: one gene, one count each, three clusters
    const n = barcodes.length;
    const counts = {
      nGenes: 1,
      nCells: n,
      indptr: Float64Array.from({ length: n + 1 }, (_, i) => i),
      indices: new Uint32Array(n),
      data: new Float32Array(n).fill(1),
    };
    const key = 'results/vdj/analysis.h5ad';
    await base.put(
      key,
      await writeH5ad({
        counts,
        normalized: counts,
        genes: { ids: ['G'], symbols: ['G'] },
        barcodes,
        obs: { cluster: { kind: 'categorical', values: barcodes.map((_, i) => String(i % 3)) } },
      }),
    );
    await base.put('uploads/contigs.csv.gz', gz);
    const { storage, log } = countingStorage(base);
    const vdj = async (outPrefix: string, sample: TaskChildInput['sample']) => {
      const io = { storage: async () => storage, progress: () => {} } as unknown as ChildIo;
      return (await taskChild(
        {
          task: 'vdj',
          h5adKey: key,
          species: 'human',
          params: {},
          uploads: { contigs: 'uploads/contigs.csv.gz' },
          extraObs: [],
          resourcesDir: path.dirname(path.dirname(PBMC!)),
          outPrefix,
          sample,
        },
        io,
      )) as { sampledCells?: number };
    };
    const above = await vdj('tasks/vdj-above/', { minCells: 100, cells: 50 });
    await vdj('tasks/vdj-below/', { minCells: n + 1 });
    expect(n).toBeGreaterThan(100);
    expect(above.sampledCells).toBeUndefined();
    expect(log.getBytes).not.toContain(key);
    expect(await files('tasks/vdj-above/')).toEqual(await files('tasks/vdj-below/'));
  });
});
