import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ensureWebBuild } from './support/build';
import { launchBrowser, openPage, screenshot, switchLanguage } from './support/browser';
import { scratchDatabase, type ScratchDb } from './support/database';
import { logInViaUi, newUser, registerViaApi, waitForPath } from './support/flows';
import { startServer, type RunningServer } from './support/server';

/**
 * Content authoring (issue 21) in both languages: an administrator writes a FAQ entry in Markdown
 * with the live preview, uploads a real WebM video (recorded by the browser from a canvas) and, in
 * Chinese, sends a system notification; the audit log lists each action. A normal user then
 * finds the FAQ entry in English and Chinese, plays the video on /tutorialVideos (the browser
 * streams it with Range requests, 206) and reads the notice in the notification centre.
 */
let server: RunningServer;
let browser: Browser;
let db: ScratchDb;
const admin = newUser('cadm');
const user = newUser('reader');
const QUESTION = { en: 'How do I cite CellCloud in a paper?', zh: '论文中如何引用细胞云？' };

beforeAll(async () => {
  ensureWebBuild();
  db = await scratchDatabase();
  server = await startServer({ DATABASE_URL: db.url });
  await registerViaApi(server, admin);
  await registerViaApi(server, user);
  await db.query('UPDATE users SET is_admin = true WHERE username = $1', [admin.username]);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

/** Records ~1 s of an animated canvas with the browser's MediaRecorder: a real VP8 WebM file. */
async function recordWebm(page: Page): Promise<string> {
  const b64 = await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 160;
    canvas.height = 120;
    const g = canvas.getContext('2d')!;
    const rec = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/webm;codecs=vp8' });
    const chunks: Blob[] = [];
    rec.ondataavailable = (e) => chunks.push(e.data);
    let frame = 0;
    const draw = () => {
      g.fillStyle = `hsl(${(frame * 12) % 360} 70% 50%)`;
      g.fillRect(0, 0, 160, 120);
      g.fillStyle = '#fff';
      g.fillRect((frame * 5) % 160, 50, 20, 20);
      frame++;
    };
    draw();
    const timer = setInterval(draw, 40);
    const stopped = new Promise((r) => (rec.onstop = r));
    rec.start(200);
    await new Promise((r) => setTimeout(r, 1200));
    rec.stop();
    await stopped;
    clearInterval(timer);
    const bytes = new Uint8Array(await new Blob(chunks, { type: 'video/webm' }).arrayBuffer());
    let s = '';
    for (const b of bytes) s += String.fromCharCode(b);
    return btoa(s);
  });
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'cellcloud-video-')), 'intro.webm');
  writeFileSync(file, Buffer.from(b64, 'base64'));
  return file;
}

