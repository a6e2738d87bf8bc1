import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONTENT_ADMIN_API,
  VIDEO_MAX_BYTES,
  VIDEOS_API,
  type AuthoredItem,
  type VideoView,
} from '@cellcloud/contracts/admin-content';
import type { AdminAuditView, AdminStorageView } from '@cellcloud/contracts/admin';
import { ADMIN_API } from '@cellcloud/contracts/admin';
import { contentPaths, type FaqEntry, type ContentEntry } from '@cellcloud/contracts';
import { videoKey } from '../src/storage/keys';
import { startS3, type TestS3 } from './files-s3rver';
import { signUp } from './support/accounts';
import { createTestServer, type TestServer } from './support/harness';

const NOTIFICATIONS = '/api/database-api/celeLens/user/notifications';

/**
 * A WebM file's bytes: the EBML header (DocType "webm") followed by filler. The server checks the
 * container signature only; the browser test plays a real recorded video.
 */
function webmBytes(size: number): Buffer {
  const header = Buffer.from([
    0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0xf7, 0x81, 0x01, 0x42, 0xf2, 0x81, 0x04,
    0x42, 0xf3, 0x81, 0x08, 0x42, 0x82, 0x84, 0x77, 0x65, 0x62, 0x6d, 0x42, 0x87, 0x81, 0x02, 0x42, 0x85,
    0x81, 0x02,
  ]);
  const out = Buffer.alloc(size);
  header.copy(out);
  for (let i = header.length; i < size; i++) out[i] = (i * 7) & 0xff;
  return out;
}

/**
 * Issue 21 content authoring on a real server: admin-only routes (401 / 403), FAQ /
 * documentation / guidebook / update-log CRUD and reorder visible at once on the public calls,
 * bilingual validation with translated messages, tutorial video upload (type and size checks)
 * streamed back with HTTP Range, system notifications reaching every user, all audited.
 */
