import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { STORAGE_PREFIX } from '@cellcloud/contracts';
import { repoRoot } from './build';

export const CHROMIUM = process.env.CELLCLOUD_CHROMIUM ?? '/usr/bin/chromium';
export const screenshotDir = path.join(repoRoot, 'screenshots');

/** Debian's chromium via playwright-core (never a downloaded browser). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export interface TestPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions seen so far (expected network statuses excluded). */
  errors: string[];
  close(): Promise<void>;
}

export interface PageOptions {
  baseURL: string;
  /** Language stored before the first visit; null = none (the app picks one by region). */
  locale?: 'en-US' | 'zh-CN' | null;
  width?: number;
  height?: number;
  /** "Failed to load resource" errors for URLs matching these are expected (e.g. a login 401). */
  allowFailedRequests?: RegExp[];
}

/** A fresh browser context (own local storage) whose first visit uses `locale`. */
export async function openPage(browser: Browser, opts: PageOptions): Promise<TestPage> {
  const context = await browser.newContext({
    baseURL: opts.baseURL,
    viewport: { width: opts.width ?? 1366, height: opts.height ?? 900 },
    locale: opts.locale ?? 'en-US',
  });
  const key = `${STORAGE_PREFIX}locale`;
  if (opts.locale !== null) {
    await context.addInitScript(
      ([k, v]) => {
        if (!window.localStorage.getItem(k)) window.localStorage.setItem(k, v);
      },
      [key, opts.locale ?? 'en-US'] as const,
    );
  }
  const page = await context.newPage();
  const errors: string[] = [];
  const allowed = opts.allowFailedRequests ?? [];
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    const where = m.location().url;
    if (/Failed to load resource/.test(m.text()) && allowed.some((r) => r.test(where))) return;
    errors.push(`${m.text()} (${where})`);
  });
  page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
  return { page, context, errors, close: () => context.close() };
}

/** Saves screenshots/<name>.<locale>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(screenshotDir, { recursive: true });
  const locale = await page.evaluate(() => document.documentElement.lang || 'en-US');
  const file = path.join(screenshotDir, `${name}.${locale}.png`);
  // the screenshot waits for fonts and a frame: beyond Playwright's 30 s on a loaded machine
  await page.screenshot({ path: file, fullPage: false, timeout: 120_000 });
  return file;
}

/** Current language of the page (`<html lang>`). */
export function pageLocale(page: Page): Promise<string> {
  return page.evaluate(() => document.documentElement.lang);
}

/** Clicks the header's language switch (a DOM click, so it works under an open dialog). */
export async function switchLanguage(page: Page): Promise<void> {
  const before = await pageLocale(page);
  await page.getByTestId('language-switch').dispatchEvent('click');
  await page.waitForFunction((b) => document.documentElement.lang !== b, before);
  await page.waitForTimeout(300);
}

/** Screenshot in the current language, switch, screenshot in the other, switch back. */
export async function screenshotBoth(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  await switchLanguage(page);
  await screenshot(page, name);
  await switchLanguage(page);
}

/**
 * Waits until the page's layout stops changing: the document's scroll size and element count stay
 * the same for `quietMs` of animation frames (panels and charts that arrive with their data have
 * laid out). A condition in place of a fixed pause: on a quiet machine it returns after about
 * `quietMs`, on a loaded one it waits as long as rendering takes (bounded by `timeoutMs`).
 */
export async function layoutSettled(page: Page, quietMs = 300, timeoutMs = 10_000): Promise<void> {
  await page.evaluate(
    ([quiet, bound]) =>
      new Promise<void>((resolve) => {
        const start = performance.now();
        let last = '';
        let since = start;
        const tick = () => {
          const d = document.documentElement;
          const now = performance.now();
          const shape = `${d.scrollWidth}x${d.scrollHeight}:${document.getElementsByTagName('*').length}`;
          if (shape !== last) [last, since] = [shape, now];
          if (now - since >= quiet || now - start > bound) resolve();
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    [quietMs, timeoutMs] as const,
  );
}
