import { readFileSync } from 'node:fs';
import { FILES_API } from '@cellcloud/contracts';
import { sharedData } from '@cellcloud/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  announce,
  fileFrom,
  tusSend,
  tusSendUntil,
  uploadSample,
  waitParsed,
  type FileToSend,
} from './files-helpers';
import { signUp } from './support/accounts';
import { createTestServer, type TestServer } from './support/harness';

/** Bad input gives a clear, translated reason; refusals; another user's ids are invisible. */
const v2 = sharedData('scanpy_bundled/10x_v2_chr21/matrix.mtx');
const v3 = sharedData('scanpy_bundled/10x_v3_small/matrix.mtx.gz');
const h5adScaled = sharedData('scanpy_bundled/10x_pbmc68k_reduced.h5ad');
const dir2 = 'scanpy_bundled/10x_v2_chr21';
const dir3 = 'scanpy_bundled/10x_v3_small';
const text = (name: string, s: string): FileToSend => ({ name, bytes: new TextEncoder().encode(s) });

describe.skipIf(!v2 || !v3 || !h5adScaled)('files: bad input, quota, traversal, ownership', () => {
  let s: TestServer;
  let token: string;
  let other: string;

  beforeAll(async () => {
    s = await createTestServer();
    await s.listen();
    token = (await signUp(s)).token;
    other = (await signUp(s)).token;
  });
  afterAll(() => s?.close());

  async function failWith(name: string, files: FileToSend[], kind: 'matrix' | 'annotated' = 'matrix') {
    const row = await uploadSample(s, token, name, files, kind);
    const done = await waitParsed(s, token, row.id);
    expect(done.state).toBe('failed');
    const zh = await waitParsed(s, token, row.id, 'zh-CN');
    return { en: done.failure!, zh: zh.failure! };
  }

  it('corrupt gzip', async () => {
    const bytes = new Uint8Array(readFileSync(v3!));
    for (let i = 2000; i < 2600; i++) bytes[i] = (bytes[i]! * 31 + 7) & 0xff;
    const f = await failWith('corrupt_gzip', [
      { name: 'matrix.mtx.gz', bytes },
      fileFrom(sharedData(`${dir3}/features.tsv.gz`)!),
      fileFrom(sharedData(`${dir3}/barcodes.tsv.gz`)!),
    ]);
    expect(f.en.code).toBe('format.gzip.corrupt');
    expect(f.en.message).toMatch(/matrix\.mtx\.gz: the gzip data is corrupt or incomplete/);
    expect(f.en.message).toMatch(/re-initiate from upload/);
    expect(f.en.retryable).toBe(false);
    expect(f.zh.message).toMatch(/gzip 数据损坏/);
  });

  it('truncated MTX', async () => {
    const full = readFileSync(v2!, 'utf8').split('\n');
    const f = await failWith('truncated_mtx', [
      text('matrix.mtx', full.slice(0, 8).join('\n') + '\n'),
      fileFrom(sharedData(`${dir2}/genes.tsv`)!),
      fileFrom(sharedData(`${dir2}/barcodes.tsv`)!),
    ]);
    expect(f.en.code).toBe('format.mtx.truncated');
    expect(f.en.message).toMatch(/truncated: the header declares 12 entries but only 5 were found/);
  });

  it('matrix/barcode count mismatch', async () => {
    const barcodes =
      readFileSync(sharedData(`${dir2}/barcodes.tsv`)!, 'utf8')
        .trim()
        .split('\n')
        .slice(0, 10)
        .join('\n') + '\n';
    const f = await failWith('barcode_mismatch', [
      fileFrom(v2!),
      fileFrom(sharedData(`${dir2}/genes.tsv`)!),
      text('barcodes.tsv', barcodes),
    ]);
    expect(f.en.code).toBe('format.mtx.barcode_count_mismatch');
    expect(f.en.message).toMatch(/12 cell columns but barcodes\.tsv lists 10 barcodes/);
  });

  it('non-count h5ad (scaled X, no raw counts)', async () => {
    const f = await failWith('scaled_h5ad', [fileFrom(h5adScaled!)], 'annotated');
    expect(f.en.code).toBe('format.h5ad.normalized_only');
    expect(f.en.message).toMatch(/no raw counts found/);
    expect(f.zh.message).toMatch(/未找到原始计数/);
  });

  it('path-traversal file names are refused when announced and in tus metadata', async () => {
    for (const name of ['../../etc/passwd', '/etc/passwd', 'a/../../b', 'evil\\..\\x.mtx']) {
      const r = await s.request('POST', FILES_API.uploads, {
        token,
        body: { sampleName: 'trav', kind: 'matrix', files: [{ name, size: 10 }] },
      });
      expect(r.status).toBe(400);
      expect(r.body.msg).toMatch(/is not allowed: it must not contain/);
    }
    const row = await announce(s, token, 'trav_tus', [text('matrix.mtx', 'x')]);
    await expect(
      tusSend(s.url!, token, row.files[0]!.slot, text('../../../escape.mtx', 'x')),
    ).rejects.toThrow(/is not allowed/);
  });

  it('sample names: SPEC rule and uniqueness messages', async () => {
    const bad = await s.request('POST', FILES_API.uploads, {
      token,
      body: { sampleName: '9lives', kind: 'matrix', files: [{ name: 'a.h5', size: 1 }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/start with a letter or underscore/);
    const zh = await s.request('POST', FILES_API.uploads, {
      token,
      lang: 'zh-CN',
      body: { sampleName: '样本', kind: 'matrix', files: [{ name: 'a.h5', size: 1 }] },
    });
    expect(zh.body.msg).toMatch(/须以字母或下划线开头/);
    await announce(s, token, 'dup_name', [text('a.h5', 'x')]);
    const dup = await s.request('POST', FILES_API.uploads, {
      token,
      body: { sampleName: 'dup_name', kind: 'matrix', files: [{ name: 'a.h5', size: 1 }] },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.msg).toBe('name exists, please type another');
    const free = await s.request('GET', `${FILES_API.checkName}?name=dup_name`, { token: other });
    expect(free.body.data.available).toBe(true);
  });

  it("another user's ids are 404 on every endpoint, tus included", async () => {
    const row = await announce(s, token, 'mine_only', [text('matrix.mtx', 'abc')]);
    for (const [m, url, body] of [
      ['GET', FILES_API.upload(row.id)],
      ['GET', FILES_API.properties(row.id)],
      ['PUT', FILES_API.upload(row.id), { sampleName: 'stolen' }],
      ['DELETE', FILES_API.upload(row.id)],
      ['POST', FILES_API.retry(row.id)],
    ] as const) {
      const r = await s.request(m, url, { token: other, body });
      expect(r.status, `${m} ${url}`).toBe(404);
      expect(r.body.msg).toBe('Resource does not exist');
    }
    await expect(tusSend(s.url!, other, row.files[0]!.slot, text('matrix.mtx', 'abc'))).rejects.toThrow(
      /404/,
    );
    const head = await fetch(`${s.url}${FILES_API.tus}/${row.files[0]!.slot}`, {
      method: 'HEAD',
      headers: { 'access-token': other, 'tus-resumable': '1.0.0' },
    });
    expect(head.status).toBe(404);
    expect((await s.request('GET', FILES_API.uploads, { token: other })).body.data.total).toBe(0);
    expect((await s.request('GET', FILES_API.upload(row.id), { token })).status).toBe(200);
    const notReady = await s.request('GET', FILES_API.properties(row.id), { token });
    expect(notReady.status).toBe(409);
    expect(notReady.body.msg).toBe(
      'File properties are available once parsing has completed (state: uploading).',
    );
  });

  it('deleting an unfinished upload removes its partial files', async () => {
    const bytes = new Uint8Array(readFileSync(v3!));
    const row = await announce(s, token, 'half_done', [{ name: 'matrix.mtx.gz', bytes }]);
    await tusSendUntil(
      s.url!,
      token,
      row.files[0]!.slot,
      { name: 'matrix.mtx.gz', bytes },
      16 * 1024,
      16 * 1024,
    );
    expect((await s.ctx.storage.list(`raw/${row.id}`)).length).toBeGreaterThan(0);
    expect((await s.request('DELETE', FILES_API.upload(row.id), { token })).status).toBe(200);
    expect(await s.ctx.storage.list(`raw/${row.id}`)).toEqual([]);
  });

  it('tus requires the access token', async () => {
    const r = await fetch(`${s.url}${FILES_API.tus}`, {
      method: 'POST',
      headers: { 'tus-resumable': '1.0.0', 'upload-length': '3' },
    });
    expect(r.status).toBe(401);
  });
});

describe.skipIf(!v2)('files: storage quota', () => {
  let s: TestServer;
  afterAll(() => s?.close());

  it('refuses an upload over quota with "Storage full" and accepts again after deleting', async () => {
    s = await createTestServer({ STORAGE_QUOTA_GB: String(40_000 / 1024 ** 3) });
    await s.listen();
    const { token } = await signUp(s);
    const files = [
      fileFrom(v2!),
      fileFrom(sharedData(`${dir2}/genes.tsv`)!),
      fileFrom(sharedData(`${dir2}/barcodes.tsv`)!),
    ];
    const first = await uploadSample(s, token, 'fits', files);
    expect((await waitParsed(s, token, first.id)).state).toBe('completed');
    const r = await s.request('POST', FILES_API.uploads, {
      token,
      body: { sampleName: 'too_much', kind: 'matrix', files: [{ name: 'big.h5', size: 30_000 }] },
    });
    expect(r.status).toBe(507);
    expect(r.body.msg).toMatch(/^Storage full/);
    const zh = await s.request('POST', FILES_API.uploads, {
      token,
      lang: 'zh-CN',
      body: { sampleName: 'too_much', kind: 'matrix', files: [{ name: 'big.h5', size: 30_000 }] },
    });
    expect(zh.status).toBe(507);
    expect((await s.request('DELETE', FILES_API.upload(first.id), { token })).status).toBe(200);
    const again = await s.request('POST', FILES_API.uploads, {
      token,
      body: { sampleName: 'too_much', kind: 'matrix', files: [{ name: 'big.h5', size: 30_000 }] },
    });
    expect(again.status).toBe(200);
  });

  it('refuses to start an analysis when storage is full', async () => {
    const q = await createTestServer({ STORAGE_QUOTA_GB: String(10_000 / 1024 ** 3) });
    try {
      await q.listen();
      const { token } = await signUp(q);
      const files = [
        fileFrom(v2!),
        fileFrom(sharedData(`${dir2}/genes.tsv`)!),
        fileFrom(sharedData(`${dir2}/barcodes.tsv`)!),
      ];
      const up = await uploadSample(q, token, 'fills_quota', files);
      expect((await waitParsed(q, token, up.id)).state).toBe('completed');
      const usage = await q.request('GET', FILES_API.usage, { token });
      expect(usage.body.data.usedBytes).toBeGreaterThan(10_000);
      const r = await q.request('POST', '/api/jobs', {
        token,
        lang: 'en-US',
        body: {
          stepTag: 4,
          pageTag: 'myAnalyzes',
          datasets: [{ id: up.id, name: 'S1', group: 'G1' }],
          param: { jobName: 'full_job' },
        },
      });
      expect(r.status).toBe(507);
      expect(r.body.msg).toMatch(/^Storage full/);
    } finally {
      await q.close();
    }
  });
});