describe('admin content authoring', () => {
  it('admin writes a FAQ entry, uploads a video (en-US) and sends a notification (zh-CN)', async () => {
    const t = await openPage(browser, { baseURL: server.url, locale: 'en-US' });
    await t.page.goto('/login?redirect=%2Fadmin%2Fcontent');
    await logInViaUi(t.page, admin.username, admin.password);
    await waitForPath(t.page, '/admin/content');

    // FAQ entry in Markdown (the default for new entries) with the live preview
    await t.page.getByTestId('content-add').click();
    await t.page.getByTestId('content-title-en').fill(QUESTION.en);
    await t.page.getByTestId('content-title-zh').fill(QUESTION.zh);
    await t.page
      .getByTestId('content-body-en')
      .fill('Cite the **methods report** of your analysis:\n\n- steps\n- parameters');
    await t.page.getByTestId('content-body-zh').fill('引用分析的**方法报告**。');
    await t.page.getByTestId('content-preview-en').locator('strong', { hasText: 'methods report' }).waitFor();
    await t.page.getByTestId('content-preview-en').locator('li', { hasText: 'parameters' }).waitFor();
    await t.page.getByTestId('content-preview-zh').locator('strong', { hasText: '方法报告' }).waitFor();
    await screenshot(t.page, 'admin-content-faq-editor');
    await t.page.locator('#content-save').click();
    const rows = t.page.getByTestId('content-list-faq').locator('.ant-table-row');
    await rows.last().getByText(QUESTION.en).waitFor();
    // move it one place up
    const count = await rows.count();
    await rows.last().getByRole('button', { name: 'Move up' }).click();
    await expect.poll(() => rows.nth(count - 2).textContent()).toContain(QUESTION.en);
    // editing opens the entry as written (Markdown source)
    await rows
      .nth(count - 2)
      .getByTestId('content-edit')
      .click();
    await expect
      .poll(() => t.page.getByTestId('content-body-zh').inputValue())
      .toBe('引用分析的**方法报告**。');
    expect(await t.page.getByTestId('content-title-en').inputValue()).toBe(QUESTION.en);
    await t.page.getByRole('button', { name: 'Cancel' }).click();

    // a real video, uploaded
    const video = await recordWebm(t.page);
    await t.page.getByTestId('content-sections').getByText('Tutorial videos').click();
    await t.page.getByTestId('video-title-en').fill('Your first analysis');
    await t.page.getByTestId('video-title-zh').fill('第一次分析');
    await t.page.getByTestId('video-file').setInputFiles(video);
    await t.page.getByTestId('video-upload').click();
    await t.page
      .getByTestId('admin-videos')
      .locator('.ant-table-row', { hasText: 'Your first analysis' })
      .waitFor();
    await screenshot(t.page, 'admin-content-videos');

    // the system notification, written in Chinese mode
    await switchLanguage(t.page);
    await t.page.getByTestId('content-sections').getByText('系统通知').click();
    await t.page.getByTestId('notify-title-en').fill('Maintenance on Sunday');
    await t.page.getByTestId('notify-title-zh').fill('周日系统维护');
    await t.page.getByTestId('notify-body-en').fill('The service pauses from 02:00 to 03:00.');
    await t.page.getByTestId('notify-body-zh').fill('服务将于 02:00 至 03:00 暂停。');
    await t.page.getByTestId('notify-send').click();
    await t.page.getByText(/已发送给 \d+ 位用户/).waitFor();

    await t.page.getByRole('tab', { name: '审计日志' }).click();
    const audit = t.page.getByTestId('admin-audit');
    await audit.locator('.ant-table-row').first().getByText('发送了系统通知').waitFor();
    await audit.getByText('上传了视频').waitFor();
    await audit.getByText('新增了内容').first().waitFor();
    await screenshot(t.page, 'admin-content-audit');
    expect(t.errors).toEqual([]);
    await t.close();
  });

  it('a normal user reads the FAQ entry, plays the video and sees the notice (both languages)', async () => {
    const t = await openPage(browser, { baseURL: server.url, locale: 'en-US' });
    await t.page.goto('/login?redirect=%2Ffaq');
    await logInViaUi(t.page, user.username, user.password);
    await waitForPath(t.page, '/faq');
    await t.page.getByText(QUESTION.en).click();
    await t.page.locator('.cc-html strong', { hasText: 'methods report' }).waitFor();
    await switchLanguage(t.page);
    await t.page.getByText(QUESTION.zh).waitFor();

    const ranges: number[] = [];
    t.page.on('response', (r) => {
      if (r.url().includes('/api/content/videos/') && r.url().endsWith('/file')) ranges.push(r.status());
    });
    await t.page.goto('/tutorialVideos');
    const card = t.page.getByTestId('tutorial-video');
    await card.getByText('第一次分析').waitFor();
    const player = card.locator('video');
    // the browser loads the metadata, then plays (muted: no user gesture needed)
    await expect
      .poll(() => player.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 30_000 })
      .toBeGreaterThanOrEqual(1);
    await player.evaluate((v: HTMLVideoElement) => {
      v.muted = true;
      return v.play();
    });
    await expect
      .poll(() => player.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 })
      .toBeGreaterThan(0);
    expect(await player.evaluate((v: HTMLVideoElement) => v.error)).toBeNull();
    expect(ranges).toContain(206);
    await screenshot(t.page, 'tutorial-videos');
    await switchLanguage(t.page);
    await card.getByText('Your first analysis').waitFor();

    await t.page.goto('/notifications');
    const notice = t.page.getByTestId('notification-system');
    await notice.getByText('System notice: Maintenance on Sunday').waitFor();
    await notice.getByText('The service pauses from 02:00 to 03:00.').waitFor();
    await switchLanguage(t.page);
    await notice.getByText('系统通知：周日系统维护').waitFor();
    await notice.getByText('服务将于 02:00 至 03:00 暂停。').waitFor();
    await screenshot(t.page, 'notifications-system');
    expect(t.errors).toEqual([]);
    await t.close();
  });
});
