import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from './support/harness';
import { testUser } from './support/jobs';

/** Wizard drafts (docs/product/entities.md#analysis-draft fields, resume at stepTag/pageTag), submission rules and the cell-filtering states. */
describe('wizard drafts and submission rules', () => {
  let s: TestServer;
  let token: string;

  beforeAll(async () => {
    s = await createTestServer({ WORKER_CONCURRENCY: '1' });
    ({ token } = await testUser(s));
  });
  afterAll(async () => {
    await s?.close();
  });

  const draft = (extra: Record<string, unknown> = {}) => ({
    stepTag: 3,
    pageTag: 'myAnalyzes',
    datasets: [{ id: 'no-such-upload', name: 'S1', group: 'G1' }],
    param: {
      jobName: 'my_job',
      cellFilteringEvaluation: 'evaluate',
      geneRange: [300, 4000],
      geneState: 'manual',
    },
    ...extra,
  });

  it('saves, lists, resumes and updates a draft with its step and defaults', async () => {
    const saved = await s.request('POST', '/api/drafts', { token, body: draft() });
    expect(saved.status).toBe(200);
    const id = saved.body.data.id as string;
    expect(saved.body.data.stepTag).toBe(3);
    const got = await s.request('GET', `/api/drafts/${id}`, { token });
    expect(got.body.data.draft.param.geneRange).toEqual([300, 4000]);
    expect(got.body.data.draft.param.umiRange).toEqual([0, 30000]);
    expect(got.body.data.draft.param.mitochondrial).toBe(50);
    expect(got.body.data.draft.cellFilteringTaskStatus).toBe('notStarted');
    const upd = await s.request('PUT', `/api/drafts/${id}`, { token, body: draft({ stepTag: 4 }) });
    expect(upd.body.data.stepTag).toBe(4);
    const list = await s.request('GET', '/api/drafts', { token });
    expect(list.body.data.map((d: { id: string }) => d.id)).toContain(id);
    expect((await s.request('DELETE', `/api/drafts/${id}`, { token })).status).toBe(200);
    expect((await s.request('GET', `/api/drafts/${id}`, { token })).status).toBe(404);
  });

  it('rejects unknown draft fields', async () => {
    const r = await s.request('POST', '/api/drafts', { token, body: { ...draft(), bogus: 1 } });
    expect(r.status).toBe(400);
  });

  it('runs the cell-filtering evaluation to failed (retry offered) for an unavailable sample, and going back resets it', async () => {
    const id = (await s.request('POST', '/api/drafts', { token, body: draft({ stepTag: 2 }) })).body.data
      .id as string;
    const started = await s.request('POST', `/api/drafts/${id}/cell-filtering`, { token });
    expect(started.body.data.draft.cellFilteringTaskStatus).toBe('running');
    let state = started.body.data.draft.cellFilteringTaskStatus as string;
    let message: string | null = null;
    for (let i = 0; i < 200 && state === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 200));
      const r = await s.request('GET', `/api/drafts/${id}/cell-filtering`, { token });
      state = r.body.data.status;
      message = r.body.data.message;
    }
    expect(state).toBe('failed');
    expect(message).toMatch(/no longer available/);
    const back = await s.request('DELETE', `/api/drafts/${id}/cell-filtering`, { token });
    expect(back.body.data.draft.cellFilteringTaskStatus).toBe('notStarted');
  });

  it('validates a submission with the docs/product/validation.md messages in the request language', async () => {
    const noName = await s.request('POST', '/api/jobs', {
      token,
      lang: 'en-US',
      body: draft({ param: { jobName: '' } }),
    });
    expect(noName.status).toBe(400);
    expect(noName.body.msg).toBe('Please fill in the job name');
    const digit = await s.request('POST', '/api/jobs', {
      token,
      lang: 'zh-CN',
      body: draft({ param: { jobName: '1job' } }),
    });
    expect(digit.body.msg).toContain('不能以数字或符号开头');
    const noSamples = await s.request('POST', '/api/jobs', {
      token,
      lang: 'en-US',
      body: draft({ datasets: [] }),
    });
    expect(noSamples.body.msg).toBe('Please select samples');
    const dupNames = await s.request('POST', '/api/jobs', {
      token,
      lang: 'en-US',
      body: draft({
        datasets: [
          { id: 'a', name: 'S1', group: 'G' },
          { id: 'b', name: 'S1', group: 'G' },
        ],
      }),
    });
    expect(dupNames.body.msg).toBe('name exists, please type another');
    const noGroup = await s.request('POST', '/api/jobs', {
      token,
      lang: 'en-US',
      body: draft({
        datasets: [
          { id: 'a', name: 'S1', group: '' },
          { id: 'b', name: 'S2', group: 'G' },
        ],
      }),
    });
    expect(noGroup.body.msg).toBe('Please fill in the sample group name');
    const unknown = await s.request('POST', '/api/jobs', { token, lang: 'en-US', body: draft() });
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toMatch(/not a Completed upload/);
  });
});
