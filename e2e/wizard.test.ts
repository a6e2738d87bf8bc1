import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedData } from '@cellcloud/testkit';
import { screenshot, type TestPage } from './support/browser';
import { newUser } from './support/flows';
import {
  submitWizard,
  upload10xSample,
  wizardEnv,
  wizardStep1,
  type WizardEnv,
} from './support/wizard-setup';

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

let env: WizardEnv;
let tp: TestPage;
const user = newUser('wizard');

describe.skipIf(!have)('initiate analysis wizard', () => {
  beforeAll(async () => {
    env = await wizardEnv(user, geneLists!, upload10xSample('pbmc3k', pbmcDir!));
    tp = env.tp;
  });
  afterAll(() => env?.close());

  it('runs the wizard with a cell-filtering evaluation and submits', async () => {
    const page = tp.page;
    await page.goto('/integrateLocalData');
    await page.getByTestId('wizard-step-1').waitFor();
    // Next without anything selected shows the SPEC §5 messages.
    await page.getByTestId('wizard-next').click();
    await expect(page.getByTestId('wizard-errors').textContent()).resolves.toContain(
      'Please fill in the job name',
    );
    await wizardStep1(page, 'pbmc3k_wizard', 'pbmc3k');
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
    // the evaluated recommendations are shown as the numbers that will be applied (issue 22 item 6)
    await expect(page.getByTestId('wizard-preview').textContent()).resolves.toContain('0 – 30000'); // fixed UMI range (default)
    await expect(page.getByTestId('wizard-preview').textContent()).resolves.toMatch(
      /\d+(\.\d+)? % \(recommended\)/,
    );
    await submitWizard(page, 'pbmc3k_wizard');
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
