import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { STORAGE_PREFIX } from '@cellcloud/contracts';
import { sharedData } from '@cellcloud/testkit';
import { ensureWebBuild } from './support/build';
import { launchBrowser, openPage, screenshot, type TestPage } from './support/browser';
import { startServer, type RunningServer } from './support/server';
import { logInViaUi, newUser, waitForPath } from './support/flows';
import { registerAndLogIn, uploadParsed } from './support/api-setup';

/**
 * Issue 6 in the browser: pbmc3k is uploaded and parsed (API setup), then the researcher runs the
 * initiate-analysis wizard: selects the sample, evaluates cell filtering (background job; before/
 * after distributions), tightens a threshold and sees fewer kept cells, saves a draft, submits,
 * leaves the page and gets the completion notification live on /notifications, finds the job
 * completed in My Analyses and opens its result.
 */
const pbmcDir = sharedData('pbmc3k/10x');
const geneLists = sharedData('gene_ids');
const have = pbmcDir !== undefined && geneLists !== undefined;

let server: RunningServer;
let browser: Browser;
let tp: TestPage;
const user = newUser('wizard');

describe.skipIf(!have)('initiate analysis wizard', () => {
  beforeAll(async () => {
    ensureWebBuild();
    server = await startServer({
      ENSEMBL_GENE_LISTS_DIR: geneLists!,
      IN_PROCESS_WORKER: 'true',
      WORKER_CONCURRENCY: '1',
    });
    browser = await launchBrowser();
    const token = await registerAndLogIn(server, user);
    const up = await uploadParsed(
      server,
      token,
      'pbmc3k',
      ['matrix.mtx.gz', 'genes.tsv.gz', 'barcodes.tsv.gz'].map((f) => `${pbmcDir}/${f}`),
    );
    expect(up.state).toBe('completed');
    tp = await openPage(browser, {
      baseURL: server.url,
      locale: 'en-US',
      allowFailedRequests: [/\/api\/jobs\/events/],
    });
    // The first-visit tutorial (its own test) stays closed here.
    await tp.context.addInitScript(
      (key) => window.localStorage.setItem(key, '1'),
      `${STORAGE_PREFIX}tutorialDismissed`,
    );
    await tp.page.goto('/login?redirect=%2Fmy_analyzes');
    try {
      await logInViaUi(tp.page, user.username, user.password);
    } catch (e) {
      await screenshot(tp.page, 'wizard-login-failure');
      throw new Error(`${(e as Error).message}\nbrowser errors: ${tp.errors.join('\n')}`);
    }
    await waitForPath(tp.page, '/my_analyzes');
  });
  afterAll(async () => {
    await tp?.close();
    await browser?.close();
    await server?.stop();
  });

  it('runs the wizard with a cell-filtering evaluation and submits', async () => {
    const page = tp.page;
    await page.goto('/integrateLocalData');
    await page.getByTestId('wizard-step-1').waitFor();
    // Next without anything selected shows the SPEC §5 messages.
    await page.getByTestId('wizard-next').click();
    await expect(page.getByTestId('wizard-errors').textContent()).resolves.toContain(
      'Please fill in the job name',
    );
    await page.getByTestId('wizard-job-name').fill('pbmc3k_wizard');
    await page
      .locator('[data-testid=wizard-samples] .ant-table-row', { hasText: 'pbmc3k' })
      .locator('input[type=checkbox]')
      .check();
    await page.getByTestId('wizard-next').click();

    await page.getByTestId('wizard-step-2').waitFor();
    await page.getByTestId('cell-filtering-mode').getByText('Evaluate cell filtering').click();
    await page.getByTestId('cell-filtering-start').click();
    await page.getByTestId('qc-distributions').waitFor({ timeout: 120_000 });
    await page.locator('[data-testid=qc-distributions] canvas').first().waitFor();
    const keptBefore = Number(await page.getByTestId('kept-count').textContent());
    expect(keptBefore).toBeGreaterThan(2000);
    await screenshot(page, 'wizard-cell-filtering');
    // Tighten the minimum genes: fewer cells are kept, counted live.
    await page.getByTestId('filter-gene-min').fill('800');
    await page.getByTestId('filter-gene-min').press('Tab');
    await expect
      .poll(async () => Number(await page.getByTestId('kept-count').textContent()))
      .toBeLessThan(keptBefore);
    await page.getByTestId('wizard-save-draft').click();
    await page.getByText('Draft saved').waitFor();
    await page.getByTestId('wizard-next').click();

    await page.getByTestId('wizard-step-3').waitFor();
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-step-4').waitFor();
    await expect(page.getByTestId('wizard-preview').textContent()).resolves.toContain('800 – ');
    await page.getByTestId('wizard-submit').click();
    await page.waitForURL((u) => u.pathname === '/my_analyzes' && u.search.includes('tab=custom'));
    await page.locator('[data-testid=jobs-custom] .ant-table-row', { hasText: 'pbmc3k_wizard' }).waitFor();
    await screenshot(page, 'wizard-job-list');
  });

  it('notifies the completion while the user is elsewhere and opens the result', async () => {
    const page = tp.page;
    await page.goto('/notifications');
    // The notification arrives over the live stream (no reload).
    const item = page.locator('[data-testid^=notification-job]', { hasText: 'pbmc3k_wizard' });
    await item.waitFor({ timeout: 280_000 });
    expect(await item.getAttribute('data-testid'), (await item.textContent()) ?? '').toBe(
      'notification-job.completed',
    );
    await screenshot(page, 'wizard-notification');
    await page.goto('/my_analyzes?tab=custom');
    const row = page.locator('[data-testid=jobs-custom] .ant-table-row', { hasText: 'pbmc3k_wizard' });
    await expect(row.locator('[data-status]').getAttribute('data-status')).resolves.toBe('completed');
    await row.getByText('Open result').click();
    await page.waitForURL((u) => u.pathname === '/userDatasetAnalysis' && u.searchParams.has('id'));
    // The explorer shows the published result: the embedding with its clusters.
    await page.getByTestId('embedding-canvas').waitFor({ timeout: 60_000 });
    await expect
      .poll(() => page.getByTestId('legend-item').count(), { timeout: 60_000 })
      .toBeGreaterThanOrEqual(2);
    await screenshot(page, 'wizard-result');
  });
});
