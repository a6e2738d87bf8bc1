import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PUBLIC_INGEST_API,
  type PublicIngestCheck,
  type PublicIngestStatus,
} from '@cellcloud/contracts/admin-public-ingest';
import { ADMIN_API, type AdminAuditView } from '@cellcloud/contracts/admin';
import { FILES_API } from '@cellcloud/contracts/files';
import { read10xMtx } from '@cellcloud/formats/read-10x-mtx';
import { folderBundle } from '@cellcloud/formats/node-sources';
import type { Dataset } from '@cellcloud/formats/matrix';
import { publicIngestsRepo } from '../src/db/repos/public-ingests';
import { cellxgeneH5ad, CELLXGENE_INPUTS, pbmcLabels } from './support/cellxgene';
import { createTestServer, type TestServer } from './support/harness';
import { testUser } from './support/jobs';
import { fileFrom, uploadSample } from './files-helpers';

const { pbmc, labels, features } = CELLXGENE_INPUTS;
const ID = 'pbmc3k-console';

/**
 * Issue 31: a public dataset ingest started from the admin console — the file through the
 * ordinary resumable upload, the metadata sheet as text — checked with the admin tool's rules,
 * every problem at once and translated, then the same `public.ingest` job queued. No worker runs
 * here (IN_PROCESS_WORKER=false): the analysis itself is public-ingest-job.test.ts's.
 */
