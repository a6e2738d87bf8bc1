import type { Page } from 'playwright-core';
import { accountPaths } from '@cellcloud/contracts/paths';
import type { RunningServer } from './server';
import { screenshot } from './browser';

export interface NewUser {
  username: string;
  email: string;
  password: string;
}

/** What signUpViaUi enters besides the user's own fields (zh-text treats these as user data). */
export const SIGNUP_PROFILE = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  institution: 'Analytical Engine Institute',
  researchInterest: 'Tumour microenvironment',
} as const;

export function newUser(tag: string): NewUser {
  const id = `${tag}${Date.now().toString(36)}`.replace(/[^A-Za-z0-9_]/g, '_');
  return { username: `u_${id}`, email: `${id}@example.org`, password: 'Cells2024' };
}

/** Fills the sign-up form, reads the e-mail code from the server's outbox line, submits. */
export async function signUpViaUi(page: Page, server: RunningServer, user: NewUser): Promise<void> {
  // route changes are transitions: the previous page stays until the new chunk is there
  await page.getByTestId('signup-submit').waitFor();
  await page.locator('#username').fill(user.username);
  await page.locator('#firstName').fill(SIGNUP_PROFILE.firstName);
  await page.locator('#lastName').fill(SIGNUP_PROFILE.lastName);
  await page.locator('#email').fill(user.email);
  await page.locator('#phone').click();
  await page.getByTestId('send-code').click();
  const code = await server.waitForCode(user.email, 'register');
  await page.locator('[data-testid=send-code]:disabled').waitFor(); // the 60 s countdown runs
  await page.locator('#emailCode').fill(code);
  await page.locator('#password').fill(user.password);
  await page.locator('#repeatPassword').fill(user.password);
  await page.locator('#institution').fill(SIGNUP_PROFILE.institution);
  await page.locator('#researchInterest').fill(SIGNUP_PROFILE.researchInterest);
  await page.locator('#marketingConsent').check();
  await page.locator('#termsAgreed').check();
  await page.getByTestId('signup-submit').click();
  await page
    .getByTestId('to-login')
    .waitFor()
    .catch(async (e: unknown) => {
      await screenshot(page, 'failed-signup');
      throw e;
    });
}

export async function logInViaUi(page: Page, login: string, password: string): Promise<void> {
  await page
    .getByTestId('login-submit')
    .waitFor()
    .catch(async (e: unknown) => {
      await screenshot(page, 'failed-login-page');
      throw e;
    });
  await page.locator('#username').fill(login);
  await page.locator('#password').fill(password);
  await page.getByTestId('login-submit').click();
}

/** Waits for the pathname of the page (up to `timeoutMs`). */
export async function waitForPath(page: Page, pathname: string, timeoutMs = 60_000): Promise<void> {
  await page.waitForURL((u) => u.pathname === pathname, { timeout: timeoutMs });
}

/**
 * Registers a user through the real API (code read from the outbox), for tests about other screens.
 * `profile: 'signup'` enters what signUpViaUi enters (the account the form makes, without loading
 * and filling the form; the form itself is tested in e2e/shell.test.ts).
 */
export async function registerViaApi(
  server: RunningServer,
  user: NewUser,
  profile: 'plain' | 'signup' = 'plain',
): Promise<void> {
  const post = async (path: string, body: Record<string, unknown>) => {
    const r = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const j = (await r.json()) as { code: number; msg: string };
    if (j.code !== 200) throw new Error(`${path}: ${j.msg}`);
  };
  await post(accountPaths.sendMessage, { email: user.email, purpose: 'register' });
  const code = await server.waitForCode(user.email, 'register');
  const person =
    profile === 'signup'
      ? { ...SIGNUP_PROFILE, marketingConsent: true }
      : { firstName: 'Grace', lastName: 'Hopper', institution: 'Harvard' };
  await post(accountPaths.register, {
    username: user.username,
    ...person,
    email: user.email,
    password: user.password,
    repeatPassword: user.password,
    emailCode: code,
    termsAgreed: true,
  });
}
