import type { Browser, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { USER_PREFERENCES_PATH } from '@cellcloud/contracts/preferences';
import { registerAndLogIn, uploadParsed } from './api-setup';
import { ensureWebBuild } from './build';
import { launchBrowser, openPage, screenshot, type TestPage } from './browser';
import { logInViaUi, waitForPath, type NewUser } from './flows';
import { startServer, type RunningServer } from './server';

export interface WizardEnv {
  server: RunningServer;
  browser: Browser;
  /** Logged in as the user, on /my_analyzes. */
  tp: TestPage;
  close(): Promise<void>;
}

/**
 * Shared setup of the wizard e2e files: a server with the Ensembl gene lists and one in-process
 * worker (`env` overrides, e.g. WORKER_CONCURRENCY), the user registered through the API, their samples uploaded and parsed by `upload`,
 * then a page (first-visit tutorial closed) logged in through the UI on /my_analyzes.
 */
export async function wizardEnv(
  user: NewUser,
  geneLists: string,
  upload: (server: RunningServer, token: string) => Promise<void>,
  env: Record<string, string> = {},
): Promise<WizardEnv> {
  ensureWebBuild();
  const server = await startServer({
    ENSEMBL_GENE_LISTS_DIR: geneLists,
    IN_PROCESS_WORKER: 'true',
    WORKER_CONCURRENCY: '1',
    ...env,
  });
  let browser: Browser | undefined;
  let tp: TestPage | undefined;
  const close = async () => {
    await tp?.close();
    await browser?.close();
    await server.stop();
  };
  try {
    browser = await launchBrowser();
    const token = await registerAndLogIn(server, user);
    await upload(server, token);
    // The first-visit tutorial (its own test) stays closed here: the choice is stored per user.
    const dismissed = await fetch(`${server.url}${USER_PREFERENCES_PATH}`, {
      method: 'PUT',
      headers: { 'access-token': token, 'content-type': 'application/json' },
      body: JSON.stringify({ tutorialDismissed: true }),
    });
    if (!dismissed.ok) throw new Error(`could not dismiss the tutorial: ${dismissed.status}`);
    tp = await openPage(browser, {
      baseURL: server.url,
      locale: 'en-US',
      allowFailedRequests: [/\/api\/jobs\/events/],
    });
    await tp.page.goto('/login?redirect=%2Fmy_analyzes');
    try {
      await logInViaUi(tp.page, user.username, user.password);
    } catch (e) {
      await screenshot(tp.page, 'wizard-login-failure');
      throw new Error(`${(e as Error).message}\nbrowser errors: ${tp.errors.join('\n')}`);
    }
    await waitForPath(tp.page, '/my_analyzes');
  } catch (e) {
    await close(); // a failed setup leaves no server behind
    throw e;
  }
  return { server, browser, tp, close };
}

/** The `upload` of wizardEnv for one 10x sample folder (matrix, genes, barcodes), parsed. */
export function upload10xSample(name: string, dir: string) {
  return async (server: RunningServer, token: string): Promise<void> => {
    const files = ['matrix.mtx.gz', 'genes.tsv.gz', 'barcodes.tsv.gz'].map((f) => `${dir}/${f}`);
    const up = await uploadParsed(server, token, name, files);
    if (up.state !== 'completed') throw new Error(`the upload of ${name} ended ${up.state}`);
  };
}

/** Step 1 of the wizard on /integrateLocalData: the job name and one sample checked. */
export async function wizardStep1(page: Page, jobName: string, sample: string): Promise<void> {
  await page.getByTestId('wizard-job-name').fill(jobName);
  await page
    .locator('[data-testid=wizard-samples] .ant-table-row', { hasText: sample })
    .locator('input[type=checkbox]')
    .check();
}

/** From /integrateLocalData to step 3 (analysis options) with one sample, cell filtering skipped. */
export async function wizardToOptions(page: Page, jobName: string, sample: string): Promise<void> {
  await page.goto('/integrateLocalData');
  await page.getByTestId('wizard-step-1').waitFor();
  await wizardStep1(page, jobName, sample);
  await page.getByTestId('wizard-next').click();
  await page.getByTestId('wizard-step-2').waitFor();
  await page.getByTestId('wizard-next').click();
  await page.getByTestId('wizard-step-3').waitFor();
}

/** Submits on step 4; resolves with the job's row in My Analyses once it is listed. */
export async function submitWizard(page: Page, jobName: string): Promise<Locator> {
  await page.getByTestId('wizard-submit').click();
  await page.waitForURL((u) => u.pathname === '/my_analyzes' && u.search.includes('tab=custom'));
  const row = page.locator('[data-testid=jobs-custom] .ant-table-row', { hasText: jobName });
  await row.waitFor();
  return row;
}

/**
 * Waits until the job of `row` (My Analyses) is completed, then opens its result in the explorer;
 * fails at once when it failed. The list follows the job live (its events refetch the list), so
 * the wait is for the row's final state; the page is reloaded only when none came for 30 s (a
 * dropped event stream), not every 2 s: each reload took CPU from the analysis beside it.
 */
export async function openWhenCompleted(page: Page, row: Locator, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  const final = row.locator('[data-status=completed], [data-status=failed]').first();
  for (;;) {
    const left = end - Date.now();
    const seen = await final.waitFor({ timeout: Math.max(1, Math.min(30_000, left)) }).then(
      () => true,
      () => false,
    );
    if (seen) break;
    if (left <= 30_000)
      throw new Error(`the job of "${await row.textContent()}" did not finish in ${timeoutMs} ms`);
    await page.reload();
  }
  expect(await final.getAttribute('data-status')).toBe('completed');
  await row.getByText('Open result').click();
  await page.waitForURL((u) => u.pathname === '/userDatasetAnalysis' && u.searchParams.has('id'));
}
