import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { ROUTES } from '@cellcloud/contracts/api-paths';
import { DOWNLOADS_API, type DownloadView } from '@cellcloud/contracts/downloads';
import { unzip } from '@cellcloud/formats/archive';
import { writeH5ad } from '@cellcloud/formats/write-h5ad';
import { expireDownloads } from '../src/completion/download-expiry';
import { createTestServer, type TestServer } from './support/harness';
import { testUser } from './support/jobs';
import { completedJobWithArtifacts } from './support/explore';

/**
 * Issue 21: requested downloads end to end on the real API + in-process worker — auto-approval
 * with "download free file", the admin's approve / decline with notifications, the export job
 * (h5ad, Seurat bundle, markers), signed links with Range, expiry (clock moved) deleting the file,
 * other users' ids 404 and tampered / expired links 403 with a translated message.
 */
describe('requested downloads', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof testUser>>;
  let limited: Awaited<ReturnType<typeof testUser>>;
  let admin: Awaited<ReturnType<typeof testUser>>;
  let ownerJob: string;
  let limitedJob: string;

  /** A completed job whose result holds a real small analysis.h5ad (4 cells × 3 genes) and markers.csv. */
  async function jobWithH5ad(userId: string): Promise<string> {
    const job = await completedJobWithArtifacts(s, userId);
    const counts = {
      nGenes: 3,
      nCells: 4,
      indptr: Float64Array.from([0, 1, 3, 3, 4]),
      indices: Uint32Array.from([0, 0, 2, 2]),
      data: Float32Array.from([5, 1, 7, 2]),
    };
    const bytes = await writeH5ad({
      counts,
      genes: { ids: ['G1', 'G2', 'G3'], symbols: ['CD3D', 'MS4A1', 'LYZ'] },
      barcodes: ['AAA-1', 'CCC-1', 'GGG-1', 'TTT-1'],
      obs: {
        cluster: { kind: 'categorical', values: ['0', '1', '1', '0'] },
        n_counts: { kind: 'numeric', values: Float64Array.from([5, 8, 0, 2]) },
      },
      obsm: { X_umap: { dims: 2, values: Float32Array.from([0, 0, 1, 1, 2, 2, 3, 3]) } },
    });
    await s.ctx.storage.put(`results/${job.id}/analysis.h5ad`, bytes);
    await s.ctx.storage.put(
      `results/${job.id}/markers.csv`,
      new TextEncoder().encode('cluster,gene\n0,CD3D\n'),
    );
    return job.id;
  }

  async function waitReady(token: string, id: string): Promise<DownloadView> {
    for (let i = 0; i < 300; i++) {
      const v = (await s.request('GET', DOWNLOADS_API.one(id), { token })).body.data as DownloadView;
      if (v.exportState === 'ready' || v.exportState === 'failed') return v;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('export did not finish');
  }

  beforeAll(async () => {
    s = await createTestServer();
    await s.listen();
    owner = await testUser(s);
    limited = await testUser(s);
    admin = await testUser(s);
    await s.ctx.db.query(`UPDATE users SET plan_id = 'readonly' WHERE id = $1`, [limited.user.id]);
    await s.ctx.db.query(`UPDATE users SET is_admin = true WHERE id = $1`, [admin.user.id]);
    ownerJob = await jobWithH5ad(owner.user.id);
    limitedJob = await jobWithH5ad(limited.user.id);
  });
  afterAll(() => s?.close());

  it('approves at once with "download free file", exports the h5ad and serves it by a signed link with Range', async () => {
    const r = await s.request('POST', DOWNLOADS_API.create, {
      token: owner.token,
      body: { datasetId: ownerJob, kind: 'h5ad' },
    });
    expect(r.status).toBe(200);
    expect(r.body.data.status).toBe('approved');
    const v = await waitReady(owner.token, r.body.data.id);
    expect(v.exportState).toBe('ready');
    expect(v.url).toMatch(/^\/api\/downloads\/.+\/file\?exp=\d+&sig=/);
    const whole = await fetch(`${s.url}${v.url}`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('application/x-hdf5');
    const bytes = new Uint8Array(await whole.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 8)).toString('latin1')).toBe('\x89HDF\r\n\x1a\n');
    const part = await fetch(`${s.url}${v.url}`, { headers: { range: 'bytes=8-15' } });
    expect(part.status).toBe(206);
    expect(Array.from(new Uint8Array(await part.arrayBuffer()))).toEqual(Array.from(bytes.subarray(8, 16)));
    // expiry is 7 days (DOWNLOAD_VALID_DAYS) after the file was ready
    const days = (Date.parse(v.expiresAt!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    const notes = await s.request('GET', ROUTES.notifications.base, { token: owner.token });
    expect(JSON.stringify(notes.body.data)).toContain('download.ready');
    const active = await s.request('GET', `${DOWNLOADS_API.list}?tab=active`, { token: owner.token });
    expect((active.body.data as DownloadView[]).map((d) => d.id)).toContain(v.id);
  });

  it('builds a Seurat bundle: counts and normalized MTX, metadata, embeddings and the R snippet', async () => {
    const r = await s.request('POST', DOWNLOADS_API.create, {
      token: owner.token,
      body: { datasetId: ownerJob, kind: 'seurat' },
    });
    const v = await waitReady(owner.token, r.body.data.id);
    const entries = unzip(
      new Uint8Array(await (await fetch(`${s.url}${v.url}`)).arrayBuffer()),
      'bundle.zip',
    );
    const zip: Record<string, Uint8Array> = {};
    for (const e of entries) zip[e.name] = await e.read(0, e.size);
    expect(Object.keys(zip).sort()).toEqual(
      [
        'counts/barcodes.tsv.gz',
        'counts/features.tsv.gz',
        'counts/matrix.mtx.gz',
        'embeddings.csv',
        'load_seurat.R',
        'metadata.csv',
        'normalized/barcodes.tsv.gz',
        'normalized/features.tsv.gz',
        'normalized/matrix.mtx.gz',
      ].sort(),
    );
    const text = (k: string) => new TextDecoder().decode(k.endsWith('.gz') ? gunzipSync(zip[k]!) : zip[k]!);
    expect(text('counts/matrix.mtx.gz')).toMatch(
      /^%%MatrixMarket matrix coordinate integer general\n%\n3 4 4\n/,
    );
    expect(text('normalized/matrix.mtx.gz')).toMatch(/^%%MatrixMarket matrix coordinate real general/);
    // cell 2 (CCC-1) has counts 1 (CD3D) and 7 (LYZ): log1p(1 / 8 · 1e4)
    expect(text('normalized/matrix.mtx.gz')).toContain(`1 2 ${Math.round(Math.log1p(1e4 / 8) * 1e6) / 1e6}`);
    expect(text('metadata.csv').split('\n').slice(0, 2)).toEqual(['barcode,cluster,n_counts', 'AAA-1,0,5']);
    expect(text('embeddings.csv').split('\n')[0]).toBe('barcode,umap_1,umap_2');
    expect(text('load_seurat.R')).toContain('CreateSeuratObject');
  });

  it('waits for an administrator without the privilege; approve and decline notify the user', async () => {
    const a = await s.request('POST', DOWNLOADS_API.create, {
      token: limited.token,
      body: { datasetId: limitedJob, kind: 'h5ad' },
    });
    const b = await s.request('POST', DOWNLOADS_API.create, {
      token: limited.token,
      body: { datasetId: limitedJob, kind: 'markers' },
    });
    expect(a.body.data.status).toBe('pending');
    expect(a.body.data.url).toBeNull();
    // only an administrator sees the queue and decides
    expect((await s.request('GET', DOWNLOADS_API.adminList, { token: limited.token })).status).toBe(403);
    const queue = await s.request('GET', DOWNLOADS_API.adminList, { token: admin.token });
    expect((queue.body.data as DownloadView[]).map((d) => d.id)).toEqual(
      expect.arrayContaining([a.body.data.id, b.body.data.id]),
    );
    expect(
      (await s.request('POST', DOWNLOADS_API.approve(a.body.data.id), { token: limited.token })).status,
    ).toBe(403);
    expect(
      (await s.request('POST', DOWNLOADS_API.approve(a.body.data.id), { token: admin.token })).status,
    ).toBe(200);
    expect(
      (await s.request('POST', DOWNLOADS_API.approve(a.body.data.id), { token: admin.token })).status,
    ).toBe(409);
    const declined = await s.request('POST', DOWNLOADS_API.decline(b.body.data.id), {
      token: admin.token,
      body: { reason: 'Licence of the source data' },
    });
    expect(declined.body.data.status).toBe('declined');
    const v = await waitReady(limited.token, a.body.data.id);
    expect(v.url).not.toBeNull();
    const requested = (
      await s.request('GET', `${DOWNLOADS_API.list}?tab=requested`, { token: limited.token })
    ).body.data as DownloadView[];
    expect(requested.find((d) => d.id === b.body.data.id)?.declineReason).toBe('Licence of the source data');
    const notes = JSON.stringify(
      (await s.request('GET', ROUTES.notifications.base, { token: limited.token })).body.data,
    );
    expect(notes).toContain('download.declined');
    expect(notes).toContain('Licence of the source data');
    expect(notes).toContain('download.ready');
  });

  it("hides other users' requests (404) and refuses tampered and expired links (403, translated)", async () => {
    const r = await s.request('POST', DOWNLOADS_API.create, {
      token: owner.token,
      body: { datasetId: ownerJob, kind: 'markers' },
    });
    const v = await waitReady(owner.token, r.body.data.id);
    expect((await s.request('GET', DOWNLOADS_API.one(v.id), { token: limited.token })).status).toBe(404);
    expect(
      (
        await s.request('POST', DOWNLOADS_API.create, {
          token: limited.token,
          body: { datasetId: ownerJob, kind: 'h5ad' },
        })
      ).status,
    ).toBe(404);
    expect((await s.request('GET', DOWNLOADS_API.one(v.id))).status).toBe(401);
    const tampered = v.url!.replace(/sig=./, (m) => (m.endsWith('A') ? 'sig=B' : 'sig=A'));
    const bad = await s.request('GET', tampered, { lang: 'zh-CN' });
    expect(bad.status).toBe(403);
    expect(bad.body.msg).toContain('下载链接无效');
    const longer = v.url!.replace(/exp=(\d+)/, (_, e: string) => `exp=${Number(e) + 3600}`);
    expect((await s.request('GET', longer)).status).toBe(403);
  });

  it('expires after its validity: the file is deleted, the request moves to Expired, the user is notified', async () => {
    const r = await s.request('POST', DOWNLOADS_API.create, {
      token: owner.token,
      body: { datasetId: ownerJob, kind: 'h5ad' },
    });
    const v = await waitReady(owner.token, r.body.data.id);
    const key = `downloads/${v.id}/${v.fileName}`;
    expect(await s.ctx.storage.stat(key)).toBeDefined();
    // the clock moves 8 days on
    const expired = await expireDownloads(s.ctx, new Date(Date.now() + 8 * 86_400_000));
    expect(expired).toBeGreaterThanOrEqual(1);
    expect(await s.ctx.storage.stat(key)).toBeUndefined();
    const tab = (await s.request('GET', `${DOWNLOADS_API.list}?tab=expired`, { token: owner.token })).body
      .data as DownloadView[];
    expect(tab.find((d) => d.id === v.id)?.status).toBe('expired');
    const gone = await s.request('GET', v.url!, { lang: 'en-US' });
    expect(gone.status).toBe(403);
    expect(
      JSON.stringify((await s.request('GET', ROUTES.notifications.base, { token: owner.token })).body.data),
    ).toContain('download.expired');
  });

  it("a shared analysis is downloaded on its owner's plan (issue 35)", async () => {
    const share = (job: string, by: typeof owner, to: typeof owner) =>
      s.request('POST', `/api/user_datasets/${job}/shares`, {
        token: by.token,
        body: { user: to.user.username, role: 'viewer' },
      });
    const ask = (job: string, who: typeof owner) =>
      s.request('POST', DOWNLOADS_API.create, {
        token: who.token,
        body: { datasetId: job, kind: 'markers' },
      });
    // the owner's plan gives files at once: so does the share, to a viewer whose own plan does not
    expect((await share(ownerJob, owner, limited)).status).toBe(200);
    const given = await ask(ownerJob, limited);
    expect(given.status).toBe(200);
    expect(given.body.data.status).toBe('approved');
    // the owner's plan waits for an administrator: so does a viewer whose own plan would not
    expect((await share(limitedJob, limited, owner)).status).toBe(200);
    const waits = await ask(limitedJob, owner);
    expect(waits.status).toBe(200);
    expect(waits.body.data.status).toBe('pending');
  });
});
