import { accountPaths, contentPaths, DRAWING_MAX_BYTES, drawingsPath } from '@cellcloud/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quotaFor } from '../src/services/plans/quota';
import { createTestServer, TEST_DB, type TestServer } from './support/harness';
import { signUp } from './support/accounts';

describe(`content, region, quota and drawings on ${TEST_DB}`, () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await createTestServer({
      TRUST_PROXY: 'true',
      DEFAULT_COUNTRY: 'de',
      CN_DOMAIN: 'cellcloud.cn',
      INTL_DOMAIN: 'cellcloud.org',
      STORAGE_QUOTA_GB: '3',
    });
  });
  afterAll(async () => s?.close());

  it('lists the FAQ in both languages, in order', async () => {
    const r = await s.request('GET', contentPaths.faq);
    expect(r.status).toBe(200);
    expect(r.body.data.length).toBeGreaterThanOrEqual(6);
    const first = r.body.data[0];
    expect(first.question['en-US']).toBe('Which file formats can I import?');
    expect(first.question['zh-CN']).toBe('我可以导入哪些文件格式？');
    expect(first.answer['en-US']).toContain('.h5ad');
    const sorts = r.body.data.map((e: { sort: number }) => e.sort);
    expect(sorts).toEqual([...sorts].sort((a, b) => a - b));
  });

  it('lists documentation and guidebook entries by type', async () => {
    const docs = await s.request('GET', `${contentPaths.list}?type=documentation`);
    expect(docs.body.data.map((e: { id: string }) => e.id)).toContain('doc-import');
    expect(docs.body.data.every((e: { type: string }) => e.type === 'documentation')).toBe(true);
    const guide = await s.request('GET', `${contentPaths.list}?type=guidebook&docType=CN`);
    expect(guide.body.data[0]).toMatchObject({
      id: 'guide-start',
      title: { 'en-US': 'Getting started', 'zh-CN': '快速入门' },
    });
    expect(Date.parse(guide.body.data[0].updatedAt)).not.toBeNaN();
    expect((await s.request('GET', `${contentPaths.list}?type=videos`)).status).toBe(400);
  });

  it('serves the issue-22 guide: every chapter and page in both languages, FAQ from the error catalogue', async () => {
    type Entry = { id: string; title: Record<string, string>; body: Record<string, string> };
    const guide = (await s.request('GET', `${contentPaths.list}?type=guidebook`)).body.data as Entry[];
    const docs = (await s.request('GET', `${contentPaths.list}?type=documentation`)).body.data as Entry[];
    const ids = (xs: Entry[]) => xs.map((e) => e.id);
    expect(ids(guide).slice(0, 5)).toEqual([
      'guide-start',
      'guide-import',
      'guide-filtering',
      'guide-options',
      'guide-explore',
    ]);
    expect(ids(guide)).toContain('guide-downloads');
    for (const id of [
      'doc-import',
      'doc-analysis',
      'doc-explore',
      'doc-de-enrichment',
      'doc-cell-score',
      'doc-interaction',
      'doc-trajectory',
      'doc-cnv-ith',
      'doc-annotation',
      'doc-vdj-regulons',
    ]) {
      expect(ids(docs)).toContain(id);
    }
    // every chapter and page: Chinese in zh-CN, none in en-US
    for (const e of [...guide, ...docs]) {
      expect(e.title['zh-CN'], e.id).toMatch(/[\u4e00-\u9fff]/);
      expect(e.body['zh-CN'], e.id).toMatch(/[\u4e00-\u9fff]/);
      expect(e.body['en-US'], e.id).not.toMatch(/[\u4e00-\u9fff]/);
    }
    const options = guide.find((e) => e.id === 'guide-options')!;
    expect(options.body['en-US']).toContain('Cluster resolution');
    expect(options.body['zh-CN']).toContain('聚类分辨率');
    const faq = (await s.request('GET', contentPaths.faq)).body.data as {
      question: Record<string, string>;
      answer: Record<string, string>;
    }[];
    const errorFaq = faq.filter((f) => /Upload failed|MiB|Resource does not exist/.test(f.question['en-US']));
    expect(errorFaq.length).toBeGreaterThanOrEqual(4);
    for (const f of faq) {
      expect(f.question['zh-CN']).toMatch(/[\u4e00-\u9fff]/);
      expect(f.answer['zh-CN']).toMatch(/[\u4e00-\u9fff]/);
      expect(f.answer['en-US']).not.toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('pages the update log, newest first, in the request language', async () => {
    const p1 = await s.request('GET', `${contentPaths.updateLog}?pageNum=1&pageSize=2`, { lang: 'en-US' });
    expect(p1.body.data.total).toBe(4);
    expect(p1.body.data.rows).toHaveLength(2);
    expect(p1.body.data.rows[0]).toMatchObject({ logdate: '2026-11-21' });
    expect(p1.body.data.rows[0].info).toMatch(/^<p>Accounts:/);
    const p2 = await s.request('GET', `${contentPaths.updateLog}?pageNum=2&pageSize=2`, { lang: 'zh-CN' });
    expect(p2.body.data.rows[1].info).toMatch(/^<p>工程骨架/);
  });

  it('answers the region from the offline GeoIP data, honouring the trusted X-Forwarded-For', async () => {
    const at = (ip?: string) =>
      s
        .request('GET', accountPaths.criteriaIpAddress, ip ? { headers: { 'x-forwarded-for': ip } } : {})
        .then((r) => r.body.data);
    expect(await at('114.114.114.114')).toEqual({
      countryIsoCode: 'CN',
      domains: { cn: 'cellcloud.cn', global: 'cellcloud.org' },
    });
    expect((await at('8.8.8.8')).countryIsoCode).toBe('US');
    expect((await at('2001:4860:4860::8888')).countryIsoCode).toBe('US');
    expect((await at('192.168.1.20')).countryIsoCode).toBe('DE');
    expect((await at()).countryIsoCode).toBe('DE'); // loopback → DEFAULT_COUNTRY
  });

  it('ignores X-Forwarded-For without TRUST_PROXY', async () => {
    const plain = await createTestServer({ DEFAULT_COUNTRY: 'FR' });
    try {
      const r = await plain.request('GET', accountPaths.criteriaIpAddress, {
        headers: { 'x-forwarded-for': '114.114.114.114' },
      });
      expect(r.body.data).toEqual({ countryIsoCode: 'FR', domains: null });
    } finally {
      await plain.close();
    }
  });

  it('gives the storage quota of a user from the plan, else the instance default', async () => {
    const u = await signUp(s);
    const [row] = await s.ctx.db.query<{ id: string }>('SELECT id FROM users WHERE username = $1', [
      u.username,
    ]);
    expect(await quotaFor(s.ctx.db, s.ctx.config, row!.id)).toBe(3 * 1024 ** 3);
    await s.ctx.db.query(`UPDATE users SET plan_id = 'synecosys' WHERE id = $1`, [row!.id]);
    expect(await quotaFor(s.ctx.db, s.ctx.config, row!.id)).toBe(200 * 1024 ** 3);
    expect(await quotaFor(s.ctx.db, s.ctx.config, 'no-such-user')).toBe(3 * 1024 ** 3);
  });

  it('refuses a drawing over the size limit with a translated message', async () => {
    const u = await signUp(s);
    const big = { elements: [], appState: {}, files: { img: 'x'.repeat(DRAWING_MAX_BYTES) } };
    const r = await s.request('PUT', drawingsPath('app1'), { token: u.token, body: big, lang: 'en-US' });
    expect(r.status).toBe(400);
    expect(r.body.msg).toMatch(/^The drawing is too large \(5\.0 MB; the limit is 5\.0 MB\)/);
  });

  it('documents the account and content routes in the OpenAPI document', async () => {
    const doc = JSON.parse((await s.request('GET', '/api/openapi.json')).raw);
    for (const p of [
      accountPaths.login,
      accountPaths.register,
      accountPaths.info,
      contentPaths.faq,
      contentPaths.updateLog,
    ])
      expect(Object.keys(doc.paths)).toContain(p);
  });
  it('shows users no citation of a document CellCloud does not ship (0740)', async () => {
    let all = '';
    for (const type of ['documentation', 'guidebook'])
      for (const docType of ['CN', 'global']) {
        const r = await s.request('GET', `${contentPaths.list}?type=${type}&docType=${docType}`);
        expect(r.body.data.length).toBeGreaterThan(0);
        all += JSON.stringify(r.body.data);
      }
    expect(all).not.toMatch(/(METHODS|SPEC) §/);
    expect(all).toContain('CellPhoneDB v4 statistical method on a level');
    // the wizard's resolution is the contract's (docs/defaults.md)
    expect(all).toContain('Cluster resolution</td><td>0.5 (range');
    expect(all).toContain('聚类分辨率</td><td>0.5（范围');
    expect(all).toContain('细胞互作标签页在细胞类型层级上运行 CellPhoneDB v4 统计方法（支持人类数据');
  });
});
