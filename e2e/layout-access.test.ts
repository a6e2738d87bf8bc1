import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { STORAGE_PREFIX } from '@cellcloud/contracts';
import { sharedData } from '@cellcloud/testkit';
import { layoutSettled, screenshot } from './support/browser';
import { explorerEnv, type ExplorerEnv } from './support/explore-setup';
import { newUser, waitForPath } from './support/flows';

/**
 * Issue 31 in Chromium, on a real pbmc3k result of a user on the default plan (who is also made an
 * administrator for the console pages):
 *  - every page and every explore tab at 1,366 × 768 and 390 × 844, and in English and Chinese
 *    (each page at one width in one language and at the other in the other): the document never
 *    scrolls sideways (scrollWidth ≤ the viewport width);
 *  - every antd message / notification shown on the way names no internal key, `{{…}}` or
 *    `[object …]`;
 *  - the public database page explains what it is and how to get access instead of an empty
 *    table and a "Resource Unavailable" toast, in both languages;
 *  - a zh-CN browser without a stored choice, on an install without regional domains, gets Chinese.
 */
const pbmc = sharedData('pbmc3k/10x');
const SIZES = [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
] as const;
const LANGS = ['en-US', 'zh-CN'] as const;
const PAGES = [
  '/my_analyzes',
  '/importdata',
  '/integrateLocalData',
  '/publicDatabase',
  '/requestedDownloads',
  '/notifications',
  '/accountsettings',
  '/guidebook',
  '/documentation',
  '/contact',
  '/faq',
  '/tutorialVideos',
  '/admin',
  '/admin/plans',
  '/admin/downloads',
  '/admin/jobs',
  '/admin/storage',
  '/admin/content',
  '/admin/audit',
];
/** The analysis tasks' forms and histories (their own rework; overflow there is listed, not failed). */
const TASK_VIEW = '[data-testid^="task-form-"], [data-testid^="task-history-"], [data-testid^="task-panel-"]';
/** A shown text that leaks an internal name: a dotted key, an i18next placeholder, `[object …]`. */
const LEAK = /\[object |\{\{|\b[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9_]*){2,}\b/;

let env: ExplorerEnv;
let jobId: string;
const user = newUser('layout');
const shown = new Set<string>();

/** A context in `lang` at `size`, signed in as `user` (the token copied from `from`). */
async function contextFor(
  from: BrowserContext,
  lang: (typeof LANGS)[number],
  size: (typeof SIZES)[number],
): Promise<{ context: BrowserContext; page: Page }> {
  const state = await from.storageState();
  const context = await env.browser.newContext({
    baseURL: env.server.url,
    viewport: size,
    locale: lang,
    storageState: {
      cookies: state.cookies,
      origins: state.origins.map((o) => ({
        ...o,
        localStorage: [
          ...o.localStorage.filter((e) => e.name !== `${STORAGE_PREFIX}locale`),
          { name: `${STORAGE_PREFIX}locale`, value: lang },
        ],
      })),
    },
  });
  await context.addInitScript(() => {
    // every antd message / notification text that appears, for the leak check
    const seen: string[] = ((window as unknown as { __shown: string[] }).__shown = []);
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('.ant-message-notice, .ant-notification-notice')) {
        const t = (el.textContent ?? '').trim();
        if (t && !seen.includes(t)) seen.push(t);
      }
    }).observe(document, { childList: true, subtree: true });
  });
  return { context, page: await context.newPage() };
}

/** Document wider than the viewport: the widest offenders, for the report. */
async function overflow(page: Page): Promise<string | null> {
  return page.evaluate((TASK_VIEW) => {
    const vw = window.innerWidth;
    const sw = document.documentElement.scrollWidth;
    if (sw <= vw) return null;
    const wide = [...document.querySelectorAll('body *')]
      .map((el) => ({ el, r: el.getBoundingClientRect().right }))
      .filter((x) => x.r > vw + 1)
      .sort((a, b) => b.r - a.r)
      .slice(0, 3)
      .map(({ el, r }) => {
        const name = (e: Element) => {
          const id = e.getAttribute('data-testid');
          const cls = typeof e.className === 'string' ? e.className.split(' ')[0] : '';
          return `${e.tagName.toLowerCase()}${id ? `[${id}]` : cls ? `.${cls}` : ''}`;
        };
        // the element and its nearest ancestor with a test id, to find it in the code
        const owner = el.parentElement?.closest('[data-testid]');
        return `${name(el)}${owner ? ` in ${name(owner)}` : ''}→${Math.round(r)}`;
      });
    // inside an analysis task's form or history (apps/web/src/features/explore/tasks): reported
    // apart, the task views are reworked separately (issue 31, part B)
    const widest = [...document.querySelectorAll('body *')].reduce<Element | null>(
      (w, el) => (el.getBoundingClientRect().right > (w?.getBoundingClientRect().right ?? 0) ? el : w),
      null,
    );
    const inTask = !!widest?.closest(TASK_VIEW);
    return `${inTask ? 'TASK VIEW ' : ''}scrollWidth ${sw} > ${vw} (${wide.join(', ')})`;
  }, TASK_VIEW);
}

