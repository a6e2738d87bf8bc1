import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tiffConversionStats } from '../src/services/explore/svg-to-tiff';
import { createTestServer, type TestServer } from './support/harness';
import { testUser } from './support/jobs';

/**
 * Issue 12, defect 7: svg-to-tiff cannot exhaust the API — output pixel area capped, conversions
 * run off the event loop with a concurrency cap, and a per-user rate limit.
 */
const svg = (w: number, h: number) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="${w}" height="${h}" fill="#09f"/></svg>`;

describe('security: svg-to-tiff limits', () => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s = await createTestServer();
    token = (await testUser(s)).token;
  });
  afterAll(() => s?.close());

  const convert = (body: string, t = token, lang: 'en-US' | 'zh-CN' = 'en-US') =>
    s.request('POST', `/api/user-files/svg-to-tiff?token=${encodeURIComponent(t)}`, {
      body: { svg: body },
      lang,
    });

  it('refuses an SVG whose TIFF would exceed the pixel cap (a 170-byte SVG 100000 px wide), translated', async () => {
    const tiny = svg(100000, 1);
    expect(tiny.length).toBeLessThan(200);
    const r = await convert(tiny);
    expect(r.status).toBe(400);
    expect(r.body.msg).toMatch(/too large to convert to TIFF/);
    const zh = await convert(svg(50000, 2), token, 'zh-CN');
    expect(zh.status).toBe(400);
    expect(zh.body.msg).toMatch(/图像过大/);
  });

  it('runs at most 2 conversions at once (4 concurrent requests), off the event loop', async () => {
    const before = tiffConversionStats().maxConcurrent;
    const rs = await Promise.all(Array.from({ length: 4 }, () => convert(svg(40, 30))));
    for (const r of rs) expect([200, 429]).toContain(r.status);
    expect(rs.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(2);
    const stats = tiffConversionStats();
    expect(stats.maxConcurrent).toBeLessThanOrEqual(2);
    expect(stats.maxConcurrent).toBeGreaterThanOrEqual(Math.max(1, before));
    expect(stats.inWorker).toBe(true);
  });

  it('limits conversions per user', async () => {
    const other = (await testUser(s)).token;
    let last = 0;
    for (let i = 0; i < 31; i++) last = (await convert('<svg nope', other)).status;
    expect(last).toBe(429);
  });
});
