import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeGeneChunk, decodeGeneIndex, geneByteRange } from '@cellcloud/formats/artifacts-decode';
import { jobsRepo } from '../src/db/repos/jobs';
import { parseRange } from '../src/services/explore/range';
import { createTestServer, type TestServer } from './support/harness';
import { testUser } from './support/jobs';
import { completedJobWithArtifacts } from './support/explore';

describe('GET /api/user_datasets/{id}/artifacts/*', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof testUser>>;
  let other: Awaited<ReturnType<typeof testUser>>;
  let jobId: string;

  beforeAll(async () => {
    s = await createTestServer();
    owner = await testUser(s);
    other = await testUser(s);
    jobId = (await completedJobWithArtifacts(s, owner.user.id, { complete: false })).id;
  });
  afterAll(() => s?.close());

  it('refuses an analysis that has not completed, with a translated message', async () => {
    const r = await s.request('GET', `/api/user_datasets/${jobId}/artifacts/manifest.json`, {
      token: owner.token,
      lang: 'zh-CN',
    });
    expect(r.status).toBe(409);
    expect(r.body.msg).toContain('尚未完成');
  });

  it('serves the manifest and whole files to the owner once completed', async () => {
    await jobsRepo.setStatus(s.ctx.db, jobId, ['submitted'], 'completed');
    const r = await s.request('GET', `/api/user_datasets/${jobId}/artifacts/manifest.json`, {
      token: owner.token,
    });
    expect(r.status).toBe(200);
    const manifest = JSON.parse(r.raw) as {
      nCells: number;
      layers: { name: string; index: string; data: string }[];
    };
    expect(manifest.nCells).toBe(4);
    // the manifest is assembled per request (it merges the completed tasks' per-cell columns), so
    // it is not cached; the binary files are served with Range support
    expect(r.headers['cache-control']).toBe('no-store');
    const bin = await s.request('GET', `/api/user_datasets/${jobId}/artifacts/${manifest.layers[0]!.index}`, {
      token: owner.token,
    });
    expect(bin.status).toBe(200);
    expect(bin.headers['accept-ranges']).toBe('bytes');
  });

  it('answers a Range request for one gene chunk with 206 and exactly those bytes', async () => {
    await s.listen();
    const base = `${s.url}/api/user_datasets/${jobId}/artifacts/`;
    const idx = decodeGeneIndex(
      new Uint8Array(
        await (
          await fetch(`${base}expr/counts.idx`, { headers: { 'access-token': owner.token } })
        ).arrayBuffer(),
      ),
    );
    const { offset, length } = geneByteRange(idx, 2);
    const res = await fetch(`${base}expr/counts.bin`, {
      headers: { 'access-token': owner.token, range: `bytes=${offset}-${offset + length - 1}` },
    });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toMatch(
      new RegExp(`^bytes ${offset}-${offset + length - 1}/\\d+$`),
    );
    const chunk = decodeGeneChunk(new Uint8Array(await res.arrayBuffer()));
    expect(Array.from(chunk.cells)).toEqual([1, 3]);
    expect(Array.from(chunk.values)).toEqual([7, 2]);
  });

  it('hides other users’ results and needs a token', async () => {
    expect(
      (await s.request('GET', `/api/user_datasets/${jobId}/artifacts/manifest.json`, { token: other.token }))
        .status,
    ).toBe(404);
    expect((await s.request('GET', `/api/user_datasets/${jobId}/artifacts/manifest.json`)).status).toBe(401);
  });

  it('refuses paths leaving the artifacts and reports missing files', async () => {
    expect(
      (
        await s.request('GET', `/api/user_datasets/${jobId}/artifacts/a%2F..%2F..%2Fsecret`, {
          token: owner.token,
        })
      ).status,
    ).toBe(400);
    expect(
      (await s.request('GET', `/api/user_datasets/${jobId}/artifacts/obs/nope.u16`, { token: owner.token }))
        .status,
    ).toBe(404);
  });
});

describe('HTTP Range parsing', () => {
  it('handles a-b, a- and -n ranges and refuses unsatisfiable ones', () => {
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=95-200', 100)).toEqual({ start: 95, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRange(undefined, 100)).toBeNull();
  });
});