async function collectShown(page: Page): Promise<void> {
  for (const t of await page.evaluate(() => (window as unknown as { __shown?: string[] }).__shown ?? []))
    shown.add(t);
}

describe.skipIf(!pbmc)('layout, public access and shown messages', () => {
  let signedIn: BrowserContext;

  beforeAll(async () => {
    env = await explorerEnv('layout', pbmc!);
    const { context, page } = await env.newPage();
    signedIn = context;
    jobId = await env.openResult(page, user, 'pbmc3k_layout');
    await env.db.query('UPDATE users SET is_admin = true WHERE username = $1', [user.username]);
  }, 600_000);

  afterAll(() => env?.close());

  it('a zh-CN browser without a stored language gets Chinese on an install without regional domains', async () => {
    const context = await env.browser.newContext({ baseURL: env.server.url, locale: 'zh-CN' });
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByTestId('language-switch').waitFor();
    await page.waitForTimeout(1500); // the region answer arrives; it must not switch to English
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    await context.close();
  });

  it('the public database explains access on the default plan, in both languages, without a toast', async () => {
    const texts = {
      'en-US': ['Not included in your plan', 'SynEcoSys plan', 'Request access'],
      'zh-CN': ['您的套餐不包含此功能', 'SynEcoSys 套餐', '申请开通'],
    };
    for (const lang of LANGS) {
      const { context, page } = await contextFor(signedIn, lang, SIZES[0]);
      await page.goto('/publicDatabase');
      const panel = page.getByTestId('publicdb-no-access');
      await panel.waitFor({ timeout: 30_000 });
      for (const t of texts[lang]) await panel.getByText(t, { exact: false }).first().waitFor();
      await page.waitForTimeout(1000);
      expect(await page.locator('.ant-message-notice').count()).toBe(0);
      expect(await page.getByTestId('publicdb-table').count()).toBe(0);
      await screenshot(page, 'publicdb-no-access');
      await page.getByTestId('publicdb-request-access').click();
      await waitForPath(page, '/contact');
      await collectShown(page);
      await context.close();
    }
  });

  it('no page or explore tab scrolls sideways at 1,366 and 390 px, in both languages', async () => {
    const problems: string[] = [];
    const started = Date.now();
    let visits = 0;
    // Each page and explore tab is walked once per width, in one language, and in the other
    // language at the other width (alternating along the list): both languages and both widths
    // are covered for every page in half the visits of walking every pair (CI: 334 s for the
    // full cross product).
    const walked = (i: number, s: number, l: number) => (i + s) % 2 === l;
    const anonPages = ['/', '/login', '/signup', '/forgot-password'];
    for (const [s, size] of SIZES.entries())
      for (const [l, lang] of LANGS.entries()) {
        const { context, page } = await contextFor(signedIn, lang, size);
        for (const [i, p] of anonPages.entries()) {
          if (!walked(i, s, l)) continue;
          const anon = await env.browser.newContext({
            baseURL: env.server.url,
            viewport: size,
            locale: lang,
          });
          const ap = await anon.newPage();
          await ap.goto(p);
          await ap.waitForLoadState('networkidle').catch(() => {});
          await layoutSettled(ap);
          const o = await overflow(ap);
          visits++;
          if (o) problems.push(`${p} ${size.width}px ${lang}: ${o}`);
          await anon.close();
        }
        for (const [i, p] of PAGES.entries()) {
          if (!walked(i, s, l)) continue;
          await page.goto(p);
          await page.waitForLoadState('networkidle').catch(() => {});
          await layoutSettled(page);
          const o = await overflow(page);
          visits++;
          if (o) problems.push(`${p} ${size.width}px ${lang}: ${o}`);
        }
        await page.goto(`/userDatasetAnalysis?id=${jobId}`);
        const labels = page.locator('[data-testid^="tab-label-"]');
        await labels.first().waitFor({ timeout: 60_000 });
        await page.waitForLoadState('networkidle').catch(() => {});
        await layoutSettled(page);
        const first = await overflow(page);
        if (first) problems.push(`explorer ${size.width}px ${lang}: ${first}`);
        const keys = await labels.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!));
        for (const [i, key] of keys.entries()) {
          if (!walked(i, s, l)) continue;
          await page.getByTestId(key).click();
          await page.waitForLoadState('networkidle').catch(() => {});
          await layoutSettled(page);
          const o = await overflow(page);
          visits++;
          if (o) problems.push(`${key} ${size.width}px ${lang}: ${o}`);
        }
        if (size.width === 390) await screenshot(page, `explorer-390-${lang}`);
        await collectShown(page);
        await context.close();
      }
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    console.log(
      `overflow walk: ${visits} views in ${seconds} s, ${problems.length} problem(s)\n${problems.join('\n')}`,
    );
    // overflow inside the task views is printed above for their rework; everything else fails
    expect(problems.filter((p) => !p.includes('TASK VIEW '))).toEqual([]);
  }, 1_800_000);

  it('no message or notification shown on the way names an internal key or [object …]', () => {
    const leaks = [...shown].filter((t) => LEAK.test(t));
    console.log(`shown messages (${shown.size}): ${[...shown].join(' | ')}`);
    expect(leaks).toEqual([]);
  });
});
