import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_API, type AdminJobView } from '@cellcloud/contracts/admin';
import type { ArtifactManifest } from '@cellcloud/contracts/artifacts';
import { PUBLIC_PATHS, type PublicDatasetDetail } from '@cellcloud/contracts/public-datasets';
import { read10xMtx } from '@cellcloud/formats/read-10x-mtx';
import { folderBundle } from '@cellcloud/formats/node-sources';
import type { Dataset } from '@cellcloud/formats/matrix';
import { publicIngestsRepo } from '../src/db/repos/public-ingests';
import { jobsDeps } from '../src/services/jobs-wire';
import { ingestPublicCli } from '../src/services/public-datasets/cli';
import { PublicIngestError } from '../src/services/public-datasets/ingest';
import { waitPublicIngest } from '../src/services/public-datasets/queue-ingest';
import { cellxgeneH5ad, CELLXGENE_INPUTS, pbmcLabels } from './support/cellxgene';
import { createTestServer, type TestServer } from './support/harness';
import { testUser } from './support/jobs';

const { pbmc, labels, features } = CELLXGENE_INPUTS;
const ID = 'pbmc3k-job';
/**
 * The first 600 labelled cells of pbmc3k, not all 2,638: this file checks the job's plumbing (the
 * schema check before queueing, the read-only explorer, the atomic version swap, withdrawal), none
 * of which depends on how many cells the analysis clusters; 600 cells still hold every one of the
 * nine Seurat labels (80 B, 138 monocytes). Two full analyses here took ~300 s at load ≈ 10; the
 * analysis of all of pbmc3k through the queue is checked by jobs-analysis.test.ts.
 */
const CELLS = 600;
const base = `/api/user_datasets/public:${ID}`;

/**
 * Issue 20: the curation ingest runs as the queued `public.ingest` job — the pbmc3k-derived
 * CELLxGENE h5ad through the admin tool's code path, the standard analysis in the job child —
 * and the result opens read-only in the explorer for any user with public access.
 */
