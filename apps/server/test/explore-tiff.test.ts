import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createTestServer, type TestServer } from './support/harness';
import { testUser } from './support/jobs';

const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="#fff"/><circle cx="200" cy="150" r="80" fill="#d62728"/></svg>';

describe('SVG → TIFF export (POST /api/user-files/svg-to-tiff?token=…)', () => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s = await createTestServer();
    token = (await testUser(s)).token;
    await s.listen();
  });
  afterAll(() => s?.close());

  it('converts an SVG chart to a TIFF at least 4200 px high, token in the query', async () => {
    const res = await fetch(`${s.url}/api/user-files/svg-to-tiff?token=${encodeURIComponent(token)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ svg: SVG, fileName: 'umap' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/tiff');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Array.from(bytes.slice(0, 4))).toEqual([0x49, 0x49, 0x2a, 0x00]); // little-endian TIFF
    const meta = await sharp(bytes).metadata();
    expect(meta.format).toBe('tiff');
    expect(meta.height).toBeGreaterThanOrEqual(4200);
    expect(meta.width).toBe(Math.round((meta.height! * 400) / 300));
  });

  it('refuses without a token and explains a broken SVG in both languages', async () => {
    expect((await s.request('POST', '/api/user-files/svg-to-tiff', { body: { svg: SVG } })).status).toBe(401);
    const bad = await s.request('POST', `/api/user-files/svg-to-tiff?token=${token}`, {
      body: { svg: '<svg nope' },
      lang: 'zh-CN',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('无法转换为 TIFF');
  });
});
