import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { accountPaths } from '@cellcloud/contracts/paths';
import { ensureWebBuild } from './support/build';
import { launchBrowser, openPage, screenshot, switchLanguage } from './support/browser';
import { scratchDatabase, type ScratchDb } from './support/database';
import { logInViaUi, newUser, registerViaApi, waitForPath } from './support/flows';
import { startServer, type RunningServer } from './support/server';

/**
 * Admin console (issue 21) in both languages: an administrator opens /admin from the user menu,
 * finds a user, disables it (English) and sees the entry in the audit log, then enables it again
 * in Chinese and reads the translated audit entry; the user's login follows each change.
 */
let server: RunningServer;
let browser: Browser;
let db: ScratchDb;
const admin = newUser('adm');
const user = newUser('member');

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

const login = (name: string, password: string) =>
  fetch(`${server.url}${accountPaths.login}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: name, password }),
  }).then(async (r) => ((await r.json()) as { code: number }).code);

describe('admin console', () => {
  it('disables a user (en-US), sees the audit entry, enables it again (zh-CN)', async () => {
    expect(await login(user.username, user.password)).toBe(200);
    const t = await openPage(browser, { baseURL: server.url, locale: 'en-US' });
    // land on a page without the first-visit tutorial (My Analyses has it), then use the menu
    await t.page.goto('/login?redirect=%2Faccountsettings');
    await logInViaUi(t.page, admin.username, admin.password);
    await waitForPath(t.page, '/accountsettings');
    await t.page.getByTestId('user-menu').click();
    await t.page.getByTestId('admin-menu').click();
    await waitForPath(t.page, '/admin');

    await t.page.getByTestId('admin-user-search').locator('input').fill(user.username);
    await t.page.getByTestId('admin-user-search').locator('input').press('Enter');
    const row = t.page.getByTestId('admin-users').locator('.ant-table-row', { hasText: user.username });
    await expect.poll(() => t.page.getByTestId('admin-users').locator('.ant-table-row').count()).toBe(1);
    await row.getByTestId('admin-disable').click();
    await t.page.getByTestId('admin-disable-ok').click();
    await row.getByText('Disabled').waitFor();
    expect(await login(user.username, user.password)).not.toBe(200);

    await t.page.getByRole('tab', { name: 'Audit log' }).click();
    const audit = t.page.getByTestId('admin-audit');
    await audit.locator('.ant-table-row', { hasText: user.username }).getByText('Disabled a user').waitFor();
    await screenshot(t.page, 'admin-audit');
    // the other tabs render their data
    await t.page.getByRole('tab', { name: 'Plans' }).click();
    await t.page.getByTestId('plan-readonly-importData-disabled').waitFor();
    await t.page.getByRole('tab', { name: 'Storage' }).click();
    await t.page.getByTestId('admin-storage').locator('.ant-table-row', { hasText: user.username }).waitFor();
    await t.page.getByRole('tab', { name: 'Jobs' }).click();
    await t.page.getByTestId('admin-jobs').waitFor();

    await switchLanguage(t.page);
    await t.page.getByRole('tab', { name: '用户' }).click();
    await t.page
      .getByTestId('admin-users')
      .locator('.ant-table-row', { hasText: user.username })
      .getByTestId('admin-enable')
      .click();
    await t.page
      .getByTestId('admin-users')
      .locator('.ant-table-row', { hasText: user.username })
      .getByText('正常')
      .waitFor();
    expect(await login(user.username, user.password)).toBe(200);
    await t.page.getByRole('tab', { name: '审计日志' }).click();
    const rows = audit.locator('.ant-table-row');
    await rows.first().getByText('启用了用户').waitFor();
    await expect.poll(() => rows.nth(1).textContent()).toContain('停用了用户');
    await screenshot(t.page, 'admin-audit');
    expect(t.errors).toEqual([]);
    await t.close();
  });
});