describe.skipIf(!pbmc || !labels || !features)('public ingest from the admin console', () => {
  let s: TestServer;
  let admin: Awaited<ReturnType<typeof testUser>>;
  let plain: Awaited<ReturnType<typeof testUser>>;
  let lab: Map<string, string>;
  let good: string;
  let bad: string;
  let h5: Uint8Array;
  const start = (body: Record<string, unknown>, lang: 'en-US' | 'zh-CN' = 'en-US', token = admin.token) =>
    s.request('POST', ADMIN_PUBLIC_INGEST_API.start, { token, lang, body });

  beforeAll(async () => {
    s = await createTestServer({ IN_PROCESS_WORKER: 'false' });
    await s.listen();
    const data: Dataset = await read10xMtx(await folderBundle(pbmc!));
    lab = pbmcLabels();
    admin = await testUser(s);
    plain = await testUser(s);
    await s.ctx.db.query('UPDATE users SET is_admin = true WHERE id = $1', [admin.user.id]);
    h5 = await cellxgeneH5ad(data, lab);
    const broken = await cellxgeneH5ad(data, lab, { omit: ['tissue_ontology_term_id'] });
    good = (
      await uploadSample(s, admin.token, 'public_good', [{ name: 'pbmc3k.h5ad', bytes: h5 }], 'annotated')
    ).id;
    bad = (
      await uploadSample(s, admin.token, 'public_bad', [{ name: 'bad.h5ad', bytes: broken }], 'annotated')
    ).id;
  }, 180_000);
  afterAll(() => s?.close());

  it('answers 403 to a user who is not an administrator', async () => {
    const r = await start(
      { uploadId: good, sheet: `id: ${ID}\ntitle: t`, validateOnly: true },
      'en-US',
      plain.token,
    );
    expect(r.status).toBe(403);
    expect((await s.request('GET', ADMIN_PUBLIC_INGEST_API.status('x'), { token: plain.token })).status).toBe(
      403,
    );
  });

  it('lists every problem of the sheet and the file at once, naming the sheet fields, in both languages', async () => {
    const sheet = [
      'id: "bad id!"',
      'sourceUrl: not a url',
      'colour: red',
      'tissue: Blood',
      'article: { pmid: x1 }',
    ].join('\n');
    const r = await start({ uploadId: bad, sheet, validateOnly: true });
    expect(r.status).toBe(200);
    const c = r.body.data as PublicIngestCheck;
    expect(c.ok).toBe(false);
    expect(c.problems.map((p) => p.field)).toEqual(
      expect.arrayContaining(['id', 'title', 'sourceUrl', 'colour', 'tissue', 'article.pmid']),
    );
    // the file's own violation is listed beside the sheet's problems
    expect(c.problems.map((p) => p.rule)).toContain('obs.tissue_ontology_term_id.required');
    expect(c.problems.find((p) => p.field === 'title')!.message).toBe(
      '"title" is required: add it to the sheet.',
    );
    for (const p of c.problems) {
      expect(p.message).not.toMatch(/\[object|Invalid input|at .*\.ts:\d+/);
    }
    const zh = (await start({ uploadId: bad, sheet, validateOnly: true }, 'zh-CN')).body
      .data as PublicIngestCheck;
    expect(zh.problems).toHaveLength(c.problems.length);
    expect(zh.problems.find((p) => p.field === 'title')!.message).toContain('缺少 "title"');
    expect(zh.problems.find((p) => p.field === 'colour')!.message).toContain('不是元数据表的字段');
    // the file's rules in the reader's language too, not the admin tool's English detail
    const obs = zh.problems.find((p) => p.rule === 'obs.tissue_ontology_term_id.required')!;
    expect(obs.message).toBe('文件的细胞表（obs）中没有 CELLxGENE 规范要求的 "tissue_ontology_term_id" 列。');
    for (const p of zh.problems.filter((q) => !q.rule.startsWith('sheet.')))
      expect(p.message, p.rule).not.toMatch(/\b(has no|the file|are not|column)\b/);
    // syntax errors and non-objects are problems too, never a stack trace
    const syntax = (await start({ uploadId: good, sheet: 'id: [unclosed', validateOnly: true })).body
      .data as PublicIngestCheck;
    expect(syntax.problems.map((p) => p.rule)).toEqual(['sheet.syntax']);
    expect(syntax.problems[0]!.message).toMatch(/^The metadata sheet is not valid YAML or JSON: /);
    const list = (await start({ uploadId: good, sheet: '- a\n- b', validateOnly: true })).body
      .data as PublicIngestCheck;
    expect(list.problems.map((p) => p.rule)).toEqual(['sheet.object']);
    expect(await s.ctx.db.query('SELECT id FROM public_ingests')).toHaveLength(0);
  }, 120_000);

  it('a counts sheet naming a cells table that was not uploaded says so, with its other problems', async () => {
    const sheet = JSON.stringify({ id: ID, title: 't', cells: 'cells.csv', columns: { annot_sub: 'label' } });
    const c = (await start({ uploadId: good, sheet, validateOnly: true })).body.data as PublicIngestCheck;
    expect(c.ok).toBe(false);
    const byRule = new Map(c.problems.map((p) => [p.rule, p]));
    expect(byRule.get('cells.file.missing')).toMatchObject({ field: 'cells' });
    expect(byRule.get('cells.file.missing')!.message).toContain('"cells.csv"');
    expect(byRule.has('cells.table.required')).toBe(false);
    for (const f of ['species', 'tissue', 'disease', 'assay'])
      expect(byRule.get(`meta.${f}.required`)).toMatchObject({ field: f });
  }, 120_000);

  it('a 10x upload with its cells table: a wrong column is named by its sheet field, the right one validates', async () => {
    const tenx = ['barcodes.tsv.gz', 'genes.tsv.gz', 'matrix.mtx.gz'].map((f) =>
      fileFrom(path.join(pbmc!, f)),
    );
    const up = await uploadSample(s, admin.token, 'public_counts', [
      ...tenx,
      fileFrom(labels!, 'cells.csv', 'metadata'),
    ]);
    const sheet = (column: string) =>
      JSON.stringify({
        id: 'pbmc3k-counts',
        title: 'PBMC 3k counts',
        species: 'Homo sapiens',
        tissue: ['blood'],
        disease: ['normal'],
        assay: ["10x 3' v1"],
        cells: 'cells.csv',
        columns: { annot_sub: column },
      });
    const wrong = (await start({ uploadId: up.id, sheet: sheet('celltype'), validateOnly: true }, 'zh-CN'))
      .body.data as PublicIngestCheck;
    expect(wrong.problems).toEqual([
      expect.objectContaining({ rule: 'cells.column.celltype.missing', field: 'columns.annot_sub' }),
    ]);
    expect(wrong.problems[0]!.message).toContain('细胞表中没有');
    const right = (await start({ uploadId: up.id, sheet: sheet('label'), validateOnly: true })).body
      .data as PublicIngestCheck;
    expect(right).toMatchObject({ ok: true, datasetId: 'pbmc3k-counts', cells: lab.size });
  }, 120_000);

  it('a valid sheet validates, then queues the public.ingest job whose status reports progress', async () => {
    const sheet = [`id: ${ID}`, 'title: 3k PBMCs (console ingest)', 'licence: CC-BY-4.0'].join('\n');
    const v = (await start({ uploadId: good, sheet, validateOnly: true })).body.data as PublicIngestCheck;
    expect(v).toMatchObject({ ok: true, problems: [], datasetId: ID, cells: lab.size, ingest: null });
    expect(await s.ctx.db.query('SELECT id FROM public_ingests')).toHaveLength(0);

    const r = await start({ uploadId: good, sheet });
    expect(r.status).toBe(200);
    const c = r.body.data as PublicIngestCheck;
    expect(c.ok).toBe(true);
    expect(c.ingest).toMatchObject({ datasetId: ID, version: 1, status: 'queued', step: null });
    const row = await publicIngestsRepo.get(s.ctx.db, c.ingest!.ingestId);
    expect(row).toMatchObject({ dataset_id: ID, status: 'queued' });
    expect(row!.catalogue).toMatchObject({ id: ID, title: '3k PBMCs (console ingest)', cells: lab.size });
    const [job] = await s.ctx.db.query<{ name: string; data: { ingestId: string } }>(
      'SELECT name, data FROM pgboss.job WHERE id = $1',
      [row!.boss_job_id],
    );
    expect(job).toMatchObject({ name: 'public.ingest', data: { ingestId: row!.id } });
    expect(await s.ctx.storage.list(`public/${ID}/v1/`)).toContain(`public/${ID}/v1/manifest.json`);

    // the worker's own progress updates are what the status route answers
    await publicIngestsRepo.claim(s.ctx.db, row!.id, 1);
    await publicIngestsRepo.progress(s.ctx.db, row!.id, 0.4, 'cluster');
    const st = (await s.request('GET', ADMIN_PUBLIC_INGEST_API.status(row!.id), { token: admin.token })).body
      .data as PublicIngestStatus;
    expect(st).toMatchObject({ status: 'running', step: 'cluster', progress: 0.4, datasetId: ID });
    expect(
      (await s.request('GET', ADMIN_PUBLIC_INGEST_API.status('nope'), { token: admin.token })).status,
    ).toBe(404);

    // the administrator's action is in the audit log
    const audit = (await s.request('GET', ADMIN_API.audit, { token: admin.token })).body
      .data as AdminAuditView[];
    expect(audit.find((a) => a.action === 'public.ingest')).toMatchObject({
      adminUsername: admin.user.username,
      target: `${ID} v1`,
      details: { ingestId: row!.id },
    });
    // the queued ingest no longer needs the upload: it is deleted with its files
    expect((await s.request('GET', FILES_API.upload(good), { token: admin.token })).status).toBe(404);
    expect(await s.ctx.storage.list(`raw/${good}/`)).toHaveLength(0);

    // a second ingest of the same dataset while one runs is a listed problem, naming `id`
    const again = await uploadSample(
      s,
      admin.token,
      'public_again',
      [{ name: 'pbmc3k.h5ad', bytes: h5 }],
      'annotated',
    );
    const busy = (await start({ uploadId: again.id, sheet }, 'zh-CN')).body.data as PublicIngestCheck;
    expect(busy.ok).toBe(false);
    expect(busy.problems).toEqual([expect.objectContaining({ rule: 'ingest.busy', field: 'id' })]);
    expect(busy.problems[0]!.message).toContain('请等待其完成');
    // the state in words of the reader's language, never the row's status word
    expect(busy.problems[0]!.message).not.toMatch(/queued|running/);
  }, 120_000);
});
