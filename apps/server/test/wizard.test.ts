import { cellFilteringResult } from '@cellcloud/contracts';
import { sharedData } from '@cellcloud/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileFrom, uploadSample, waitParsed } from './files-helpers';
import { createTestServer, type TestServer } from './support/harness';
import { testUser } from './support/jobs';

const pbmc = sharedData('pbmc3k/10x');
const geneLists = sharedData('gene_ids');

/**
 * The wizard on real data: pbmc3k uploaded through tus and parsed, selectable in step 1, the
 * step-2 cell-filtering evaluation run as a background job in the analysis child process, with
 * per-cell QC metrics and the docs/product/limits.md#cell-filtering-defaults recommended thresholds.
 */
describe.skipIf(!pbmc || !geneLists)('wizard with pbmc3k', () => {
  let s: TestServer;
  let token: string;
  let uploadId: string;

  beforeAll(async () => {
    process.env.ENSEMBL_GENE_LISTS_DIR = geneLists;
    // A 512 MiB analysis budget: enough for the evaluation, too little for a full analysis.
    s = await createTestServer({ WORKER_CONCURRENCY: '1', WORKER_MEMORY_MB: '512' });
    await s.listen();
    ({ token } = await testUser(s));
    const files = ['matrix.mtx.gz', 'genes.tsv.gz', 'barcodes.tsv.gz'].map((f) => fileFrom(`${pbmc}/${f}`));
    const up = await uploadSample(s, token, 'pbmc3k', files);
    const parsed = await waitParsed(s, token, up.id);
    expect(parsed.state).toBe('completed');
    uploadId = up.id;
  });
  afterAll(async () => {
    await s?.close();
  });

  it('lists the parsed sample as selectable with its species', async () => {
    const r = await s.request('GET', '/api/wizard/samples', { token });
    expect(r.body.data).toEqual([
      expect.objectContaining({ id: uploadId, name: 'pbmc3k', species: 'Homo sapiens', cells: 2638 }),
    ]);
  });

  it('evaluates cell filtering in the background with the recommended thresholds', async () => {
    const draft = await s.request('POST', '/api/drafts', {
      token,
      body: {
        stepTag: 2,
        datasets: [{ id: uploadId, name: 'pbmc3k', group: 'g1' }],
        param: { jobName: 'pbmc_eval', cellFilteringEvaluation: 'evaluate' },
      },
    });
    const id = draft.body.data.id as string;
    await s.request('POST', `/api/drafts/${id}/cell-filtering`, { token });
    let r = await s.request('GET', `/api/drafts/${id}/cell-filtering`, { token });
    for (let i = 0; i < 600 && r.body.data.status === 'running'; i++) {
      await new Promise((res) => setTimeout(res, 250));
      r = await s.request('GET', `/api/drafts/${id}/cell-filtering`, { token });
    }
    expect(r.body.data.message).toBeNull();
    expect(r.body.data.status).toBe('done');
    const result = cellFilteringResult.parse(r.body.data.result);
    const [sample] = result.samples;
    expect(sample!.cells).toBe(2638);
    expect(sample!.genes).toHaveLength(2638);
    // The pbmc3k cells already passed Seurat's QC: 200–2500 genes and mito < 5 %.
    expect(Math.min(...sample!.genes)).toBeGreaterThanOrEqual(200);
    expect(Math.max(...sample!.mito)).toBeLessThan(5);
    expect(sample!.recommended.geneRange[0]).toBe(200);
    expect(sample!.recommended.geneRange[1]).toBeGreaterThan(1000);
    expect(sample!.recommended.geneRange[1]).toBeLessThanOrEqual(2501);
    expect([5, 10, 15, 20, 30, 50]).toContain(sample!.recommended.mitochondrial);
    // Going back discards the evaluation.
    const back = await s.request('DELETE', `/api/drafts/${id}/cell-filtering`, { token });
    expect(back.body.data.draft.cellFilteringTaskStatus).toBe('notStarted');
    expect(await s.ctx.storage.list(`preprocess/${id}/`)).toEqual([]);
  });

  it('refuses an analysis above the worker memory budget up front, with a message saying what to do', async () => {
    const r = await s.request('POST', '/api/jobs', {
      token,
      body: { datasets: [{ id: uploadId, name: 'pbmc3k', group: 'g1' }], param: { jobName: 'too_big' } },
    });
    expect(r.status).toBe(200);
    expect(r.body.data.kind).toBe('custom');
    let job = r.body.data;
    for (let i = 0; i < 200 && job.status !== 'error'; i++) {
      await new Promise((res) => setTimeout(res, 250));
      job = (await s.request('GET', `/api/jobs/${job.id}`, { token })).body.data;
    }
    expect(job.status).toBe('error');
    expect(job.message).toMatch(
      /needs about \d+ MiB but a worker may use 512 MiB; select fewer samples or ask the administrator to raise WORKER_MEMORY_MB/,
    );
    // The same stored failure reads in the reader's language, in the job and in its notification.
    const zh = (await s.request('GET', `/api/jobs/${job.id}`, { token, lang: 'zh-CN' })).body.data;
    expect(zh.message).toMatch(/约需 \d+ MiB 内存，而计算节点上限为 512 MiB/);
    const notes = await s.request('GET', '/api/database-api/celeLens/user/notifications', {
      token,
      lang: 'zh-CN',
    });
    const failed = notes.body.data.rows.find((n: { jobId: string }) => n.jobId === job.id);
    expect(failed.params.message).toMatch(/计算节点上限为 512 MiB/);
    // Refused at once: no retry of a job that cannot fit.
    const [row] = await s.ctx.db.query<{ attempt: number }>(
      'SELECT attempt FROM analysis_jobs WHERE id = $1',
      [job.id],
    );
    expect(row!.attempt).toBe(0);
  });
});
