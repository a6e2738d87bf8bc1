import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedData } from '@cellcloud/testkit';
import { screenshot, switchLanguage, type TestPage } from './support/browser';
import { newUser } from './support/flows';
import {
  submitWizard,
  upload10xSample,
  wizardEnv,
  wizardStep1,
  type WizardEnv,
} from './support/wizard-setup';

/**
 * Cell annotation (issue 13) end to end in the browser, both languages: pbmc3k is uploaded and
 * parsed (API setup); the researcher runs the WIZARD with "Cell annotation: Automatic", tissue
 * blood (species human, detected from the sample) → the analysis job annotates in the worker →
 * the Cell Annotations tab shows the automatic labels per cluster with confidence and the reference
 * marker dot plot → (in Chinese) two labels are merged by hand and saved as a new level → after a
 * reload the saved level is still there with the edit, and a cell-type level of the composition
 * tab → the DE tab's cluster genes are started for that level and its result is picked and shown
 * in the UI.
 */
const pbmcDir = sharedData('pbmc3k/10x');
const geneLists = sharedData('gene_ids');
const have = pbmcDir !== undefined && geneLists !== undefined;

let env: WizardEnv;
let tp: TestPage;
const user = newUser('annot');

const option = (page: Page, text: string) =>
  page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', {
    hasText: text,
  });

async function pick(page: Page, select: string, text: string): Promise<void> {
  await page.getByTestId(select).click();
  await option(page, text).first().scrollIntoViewIfNeeded();
  await option(page, text).first().click();
  await expect(page.getByTestId(select).textContent()).resolves.toContain(text);
}

