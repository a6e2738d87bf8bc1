import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedData } from '@cellcloud/testkit';
import { screenshot, type TestPage } from './support/browser';
import { newUser, waitForPath } from './support/flows';
import { uploadParsed } from './support/api-setup';
import { splitTriplet } from './support/ifnb-fixture';
import { wizardEnv, type WizardEnv } from './support/wizard-setup';

/**
 * Two samples in the wizard: the ifnb subset split into its control and stimulated halves
 * (columns 1–1000 / 1001–2000, two uploads), both selected with their sample groups, Harmony
 * batch-effect removal chosen in step 3, submitted as an integrated analysis, re-edited back into
 * the wizard with the same choice, and completed (opened in the explorer).
 */
const ifnb = sharedData('ifnb_kang2018_subset');
const geneLists = sharedData('gene_ids');

let env: WizardEnv;
let tp: TestPage;
let tmp: string;
const user = newUser('ifnb');

describe.skipIf(!ifnb || !geneLists)('wizard with two ifnb samples and Harmony', () => {
  beforeAll(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'ifnb-split-'));
    env = await wizardEnv(user, geneLists!, async (server, token) => {
      for (const [name, from, to] of [
        ['ifnb_ctrl', 0, 1000],
        ['ifnb_stim', 1000, 2000],
      ] as const) {
        const dir = path.join(tmp, name);
        mkdirSync(dir);
        const up = await uploadParsed(server, token, name, splitTriplet(ifnb!, dir, from, to));
        expect(up.state).toBe('completed');
      }
    });
    tp = env.tp;
  });
  afterAll(async () => {
    await env?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('submits an integrated analysis of both samples with Harmony and re-edits it', async () => {
    const page = tp.page;
    await page.goto('/integrateLocalData');
    await page.getByTestId('wizard-step-1').waitFor();
    await page.getByTestId('wizard-job-name').fill('ifnb_harmony');
    for (const name of ['ifnb_ctrl', 'ifnb_stim']) {
      await page
        .locator('[data-testid=wizard-samples] .ant-table-row', { hasText: name })
        .locator('input[type=checkbox]')
        .check();
    }
    // Several samples need their sample-group names.
    await page.getByTestId('wizard-next').click();
    await expect(page.getByTestId('wizard-errors').textContent()).resolves.toContain(
      'Please fill in the sample group name',
    );
    await page.getByTestId('wizard-group-ifnb_ctrl').fill('ctrl');
    await page.getByTestId('wizard-group-ifnb_stim').fill('stim');
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-step-2').waitFor(); // skip evaluation (the default)
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-step-3').waitFor();
    await page.getByTestId('options-batch').click();
    await page.locator('.ant-select-item-option', { hasText: 'Harmony' }).click();
    await page.getByTestId('wizard-next').click();
    // method names as the options spell them; without an evaluation the preview says when the
    // recommended thresholds are computed (issue 22 item 6)
    await expect(page.getByTestId('wizard-preview').textContent()).resolves.toContain('Harmony');
    await expect(page.getByTestId('wizard-preview').textContent()).resolves.toContain(
      'Recommended per sample',
    );
    await screenshot(page, 'wizard-ifnb-preview');
    await page.getByTestId('wizard-submit').click();
    await page.waitForURL((u) => u.pathname === '/my_analyzes' && u.search.includes('tab=integrated'));
    const row = page.locator('[data-testid=jobs-integrated] .ant-table-row', { hasText: 'ifnb_harmony' });
    await row.waitFor();

    // Re-edit goes back into the wizard with the job's parameters (the row moves while its live
    // status changes, so the click is dispatched rather than waiting for a still layout).
    await row.getByRole('button', { name: 'Re-edit' }).click();
    await waitForPath(page, '/integrateLocalData');
    await page.getByTestId('wizard-step-1').waitFor();
    await expect(page.getByTestId('wizard-job-name').inputValue()).resolves.toBe('ifnb_harmony');
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-next').click();
    await expect(page.getByTestId('options-batch').textContent()).resolves.toContain('Harmony');

    // The integrated analysis completes (Harmony on the two batches) and opens in the explorer.
    await page.goto('/my_analyzes?tab=integrated');
    const done = page
      .locator('[data-testid=jobs-integrated] .ant-table-row', { hasText: 'ifnb_harmony' })
      .locator('[data-status=completed]');
    await done.waitFor({ timeout: 280_000 });
    await page
      .locator('[data-testid=jobs-integrated] .ant-table-row', { hasText: 'ifnb_harmony' })
      .getByText('Open result')
      .click();
    await page.waitForURL((u) => u.pathname === '/userDatasetAnalysis' && u.searchParams.has('id'));
    // The explorer shows the published result: the embedding with its clusters.
    await page.getByTestId('embedding-canvas').waitFor({ timeout: 60_000 });
    await expect
      .poll(() => page.getByTestId('legend-item').count(), { timeout: 60_000 })
      .toBeGreaterThanOrEqual(2);
  });
});