describe.skipIf(!pbmc || !labels || !features)('public ingest job and the read-only public explorer', () => {
  let s: TestServer;
  let data: Dataset;
  let lab: Map<string, string>;
  let dir: string;
  let metaFile: string;
  let goodFile: string;
  let alice: Awaited<ReturnType<typeof testUser>>;
  let plain: Awaited<ReturnType<typeof testUser>>;
  const cli = (file: string, wait = true) =>
    ingestPublicCli({ ...s.ctx, queue: jobsDeps(s.ctx).queue }, 'ingest-public', file, metaFile, { wait });
  const manifest = async (token: string) => {
    const r = await s.request('GET', `${base}/artifacts/manifest.json`, { token });
    return {
      status: r.status,
      manifest: r.status === 200 ? (JSON.parse(r.raw) as ArtifactManifest) : undefined,
    };
  };
  const detail = async () => {
    const r = await s.request('GET', PUBLIC_PATHS.one(ID), { token: alice.token });
    // the answer in the message: a failure once seen under load (data undefined) names its cause
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data as PublicDatasetDetail;
  };

  beforeAll(async () => {
    s = await createTestServer({ WORKER_CONCURRENCY: '1' });
    await s.listen();
    data = await read10xMtx(await folderBundle(pbmc!));
    lab = new Map([...pbmcLabels()].slice(0, CELLS));
    dir = mkdtempSync(path.join(os.tmpdir(), 'cellcloud-public-job-'));
    metaFile = path.join(dir, 'meta.yaml');
    writeFileSync(metaFile, [`id: ${ID}`, 'title: 3k PBMCs (job ingest)', 'licence: CC-BY-4.0'].join('\n'));
    goodFile = path.join(dir, 'pbmc3k.h5ad');
    writeFileSync(goodFile, await cellxgeneH5ad(data, lab));
    alice = await testUser(s);
    plain = await testUser(s);
    await s.ctx.db.query(`UPDATE users SET plan_id = 'synecosys' WHERE id = $1`, [alice.user.id]);
    // 300 s: at load average 17–19 on the 2-core machine the server's start and the reading of
    // pbmc3k alone passed 120 s (the hook timed out before any test ran)
  }, 300_000);
  afterAll(() => s?.close());

  it('a schema-violating file is refused with the report before anything is queued or stored', async () => {
    const bad = path.join(dir, 'bad.h5ad');
    writeFileSync(bad, await cellxgeneH5ad(data, lab, { omit: ['tissue_ontology_term_id'], badIds: true }));
    const err = await cli(bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PublicIngestError);
    expect((err as PublicIngestError).violations.map((v) => v.rule).sort()).toEqual([
      'obs.cell_type_ontology_term_id.format',
      'obs.tissue_ontology_term_id.required',
    ]);
    expect(await s.ctx.db.query('SELECT id FROM public_ingests')).toHaveLength(0);
    expect(await s.ctx.storage.list('public/')).toHaveLength(0);
  }, 120_000);

  it('ingests through the job; a non-admin user with public access reads the explorer artifacts', async () => {
    const out = await cli(goodFile);
    expect(out).toContain(`ingested public dataset ${ID} v1: ${lab.size} cells`);
    expect(out).toContain('standard analysis ready');
    const [row] = await publicIngestsRepo.recent(s.ctx.db, 1);
    expect(row).toMatchObject({ dataset_id: ID, version: 1, status: 'completed', progress: 1 });
    const d = await detail();
    expect(d).toMatchObject({ version: 1, analysisId: row!.id, cells: lab.size });

    const m = await manifest(alice.token);
    expect(m.status).toBe(200);
    const obs = new Map(m.manifest!.obs.map((o) => [o.key, o]));
    // the standardized levels are carried into the analysis next to its own clustering
    const full = obs.get('annot_full');
    expect(full?.kind).toBe('categorical');
    expect(full && 'labels' in full ? full.labels : []).toEqual(
      expect.arrayContaining(['B cell', 'Monocyte']),
    );
    expect(obs.has('annot_sub')).toBe(true);
    expect(obs.has('cluster')).toBe(true);
    expect(m.manifest!.embeddings.map((e) => e.name)).toContain('umap');
    expect(m.manifest!.layers.map((l) => l.name).sort()).toEqual(['counts', 'normalized']);
    // the files are shared under the public prefix (no per-user copy)
    const umap = m.manifest!.embeddings.find((e) => e.name === 'umap')!;
    const coords = await s.request('GET', `${base}/artifacts/${umap.file}`, { token: alice.token });
    expect(coords.status).toBe(200);
    expect(await s.ctx.storage.stat(`public/${ID}/v1/artifacts/${umap.file}`)).toBeDefined();
    expect((await s.ctx.storage.list(`users/${alice.user.id}/`)).length).toBe(0);
    const levels = await s.request('GET', `${base}/observation_annotation`, { token: alice.token });
    expect(levels.status).toBe(200);
    expect(levels.body.data.map((l: { key: string }) => l.key)).toEqual(
      expect.arrayContaining(['annot_full']),
    );
    // a user without the public permission gets 403; an unknown public id 404
    expect((await manifest(plain.token)).status).toBe(403);
    const unknown = await s.request('GET', '/api/user_datasets/public:nope/artifacts/manifest.json', {
      token: alice.token,
    });
    expect(unknown.status).toBe(404);
  }, 600_000);

  it('every change to the public dataset answers 403 with a translated message', async () => {
    const calls: [string, string, unknown][] = [
      ['POST', `${base}/observation_subset`, { from: 'copy', name: 'mine', key: 'annot_full' }],
      ['POST', `${base}/observation_annotation`, { key: 'annot_full', name: 'mine', renames: {} }],
      ['POST', `${base}/subcluster_task`, { key: 'subset:x' }],
      ['POST', `${base}/calculate_deg_task`, { mode: 'cluster-markers', grouping: 'annot_full' }],
      ['POST', `${base}/tasks`, { task: 'cell-score', params: {} }],
    ];
    for (const [method, url, body] of calls) {
      const r = await s.request(method, url, { token: alice.token, body });
      expect(r.status, url).toBe(403);
      expect(r.body.msg, url).toContain('read only');
    }
    const zh = await s.request('POST', `${base}/observation_subset`, {
      token: alice.token,
      lang: 'zh-CN',
      body: { from: 'copy', name: 'mine', key: 'annot_full' },
    });
    expect(zh.status).toBe(403);
    expect(zh.body.msg).toContain('只读');
  });

  it('a failing job leaves the current version intact; a re-ingest swaps versions atomically', async () => {
    const before = (await manifest(alice.token)).manifest!;
    // over the memory budget: the job fails for good (a PermanentJobError, no retry)
    const budget = s.ctx.config.workerMemoryBytes;
    s.ctx.config.workerMemoryBytes = 1024 * 1024;
    const failed = await cli(goodFile).catch((e: unknown) => e as Error);
    s.ctx.config.workerMemoryBytes = budget;
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).message).toContain('the catalogue keeps the previous version');
    expect(await s.ctx.storage.list(`public/${ID}/v2/`)).toHaveLength(0);
    expect((await detail()).version).toBe(1);
    expect((await manifest(alice.token)).status).toBe(200);
    // the admin console's jobs overview lists the failed ingest with its reason
    await s.ctx.db.query('UPDATE users SET is_admin = true WHERE id = $1', [plain.user.id]);
    const failedJobs = (await s.request('GET', `${ADMIN_API.jobs}?status=error`, { token: plain.token })).body
      .data as AdminJobView[];
    await s.ctx.db.query('UPDATE users SET is_admin = false WHERE id = $1', [plain.user.id]);
    expect(failedJobs.find((j) => j.kind === 'publicIngest')).toMatchObject({
      jobName: 'public.ingest',
      analysisId: `public:${ID} v2`,
      status: 'error',
    });

    // queued without waiting: until the job completes, readers keep the old version
    const queued = await cli(goodFile, false);
    expect(queued).toContain(`queued the ingest of public dataset ${ID} v2`);
    const [row] = await publicIngestsRepo.recent(s.ctx.db, 1);
    expect(row!.status === 'queued' || row!.status === 'running').toBe(true);
    expect((await detail()).version).toBe(1);
    // a second ingest of the same dataset is refused while one is unfinished
    await expect(cli(goodFile, false)).rejects.toThrow(/already (queued|running)/);
    const done = await waitPublicIngest(s.ctx.db, row!.id, () => {});
    expect(done.status).toBe('completed');
    const d = await detail();
    expect(d).toMatchObject({ version: 2, analysisId: row!.id });
    const keys = await s.ctx.storage.list(`public/${ID}/`);
    expect(keys.some((k) => k.startsWith(`public/${ID}/v1/`))).toBe(false);
    expect(keys).toContain(`public/${ID}/v2/artifacts/manifest.json`);
    const after = (await manifest(alice.token)).manifest!;
    expect(after.nCells).toBe(before.nCells);
  }, 900_000);

  it('withdrawal hides the dataset from the catalogue and the explorer', async () => {
    const out = await ingestPublicCli({ ...s.ctx, queue: jobsDeps(s.ctx).queue }, 'withdraw-public', ID);
    expect(out).toContain('withdrawn');
    expect((await s.request('GET', PUBLIC_PATHS.one(ID), { token: alice.token })).status).toBe(404);
    expect((await manifest(alice.token)).status).toBe(404);
  });
});