describe.skipIf(!have)('cell annotation: wizard → labels → hand edit saved as a level → DE by it', () => {
  beforeAll(async () => {
    env = await wizardEnv(user, geneLists!, upload10xSample('pbmc3k', pbmcDir!));
    tp = env.tp;
  }, 300_000);
  afterAll(() => env?.close());

  it('runs the wizard with automatic annotation (human, blood)', async () => {
    const page = tp.page;
    await page.goto('/integrateLocalData');
    await page.getByTestId('wizard-step-1').waitFor();
    await wizardStep1(page, 'pbmc3k_annotated', 'pbmc3k');
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-step-2').waitFor();
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-step-3').waitFor();
    // SPEC §5: automatic annotation needs a tissue type
    await page.locator('[data-testid=wizard-annotation] input[type=radio][value=auto]').check();
    await page.getByTestId('wizard-next').click();
    await expect(page.getByTestId('wizard-errors').textContent()).resolves.toContain('tissue');
    await page.getByTestId('wizard-tissue').fill('blood');
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-step-4').waitFor();
    const preview = (await page.getByTestId('wizard-preview').textContent()) ?? '';
    expect(preview).toContain('Homo sapiens');
    expect(preview).toContain('blood');
    const row = await submitWizard(page, 'pbmc3k_annotated');
    await expect
      .poll(
        async () => {
          const status = await row
            .locator('[data-status]')
            .getAttribute('data-status', { timeout: 20_000 })
            .catch(() => null);
          if (status !== 'completed' && status !== 'failed') await page.reload();
          return status;
        },
        // the analysis job (QC, clustering, annotation) takes ~1 min on a quiet machine; much longer under load
        { timeout: 560_000, interval: 5000 },
      )
      .toBe('completed');
    await row.getByText('Open result').click();
    await page.waitForURL((u) => u.pathname === '/userDatasetAnalysis' && u.searchParams.has('id'));
  }, 600_000);

  it('shows the labels, saves a hand edit as a level that survives a reload, groups DE by it', async () => {
    const page = tp.page;
    await page.getByTestId('tab-label-cellAnnotations').click();
    const tab = page.getByTestId('tab-cellAnnotations');
    await tab.waitFor({ timeout: 60_000 });
    const clusters = page.getByTestId('annotation-clusters');
    await expect.poll(() => clusters.textContent(), { timeout: 60_000 }).toMatch(/CD4 naive T/);
    await expect(clusters.textContent()).resolves.toMatch(/B.*%/);
    await page.getByTestId('annotation-reference').waitFor();
    await page.getByTestId('annotation-dotplot').waitFor();
    await screenshot(page, 'explore-annotation');

    // the hand edit, in Chinese: merge the two CD4 labels
    // (labels with very few cells merge into the largest one: DE needs at least 3 cells per group)
    await switchLanguage(page);
    await expect(tab.textContent()).resolves.toMatch(/各簇的主要标签/);
    const rows = await page
      .getByTestId('annotation-edit')
      .locator('tbody tr.ant-table-row')
      .evaluateAll((trs) =>
        trs.map((tr) => [tr.children[0]?.textContent ?? '', Number(tr.children[1]?.textContent)] as const),
      );
    expect(rows.length).toBeGreaterThan(3);
    const biggest = [...rows].filter(([l]) => !l.startsWith('CD4')).sort((a, b) => b[1] - a[1])[0]![0];
    for (const [label, cells] of rows)
      if (cells < 10) await page.getByTestId(`rename-${label}`).fill(biggest);
    await page.getByTestId('rename-CD4 naive T').fill('CD4 T');
    await page.getByTestId('rename-CD4 memory T').fill('CD4 T');
    await page.getByTestId('annotation-level-name').fill('my_labels');
    await page.getByTestId('annotation-save').click();
    await expect
      .poll(() => page.getByTestId('annotation-level').textContent(), { timeout: 30_000 })
      .toMatch(/my_labels/);
    await expect.poll(() => clusters.textContent(), { timeout: 30_000 }).toMatch(/CD4 T/);
    await screenshot(page, 'explore-annotation');

    // the edit persists: after a reload the saved level is listed and holds the merged label
    await page.reload();
    await page.getByTestId('tab-label-cellAnnotations').click();
    await tab.waitFor({ timeout: 60_000 });
    await expect.poll(() => clusters.textContent(), { timeout: 60_000 }).toMatch(/CD4 naive T/);
    await pick(page, 'annotation-level', 'my_labels');
    await expect.poll(() => clusters.textContent(), { timeout: 30_000 }).toMatch(/CD4 T/);
    await expect(clusters.textContent()).resolves.not.toMatch(/CD4 naive T/);

    // the saved level is a cell-type level of the composition tab too
    await page.getByTestId('tab-label-cellularComposition').click();
    await page.getByTestId('tab-cellularComposition').waitFor({ timeout: 60_000 });
    await pick(page, 'composition-types', 'my_labels');
    await expect
      .poll(() => page.getByTestId('tab-cellularComposition').locator('.ant-table').textContent(), {
        timeout: 30_000,
      })
      .toMatch(/CD4 T/);

    // DE (still in Chinese): cluster genes grouped by the saved level, picked and shown in the UI
    await page.getByTestId('tab-label-differentialExpression').click();
    await page.getByTestId('deg-jobs').waitFor({ timeout: 60_000 });
    if (!((await page.getByTestId('deg-jobs-grouping').textContent()) ?? '').includes('my_labels'))
      await pick(page, 'deg-jobs-grouping', 'my_labels');
    await page.getByTestId('deg-jobs-cluster-genes').click();
    await expect
      .poll(
        async () => {
          if (await page.getByTestId('deg-jobs-failed').isVisible()) return 'failed';
          await page.getByTestId('deg-jobs-refresh').click();
          await page.getByTestId('deg-source').click();
          const found = await option(page, 'my_labels 的簇基因').count();
          await page.keyboard.press('Escape');
          return found > 0 ? 'completed' : 'waiting';
        },
        { timeout: 150_000, interval: 3000 },
      )
      .toBe('completed');
    await pick(page, 'deg-source', 'my_labels 的簇基因');
    const count = page.getByTestId('deg-count');
    await expect
      .poll(async () => Number(await count.getAttribute('data-total')), { timeout: 30_000 })
      .toBeGreaterThan(0);
    await screenshot(page, 'explore-annotation-deg');
    // back in English, the result of that grouping is named in English
    await switchLanguage(page);
    await expect(page.getByTestId('deg-source').textContent()).resolves.toContain(
      'Cluster genes of my_labels',
    );
    expect(tp.errors).toEqual([]);
  }, 300_000);
});
