import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { LIMITS } from '@cellcloud/contracts';
import { ensureWebBuild } from './support/build';
import { launchBrowser, openPage, screenshotBoth, type TestPage } from './support/browser';
import { startServer, type RunningServer } from './support/server';
import { logInViaUi, newUser, registerViaApi, waitForPath } from './support/flows';

/** Account settings (docs/product/screens.md#account-pages account pages): change e-mail with a code, change password, login log. */
let server: RunningServer;
let browser: Browser;
const user = newUser('acct');

beforeAll(async () => {
  ensureWebBuild();
  server = await startServer();
  await registerViaApi(server, user);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function signedIn(login: string, password: string): Promise<TestPage> {
  const t = await openPage(browser, { baseURL: server.url, locale: 'en-US' });
  await t.page.goto('/login?redirect=%2Faccountsettings');
  await logInViaUi(t.page, login, password);
  await waitForPath(t.page, '/accountsettings');
  return t;
}

describe('account settings', () => {
  it('changes the e-mail address with a code sent to the new address', async () => {
    const t = await signedIn(user.username, user.password);
    const card = t.page.locator('.ant-card', { hasText: 'Change e-mail address' });
    const newEmail = `new.${user.email}`;
    await card.locator('#email').fill(newEmail);
    await card.getByTestId('send-code').click();
    const code = await server.waitForCode(newEmail, 'changeEmail');
    await card.locator('#code').fill(code);
    await card.getByRole('button', { name: 'Change e-mail' }).click();
    await t.page.getByText('Your e-mail address was changed').waitFor();
    await t.page.locator('.ant-descriptions').getByText(newEmail).waitFor();
    await screenshotBoth(t.page, 'account-email-changed');
    user.email = newEmail;
    expect(t.errors).toEqual([]);
    await t.close();
  });

  it('changes the password; the new one logs in', async () => {
    const t = await signedIn(user.email, user.password);
    const card = t.page.locator('.ant-card', { hasText: 'Change password' });
    await card.locator('#oldPassword').fill(user.password);
    await card.locator('#password').fill('weak');
    await card.locator('#repeatPassword').fill('other');
    await card.getByRole('button', { name: 'Change password' }).click();
    await card.getByText('at least one uppercase letter and one digit').waitFor();
    await card.getByText('Passwords do not match').waitFor();
    await card.scrollIntoViewIfNeeded();
    await screenshotBoth(t.page, 'account-password-rules');
    const next = 'Changed2025';
    await card.locator('#password').fill(next);
    await card.locator('#repeatPassword').fill(next);
    await card.getByRole('button', { name: 'Change password' }).click();
    await t.page.getByText('Your password was changed').waitFor();
    user.password = next;
    await t.close();
    const again = await signedIn(user.username, next);
    expect(again.errors).toEqual([]);
    await again.close();
  });

  it('lists at most the last 10 logins, newest first', async () => {
    for (let i = 0; i < 9; i++) {
      const r = await fetch(`${server.url}/api/database-api/celeLens/account/sign-up`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: user.username, password: user.password }),
      });
      expect(r.status).toBe(200);
    }
    const t = await signedIn(user.username, user.password);
    const table = t.page.locator('.ant-card', { hasText: 'Login log' }).locator('tbody tr.ant-table-row');
    await table.first().waitFor();
    expect(await table.count()).toBe(LIMITS.loginLogSize);
    const times = await table.locator('td:first-child').allTextContents();
    expect([...times].sort().reverse()).toEqual(times);
    await t.page.locator('.ant-card', { hasText: 'Login log' }).scrollIntoViewIfNeeded();
    await screenshotBoth(t.page, 'account-login-log');
    expect(t.errors).toEqual([]);
    await t.close();
  });
});
