import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { STORAGE_PREFIX } from '@cellcloud/contracts';
import { ensureWebBuild } from './support/build';
import { launchBrowser, openPage, pageLocale, screenshotBoth } from './support/browser';
import { startServer, type RunningServer } from './support/server';
import { logInViaUi, newUser, registerViaApi, waitForPath } from './support/flows';

/**
 * Region-dependent behaviour (docs/product/overview.md#language-and-region) with the API configured for a Chinese visitor
 * (DEFAULT_COUNTRY=CN for local addresses) and both domains set, the browser being on the
 * international one (127.0.0.1): default language, redirect alert, China footer, contacts, WeChat.
 */
let server: RunningServer;
let browser: Browser;
const user = newUser('region');
const CN_DOMAIN = 'cn.cellcloud.example';

beforeAll(async () => {
  ensureWebBuild();
  server = await startServer({ DEFAULT_COUNTRY: 'CN', CN_DOMAIN, INTL_DOMAIN: '127.0.0.1' });
  await registerViaApi(server, user);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('China region', () => {
  it('defaults to Chinese, offers the China domain, shows the record number and WeChat help', async () => {
    const t = await openPage(browser, { baseURL: server.url, locale: null });
    await t.page.goto('/login');
    const alert = t.page.locator('.ant-modal-confirm');
    await alert.getByText(CN_DOMAIN, { exact: false }).waitFor();
    expect(await pageLocale(t.page)).toBe('zh-CN');
    // the region default is not stored: only an explicit choice is
    expect(await t.page.evaluate((k) => localStorage.getItem(k), `${STORAGE_PREFIX}locale`)).toBeNull();
    await screenshotBoth(t.page, 'region-alert');
    await alert.getByRole('button', { name: '留在此处' }).click();
    await alert.waitFor({ state: 'hidden' });
    await t.page.getByTestId('footer').getByText('ICP', { exact: false }).waitFor();
    await t.page.getByTestId('wechat-widget').waitFor();
    expect(t.errors).toEqual([]);
    await t.close();
  });

  it('shows the China contact points on the contact page', async () => {
    const t = await openPage(browser, { baseURL: server.url, locale: 'zh-CN' });
    await t.page.goto('/login?redirect=%2Fcontact');
    await t.page.locator('.ant-modal-confirm').getByRole('button', { name: '留在此处' }).click();
    await logInViaUi(t.page, user.username, user.password);
    await waitForPath(t.page, '/contact');
    const facts = t.page.getByTestId('contact-facts-cn');
    await facts.getByText('地址').waitFor();
    await facts.getByRole('img').first().waitFor();
    await screenshotBoth(t.page, 'contact-cn');
    expect(t.errors).toEqual([]);
    await t.close();
  });
});