describe('admin content authoring API', () => {
  let s: TestServer;
  let admin: Awaited<ReturnType<typeof signUp>>;
  let user: Awaited<ReturnType<typeof signUp>>;

  beforeAll(async () => {
    s = await createTestServer();
    admin = await signUp(s);
    user = await signUp(s);
    await s.ctx.db.query('UPDATE users SET is_admin = true WHERE username = $1', [admin.username]);
  });
  afterAll(() => s?.close());

  const upload = (body: Buffer, type: string, token = admin.token, title = 'Intro') =>
    s.app.inject({
      method: 'POST',
      url: `${CONTENT_ADMIN_API.videos}?titleEn=${encodeURIComponent(title)}&titleZh=${encodeURIComponent('入门')}`,
      headers: { 'access-token': token, 'content-type': type, 'x-lang': 'zh-CN' },
      payload: body,
    });

  it('answers 401 without a token and 403 to a non-admin', async () => {
    const calls: [string, string, unknown][] = [
      ['GET', CONTENT_ADMIN_API.list('faq'), undefined],
      [
        'POST',
        CONTENT_ADMIN_API.list('faq'),
        { title: { 'en-US': 'q', 'zh-CN': '问' }, body: { 'en-US': 'a', 'zh-CN': '答' } },
      ],
      ['PUT', CONTENT_ADMIN_API.order('faq'), { ids: ['faq-formats'] }],
      ['DELETE', CONTENT_ADMIN_API.item('faq', 'faq-formats'), undefined],
      [
        'POST',
        CONTENT_ADMIN_API.notify,
        { title: { 'en-US': 't', 'zh-CN': '题' }, body: { 'en-US': 'b', 'zh-CN': '文' } },
      ],
      ['DELETE', CONTENT_ADMIN_API.video('x'), undefined],
    ];
    for (const [method, url, body] of calls) {
      expect((await s.request(method, url, { body })).status).toBe(401);
      expect((await s.request(method, url, { body, token: user.token })).status).toBe(403);
    }
    expect((await upload(webmBytes(100), 'video/webm', user.token)).statusCode).toBe(403);
    // nothing changed: the seeded FAQ entry is still there
    const faq = (await s.request('GET', contentPaths.faq)).body.data as FaqEntry[];
    expect(faq.some((f) => f.id === 'faq-formats')).toBe(true);
  });

  it('creates, edits, reorders and deletes FAQ entries; the public FAQ follows at once', async () => {
    const body = {
      title: { 'en-US': 'Can I share a result?', 'zh-CN': '可以分享结果吗？' },
      body: { 'en-US': '<p>Not yet.</p>', 'zh-CN': '<p>暂不支持。</p>' },
    };
    const c = await s.request('POST', CONTENT_ADMIN_API.list('faq'), { token: admin.token, body });
    expect(c.status).toBe(200);
    const created = c.body.data as AuthoredItem;
    expect(created.id).toMatch(/^faq-/);
    let faq = (await s.request('GET', contentPaths.faq)).body.data as FaqEntry[];
    expect(faq.at(-1)).toMatchObject({ id: created.id, question: body.title, answer: body.body });

    const edited = {
      ...body,
      body: { 'en-US': '<p>Yes, as a download.</p>', 'zh-CN': '<p>可以，通过下载。</p>' },
    };
    const u = await s.request('PUT', CONTENT_ADMIN_API.item('faq', created.id), {
      token: admin.token,
      body: edited,
    });
    expect((u.body.data as AuthoredItem).body['zh-CN']).toBe('<p>可以，通过下载。</p>');

    const ids = faq.map((f) => f.id);
    const order = [created.id, ...ids.filter((id) => id !== created.id)];
    const r = await s.request('PUT', CONTENT_ADMIN_API.order('faq'), {
      token: admin.token,
      body: { ids: order },
    });
    expect((r.body.data as AuthoredItem[]).map((x) => x.id)).toEqual(order);
    faq = (await s.request('GET', contentPaths.faq)).body.data as FaqEntry[];
    expect(faq[0]).toMatchObject({ id: created.id, answer: edited.body });

    expect(
      (await s.request('DELETE', CONTENT_ADMIN_API.item('faq', created.id), { token: admin.token })).status,
    ).toBe(200);
    faq = (await s.request('GET', contentPaths.faq)).body.data as FaqEntry[];
    expect(faq.map((f) => f.id)).not.toContain(created.id);
    expect(
      (await s.request('DELETE', CONTENT_ADMIN_API.item('faq', created.id), { token: admin.token })).status,
    ).toBe(404);
  });

  it('authors documentation (with its documentation type), guidebook chapters and update-log entries', async () => {
    const doc = await s.request('POST', CONTENT_ADMIN_API.list('documentation'), {
      token: admin.token,
      body: {
        title: { 'en-US': 'Mainland mirror', 'zh-CN': '国内镜像' },
        body: { 'en-US': '<p>Only for CN.</p>', 'zh-CN': '<p>仅国内。</p>' },
        docType: 'CN',
      },
    });
    const d = doc.body.data as AuthoredItem;
    expect(d).toMatchObject({ docType: 'CN' });
    const list = (docType: string) =>
      s
        .request('GET', `${contentPaths.list}?type=documentation&docType=${docType}`)
        .then((r) => (r.body.data as ContentEntry[]).map((e) => e.id));
    expect(await list('CN')).toContain(d.id);
    expect(await list('global')).not.toContain(d.id);

    const g = await s.request('POST', CONTENT_ADMIN_API.list('guidebook'), {
      token: admin.token,
      body: {
        title: { 'en-US': 'Sharing', 'zh-CN': '分享' },
        body: { 'en-US': '<p>x</p>', 'zh-CN': '<p>x</p>' },
      },
    });
    const guide = (await s.request('GET', `${contentPaths.list}?type=guidebook`)).body.data as ContentEntry[];
    expect(guide.at(-1)!.id).toBe((g.body.data as AuthoredItem).id);

    const log = await s.request('POST', CONTENT_ADMIN_API.list('updateLog'), {
      token: admin.token,
      body: { date: '2099-01-02', body: { 'en-US': 'Tutorial videos', 'zh-CN': '教学视频' } },
    });
    expect(log.status).toBe(200);
    const logId = (log.body.data as AuthoredItem).id;
    const page = await s.request('GET', `${contentPaths.updateLog}?pageNum=1&pageSize=10`, { lang: 'zh-CN' });
    expect(page.body.data.rows[0]).toEqual({ logdate: '2099-01-02', info: '教学视频' });
    const moved = await s.request('PUT', CONTENT_ADMIN_API.item('updateLog', logId), {
      token: admin.token,
      body: { date: '2000-01-01', body: { 'en-US': 'Old', 'zh-CN': '旧' } },
    });
    expect((moved.body.data as AuthoredItem).date).toBe('2000-01-01');
    // update-log entries are ordered by date, not by hand
    const bad = await s.request('PUT', CONTENT_ADMIN_API.order('updateLog'), {
      token: admin.token,
      lang: 'zh-CN',
      body: { ids: [logId] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('更新日志条目按日期排序。');
  });

  it('keeps Markdown as written and answers HTML on the public pages and the preview', async () => {
    const md = {
      'en-US': 'Use **Seurat** bundles:\n\n- counts\n- `load_seurat.R`',
      'zh-CN': '使用 **Seurat** 数据包',
    };
    const c = await s.request('POST', CONTENT_ADMIN_API.list('faq'), {
      token: admin.token,
      body: { title: { 'en-US': 'Seurat?', 'zh-CN': 'Seurat？' }, body: md, format: 'markdown' },
    });
    const item = c.body.data as AuthoredItem;
    expect(item).toMatchObject({ format: 'markdown', body: md });
    const faq = (await s.request('GET', contentPaths.faq)).body.data as FaqEntry[];
    const pub = faq.find((f) => f.id === item.id)!;
    expect(pub.answer['en-US']).toBe(
      '<p>Use <strong>Seurat</strong> bundles:</p>\n<ul>\n<li>counts</li>\n<li><code>load_seurat.R</code></li>\n</ul>\n',
    );
    expect(pub.answer['zh-CN']).toBe('<p>使用 <strong>Seurat</strong> 数据包</p>\n');
    const p = await s.request('POST', CONTENT_ADMIN_API.preview, {
      token: admin.token,
      body: { text: md['en-US'], format: 'markdown' },
    });
    expect(p.body.data.html).toBe(pub.answer['en-US']);
    expect(
      (
        await s.request('POST', CONTENT_ADMIN_API.preview, {
          token: user.token,
          body: { text: 'x', format: 'html' },
        })
      ).status,
    ).toBe(403);
    // switching the entry to HTML serves the text as written
    await s.request('PUT', CONTENT_ADMIN_API.item('faq', item.id), {
      token: admin.token,
      body: {
        title: { 'en-US': 'Seurat?', 'zh-CN': 'Seurat？' },
        body: { 'en-US': '<i>x</i>', 'zh-CN': '<i>y</i>' },
        format: 'html',
      },
    });
    const again = (await s.request('GET', contentPaths.faq)).body.data as FaqEntry[];
    expect(again.find((f) => f.id === item.id)!.answer).toEqual({ 'en-US': '<i>x</i>', 'zh-CN': '<i>y</i>' });
    await s.request('DELETE', CONTENT_ADMIN_API.item('faq', item.id), { token: admin.token });
  });

  it('refuses an entry missing one language with a translated message, changing nothing', async () => {
    const before = ((await s.request('GET', contentPaths.faq)).body.data as FaqEntry[]).length;
    const r = await s.request('POST', CONTENT_ADMIN_API.list('faq'), {
      token: admin.token,
      lang: 'zh-CN',
      body: { title: { 'en-US': 'Only English', 'zh-CN': ' ' }, body: { 'en-US': 'a', 'zh-CN': '答' } },
    });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('标题须填写中英文两种语言。');
    expect(((await s.request('GET', contentPaths.faq)).body.data as FaqEntry[]).length).toBe(before);
  });

  it('uploads a tutorial video, streams it with Range, renames, reorders and deletes it', async () => {
    expect((await s.request('GET', VIDEOS_API.list)).body.data).toEqual([]);
    const bytes = webmBytes(64 * 1024);
    const up = await upload(bytes, 'video/webm');
    expect(up.statusCode).toBe(200);
    const v = up.json<{ data: VideoView }>().data;
    expect(v).toMatchObject({
      mime: 'video/webm',
      size: bytes.length,
      title: { 'en-US': 'Intro', 'zh-CN': '入门' },
    });
    const second = (await upload(webmBytes(2000), 'video/webm', admin.token, 'Second')).json<{
      data: VideoView;
    }>().data;
    expect(((await s.request('GET', VIDEOS_API.list)).body.data as VideoView[]).map((x) => x.id)).toEqual([
      v.id,
      second.id,
    ]);
    // the admin storage tab counts them as videos, outside every user's row
    const storage = async () =>
      (await s.request('GET', ADMIN_API.storage, { token: admin.token })).body.data as AdminStorageView;
    expect((await storage()).totals.videos).toBe(v.size + second.size);

    const full = await s.app.inject({ method: 'GET', url: VIDEOS_API.file(v.id) });
    expect(full.statusCode).toBe(200);
    expect(full.headers['content-type']).toBe('video/webm');
    expect(full.headers['accept-ranges']).toBe('bytes');
    expect(Buffer.compare(full.rawPayload, bytes)).toBe(0);
    const part = await s.app.inject({
      method: 'GET',
      url: VIDEOS_API.file(v.id),
      headers: { range: 'bytes=1000-1999' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1000-1999/${bytes.length}`);
    expect(Buffer.compare(part.rawPayload, bytes.subarray(1000, 2000))).toBe(0);
    const tail = await s.app.inject({
      method: 'GET',
      url: VIDEOS_API.file(v.id),
      headers: { range: 'bytes=-10' },
    });
    expect(Buffer.compare(tail.rawPayload, bytes.subarray(bytes.length - 10))).toBe(0);

    const renamed = await s.request('PUT', CONTENT_ADMIN_API.video(v.id), {
      token: admin.token,
      body: { title: { 'en-US': 'Getting started', 'zh-CN': '快速入门' } },
    });
    expect((renamed.body.data as VideoView).title['en-US']).toBe('Getting started');
    const ord = await s.request('PUT', CONTENT_ADMIN_API.videoOrder, {
      token: admin.token,
      body: { ids: [second.id, v.id] },
    });
    expect((ord.body.data as VideoView[]).map((x) => x.id)).toEqual([second.id, v.id]);

    expect((await s.request('DELETE', CONTENT_ADMIN_API.video(v.id), { token: admin.token })).status).toBe(
      200,
    );
    expect(await s.ctx.storage.stat(videoKey(v.id))).toBeUndefined();
    expect((await storage()).totals.videos).toBe(second.size);
    expect((await s.app.inject({ method: 'GET', url: VIDEOS_API.file(v.id) })).statusCode).toBe(404);
    expect(((await s.request('GET', VIDEOS_API.list)).body.data as VideoView[]).map((x) => x.id)).toEqual([
      second.id,
    ]);
  });

  it('refuses a file that is not MP4/WebM or is over the limit, keeping nothing', async () => {
    const before = await s.ctx.storage.list('videos/');
    const text = await upload(Buffer.from('this is not a video, only some text'), 'video/webm');
    expect(text.statusCode).toBe(400);
    expect(text.json<{ msg: string }>().msg).toContain('只能上传 MP4 或 WebM 视频');
    const avi = await upload(webmBytes(100), 'video/x-msvideo');
    expect(avi.statusCode).toBe(400);
    // an mp4 signature declared as webm is refused as well
    const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(100)]);
    expect((await upload(mp4, 'video/webm')).statusCode).toBe(400);
    expect((await upload(mp4, 'video/mp4')).statusCode).toBe(200);
    const big = await s.app.inject({
      method: 'POST',
      url: `${CONTENT_ADMIN_API.videos}?titleEn=a&titleZh=b`,
      headers: {
        'access-token': admin.token,
        'content-type': 'video/webm',
        'content-length': String(VIDEO_MAX_BYTES + 1),
      },
      payload: webmBytes(100),
    });
    expect(big.statusCode).toBe(400);
    expect(big.json<{ msg: string }>().msg).toContain('MB');
    expect((await s.ctx.storage.list('videos/')).length).toBe(before.length + 1);
    // the refused bodies were not left half-written in the storage's staging folder
    expect(readdirSync(path.join(s.dataDir, 'storage', '.tmp'))).toEqual([]);
  });

  it('sends a system notification to every user and audits each action', async () => {
    const r = await s.request('POST', CONTENT_ADMIN_API.notify, {
      token: admin.token,
      body: {
        title: { 'en-US': 'Maintenance on Sunday', 'zh-CN': '周日维护' },
        body: { 'en-US': 'The service pauses 02:00–03:00.', 'zh-CN': '服务在 02:00–03:00 暂停。' },
      },
    });
    expect(r.body.data.recipients).toBeGreaterThanOrEqual(2);
    const list = await s.request('GET', `${NOTIFICATIONS}?pageNum=1&pageSize=10`, { token: user.token });
    expect(list.body.data.rows[0]).toMatchObject({
      kind: 'system',
      read: false,
      params: { titleEn: 'Maintenance on Sunday', titleZh: '周日维护', bodyZh: '服务在 02:00–03:00 暂停。' },
    });
    const audit = (await s.request('GET', ADMIN_API.audit, { token: admin.token })).body
      .data as AdminAuditView[];
    const actions = new Set(audit.map((a) => a.action));
    for (const a of [
      'notification.broadcast',
      'content.create',
      'content.update',
      'content.delete',
      'content.reorder',
      'video.upload',
      'video.update',
      'video.reorder',
      'video.delete',
    ])
      expect(actions).toContain(a);
    expect(audit[0]).toMatchObject({ action: 'notification.broadcast', adminUsername: admin.username });
  });
});

describe('tutorial videos on S3 storage', () => {
  let s3: TestS3;
  let s: TestServer;
  let token: string;

  beforeAll(async () => {
    s3 = await startS3();
    s = await createTestServer(s3.env);
    const a = await signUp(s);
    await s.ctx.db.query('UPDATE users SET is_admin = true WHERE username = $1', [a.username]);
    token = a.token;
  });
  afterAll(async () => {
    await s?.close();
    await s3?.close();
  });

  it('streams a multi-part upload into the bucket, serves Range from it, deletes it; a refused file leaves nothing', async () => {
    expect(s.ctx.storage.kind).toBe('s3');
    const post = (body: Buffer) =>
      s.app.inject({
        method: 'POST',
        url: `${CONTENT_ADMIN_API.videos}?titleEn=S3&titleZh=S3`,
        headers: { 'access-token': token, 'content-type': 'video/webm' },
        payload: body,
      });
    const bytes = webmBytes(6 * 1024 * 1024 + 123);
    const up = await post(bytes);
    expect(up.statusCode).toBe(200);
    const v = up.json<{ data: VideoView }>().data;
    expect(await s.ctx.storage.stat(videoKey(v.id))).toMatchObject({ size: bytes.length });
    const start = 5 * 1024 * 1024 - 10;
    const part = await s.app.inject({
      method: 'GET',
      url: VIDEOS_API.file(v.id),
      headers: { range: `bytes=${start}-${start + 99}` },
    });
    expect(part.statusCode).toBe(206);
    expect(Buffer.compare(part.rawPayload, bytes.subarray(start, start + 100))).toBe(0);

    const bad = Buffer.concat([Buffer.from('<html>'), Buffer.alloc(1024)]);
    expect((await post(bad)).statusCode).toBe(400);
    expect(await s.ctx.storage.list('videos/')).toEqual([videoKey(v.id)]);

    expect((await s.request('DELETE', CONTENT_ADMIN_API.video(v.id), { token })).status).toBe(200);
    expect(await s.ctx.storage.list('videos/')).toEqual([]);
  });
});
