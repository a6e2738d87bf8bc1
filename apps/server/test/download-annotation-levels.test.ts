import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOWNLOADS_API, type DownloadView } from '@cellcloud/contracts/downloads';
import { unzip } from '@cellcloud/formats/archive';
import { readH5adBytes } from '@cellcloud/formats/read-h5ad';
import { anndataPython } from '../../../packages/engine/test/support/anndata';
import { analysisTasksRepo } from '../src/db/repos/analysis-tasks';
import { completedJobWithArtifacts, storeAnalysisH5ad } from './support/explore';
import { createTestServer, type TestServer } from './support/harness';
import { testUser } from './support/jobs';

/**
 * Issue 13: a completed task's level is listed and can be hand-edited into a saved level; the downloaded h5ad and the Seurat bundle's metadata.csv hold every annotation level
 * the explorer shows — the stored obs, a hand edit saved as a level after the analysis and the
 * per-cell columns of a completed task (annot_auto + its score) — and anndata reads the edit.
 */
describe('downloads carry the saved annotation levels and task columns', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof testUser>>;
  let jobId: string;
  const dir = mkdtempSync(path.join(tmpdir(), 'cellcloud-dl-annot-'));

  async function exported(kind: 'h5ad' | 'seurat'): Promise<Uint8Array> {
    const r = await s.request('POST', DOWNLOADS_API.create, {
      token: owner.token,
      body: { datasetId: jobId, kind },
    });
    expect(r.status).toBe(200);
    for (let i = 0; i < 300; i++) {
      const v = (await s.request('GET', DOWNLOADS_API.one(r.body.data.id), { token: owner.token })).body
        .data as DownloadView;
      if (v.exportState === 'failed') throw new Error('export failed');
      if (v.exportState === 'ready')
        return new Uint8Array(await (await fetch(`${s.url}${v.url}`)).arrayBuffer());
      await new Promise((res) => setTimeout(res, 100));
    }
    throw new Error('export did not finish');
  }

  beforeAll(async () => {
    s = await createTestServer();
    await s.listen();
    owner = await testUser(s);
    const job = await completedJobWithArtifacts(s, owner.user.id);
    jobId = job.id;
    await storeAnalysisH5ad(s, job.id, true);
    // a completed annotate task's per-cell columns (the files its run publishes: outputs.json + obs/)
    const prefix = `results/${job.id}/tasks/annot/`;
    const task = await analysisTasksRepo.insert(s.ctx.db, {
      id: crypto.randomUUID(),
      userId: owner.user.id,
      datasetId: job.id,
      resultId: job.id,
      task: 'annotate',
      params: { mode: 'auto', species: 'human', tissue: 'blood' },
      uploads: {},
      paramsHash: 'x',
      engineVersion: 'test-engine',
      outputPrefix: prefix,
    });
    await s.ctx.db.query(
      `UPDATE analysis_tasks SET status = 'completed', finished_at = now() WHERE id = $1`,
      [task.id],
    );
    const u8 = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    await s.ctx.storage.put(`${prefix}obs/annot_auto.u16`, u8(Uint16Array.from([0, 1, 1, 0])));
    await s.ctx.storage.put(`${prefix}obs/annot_auto_score.f32`, u8(Float32Array.from([0.5, 0.25, 0.75, 1])));
    await s.ctx.storage.put(
      `${prefix}outputs.json`,
      new TextEncoder().encode(
        JSON.stringify({
          task: 'annotate',
          engineVersion: 'test-engine',
          nCells: 4,
          tables: [],
          files: [],
          obs: [
            {
              kind: 'categorical',
              key: 'annot_auto',
              file: 'obs/annot_auto.u16',
              dtype: 'u16',
              labels: ['T cells', 'B cells'],
            },
            { kind: 'numeric', key: 'annot_auto_score', file: 'obs/annot_auto_score.f32', min: 0.25, max: 1 },
          ],
        }),
      ),
    );
    // the user's hand edit of the task's level, saved as a new level through the docs/product/api.md call
    const saved = await s.request('POST', `/api/user_datasets/${job.id}/observation_annotation`, {
      token: owner.token,
      body: { key: 'annot_auto', name: 'my_labels', renames: { 'T cells': 'CD4 T', 'B cells': 'Naive B' } },
    });
    expect(saved.status).toBe(200);
    const levels = await s.request('GET', `/api/user_datasets/${job.id}/observation_annotation`, {
      token: owner.token,
    });
    expect(
      (levels.body.data as { key: string; source: string; counts: number[] }[]).map((l) => [
        l.key.startsWith('subset:') ? 'saved' : l.key,
        l.source,
        l.counts,
      ]),
    ).toEqual([
      ['cluster', 'analysis', [2, 2]],
      ['annot_auto', 'task', [2, 2]],
      ['saved', 'saved', [2, 2]],
    ]);
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await s?.close();
  });

  it('writes the h5ad with the stored obs, the task columns and the saved level', async () => {
    const bytes = await exported('h5ad');
    const back = await readH5adBytes(bytes, 'export.h5ad');
    expect(Object.keys(back.cells.columns)).toEqual([
      'cluster',
      'total_counts',
      'annot_auto',
      'annot_auto_score',
      'my_labels',
    ]);
    expect(back.cells.columns['my_labels']!.values).toEqual(['CD4 T', 'Naive B', 'Naive B', 'CD4 T']);
    expect(back.cells.columns['annot_auto']!.values).toEqual(['T cells', 'B cells', 'B cells', 'T cells']);
    expect(Array.from(back.cells.columns['annot_auto_score']!.values as Float64Array)).toEqual([
      0.5, 0.25, 0.75, 1,
    ]);
    expect(back.embeddings['X_umap']?.dims).toBe(2);
  });

  it.skipIf(!anndataPython)(
    'anndata (Debian python3-anndata) reads the edited level from the export',
    async () => {
      const file = path.join(dir, 'export.h5ad');
      writeFileSync(file, await exported('h5ad'));
      const script = String.raw`
import sys, json, anndata
a = anndata.read_h5ad(sys.argv[1])
print(json.dumps({"shape": list(a.shape), "my_labels": [str(x) for x in a.obs["my_labels"]],
  "categories": [str(c) for c in a.obs["my_labels"].cat.categories], "annot_auto": [str(x) for x in a.obs["annot_auto"]],
  "score": [float(x) for x in a.obs["annot_auto_score"]], "obsm": sorted(a.obsm.keys())}))
`;
      const out = JSON.parse(execFileSync(anndataPython!, ['-c', script, file], { encoding: 'utf8' }));
      expect(out).toEqual({
        shape: [4, 3],
        my_labels: ['CD4 T', 'Naive B', 'Naive B', 'CD4 T'],
        categories: ['CD4 T', 'Naive B'],
        annot_auto: ['T cells', 'B cells', 'B cells', 'T cells'],
        score: [0.5, 0.25, 0.75, 1],
        obsm: ['X_umap'],
      });
    },
  );

  it('puts the levels into the Seurat bundle metadata.csv', async () => {
    const entries = unzip(await exported('seurat'), 'bundle.zip');
    const meta = entries.find((e) => e.name === 'metadata.csv')!;
    const text = new TextDecoder().decode(await meta.read(0, meta.size));
    const [head, first] = text.split('\n');
    expect(head).toBe('barcode,cluster,total_counts,annot_auto,annot_auto_score,my_labels');
    expect(first).toBe('AAA-1,0,5,T cells,0.5,CD4 T');
  });
});
