import { sharedData } from '@cellcloud/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileFrom, uploadSample, waitParsed } from './files-helpers';
import { createTestServer, type TestServer } from './support/harness';
import { jobRow, testUser, waitJob } from './support/jobs';

const pbmc = sharedData('pbmc3k/10x');
const geneLists = sharedData('gene_ids');

/**
 * A real analysis through the queue: pbmc3k submitted from a wizard draft runs the engine in the
 * child process, reports progress, publishes its results atomically under `results/<jobId>/`
 * (analysis.h5ad, markers.csv, artifacts/) with no staging left behind; an identical submission
 * reuses that result at once; deleting the original keeps the files the copy still shows.
 */
describe.skipIf(!pbmc || !geneLists)('analysis job on pbmc3k', () => {
  let s: TestServer;
  let token: string;
  let uploadId: string;
  let firstId: string;
  const draft = () => ({
    datasets: [{ id: uploadId, name: 'pbmc3k', group: 'g1' }],
    param: { jobName: 'pbmc3k_run', cluster: 0.5 },
  });

  beforeAll(async () => {
    process.env.ENSEMBL_GENE_LISTS_DIR = geneLists;
    s = await createTestServer({ WORKER_CONCURRENCY: '1' });
    await s.listen();
    ({ token } = await testUser(s));
    const files = ['matrix.mtx.gz', 'genes.tsv.gz', 'barcodes.tsv.gz'].map((f) => fileFrom(`${pbmc}/${f}`));
    const up = await uploadSample(s, token, 'pbmc3k', files);
    expect((await waitParsed(s, token, up.id)).state).toBe('completed');
    uploadId = up.id;
  });
  afterAll(async () => {
    await s?.close();
  });

  it('runs to completed with progress and publishes the results atomically', async () => {
    const r = await s.request('POST', '/api/jobs', { token, body: draft() });
    expect(r.status).toBe(200);
    firstId = r.body.data.id;
    const running = await waitJob(
      s,
      token,
      firstId,
      (j) => j.status === 'running' && j.progress > 0.1,
      300_000,
    );
    expect(running.step).toBeTruthy();
    const done = await waitJob(
      s,
      token,
      firstId,
      (j) => j.status === 'completed' || j.status === 'error',
      600_000,
    );
    expect(done.message).toBeNull();
    expect(done.status).toBe('completed');
    expect(done.resultId).toBe(firstId);
    const keys = await s.ctx.storage.list(`results/${firstId}/`);
    expect(keys).toContain(`results/${firstId}/analysis.h5ad`);
    expect(keys).toContain(`results/${firstId}/markers.csv`);
    expect(keys.some((k) => k.startsWith(`results/${firstId}/artifacts/`))).toBe(true);
    expect(await s.ctx.storage.list(`tmp/results/${firstId}/`)).toEqual([]);
    expect((await jobRow(s, firstId)).completions).toBe(1);
  });

  it('reuses the result of an identical submission at once', async () => {
    const r = await s.request('POST', '/api/jobs', { token, body: draft() });
    expect(r.body.data.status).toBe('completed');
    expect(r.body.data.cached).toBe(true);
    expect(r.body.data.resultId).toBe(firstId);
    // A different parameter is a different analysis.
    const other = await s.request('POST', '/api/jobs', {
      token,
      body: { ...draft(), param: { jobName: 'pbmc3k_run', cluster: 1.1 } },
    });
    expect(other.body.data.cached).toBe(false);
    await s.request('POST', `/api/jobs/${other.body.data.id}/suspend`, { token });
    // Another user's identical data and parameters do not see this user's result.
    const other2 = await testUser(s);
    const files = ['matrix.mtx.gz', 'genes.tsv.gz', 'barcodes.tsv.gz'].map((f) => fileFrom(`${pbmc}/${f}`));
    const up2 = await uploadSample(s, other2.token, 'pbmc3k', files);
    expect((await waitParsed(s, other2.token, up2.id)).state).toBe('completed');
    const theirs = await s.request('POST', '/api/jobs', {
      token: other2.token,
      body: {
        datasets: [{ id: up2.id, name: 'pbmc3k', group: 'g1' }],
        param: { jobName: 'pbmc3k_run', cluster: 0.5 },
      },
    });
    expect(theirs.body.data.cached).toBe(false);
    await s.request('POST', `/api/jobs/${theirs.body.data.id}/suspend`, { token: other2.token });
    // Deleting the original keeps the files the cached copy still shows.
    expect((await s.request('DELETE', `/api/jobs/${firstId}`, { token })).status).toBe(200);
    expect(await s.ctx.storage.list(`results/${firstId}/`)).not.toEqual([]);
    expect((await s.request('GET', `/api/jobs/${firstId}`, { token })).status).toBe(404);
  });

  it('fails an analysis whose filters keep no cell at once, with the engine reason in both languages', async () => {
    const r = await s.request('POST', '/api/jobs', {
      token,
      body: {
        ...draft(),
        param: { jobName: 'no_cells_left', geneState: 'manual', geneRange: [20000, 30000] },
      },
    });
    expect(r.status).toBe(200);
    const failed = await waitJob(
      s,
      token,
      r.body.data.id,
      (j) => j.status === 'error' || j.status === 'completed',
      300_000,
    );
    expect(failed.status).toBe('error');
    expect(failed.message).toBe(
      'No cell of sample "pbmc3k" passes the cell filters; widen the gene, UMI or mitochondrial thresholds and submit again.',
    );
    const zh = (await s.request('GET', `/api/jobs/${failed.id}`, { token, lang: 'zh-CN' })).body.data;
    expect(zh.message).toBe('样本“pbmc3k”没有细胞通过细胞过滤；请放宽基因数、UMI 或线粒体阈值后重新提交。');
    // Deterministic engine errors are not retried.
    expect((await jobRow(s, failed.id)).attempt).toBeLessThanOrEqual(1);
  }, 320_000);
});
