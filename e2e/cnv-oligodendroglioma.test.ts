import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedData } from '@cellcloud/testkit';
import { screenshot, switchLanguage } from './support/browser';
import { newUser } from './support/flows';
import {
  openWhenCompleted,
  submitWizard,
  wizardEnv,
  wizardToOptions,
  type WizardEnv,
} from './support/wizard-setup';

/**
 * Issue 32 in the browser: the inferCNV oligodendroglioma matrix (Smart-seq2, non-integer values) is
 * uploaded as it ships with its cell annotation file as the metadata table; the upload is Completed
 * and says its values are non-integer counts; the wizard picks the plate-based preset by itself
 * (and says why), the analysis keeps every well; in the CNV tab the annotation's normal cells are
 * the references, and the chromosome-arm summary lists 1p and 19q among the lowest arms of the
 * malignant cells — in English, then in Chinese.
 */
const matrix = sharedData(
  'infercnv_oligodendroglioma/oligodendroglioma_expression_downsampled.counts.matrix.gz',
);
const annotations = sharedData('infercnv_oligodendroglioma/oligodendroglioma_annotations_downsampled.txt');
const geneLists = sharedData('gene_ids');
const have = !!(matrix && annotations && geneLists);
const REFERENCES = ['Microglia/Macrophage', 'Oligodendrocytes (non-malignant)'];

let env: WizardEnv;
const user = newUser('oligo');

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const visibleOption = (page: Page, text: RegExp) =>
  page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', {
    hasText: text,
  });

async function pick(page: Page, field: string, values: string[]) {
  const item = page.getByTestId('task-panel-cnv').getByTestId(`task-field-${field}`);
  await item.scrollIntoViewIfNeeded();
  await item.locator('.ant-select').first().click({ force: true });
  for (const v of values)
    await visibleOption(page, new RegExp(`^${escape(v)}$`))
      .first()
      .click();
  await page.keyboard.press('Escape');
}

/** The arms listed as the lowest of the observed cells, in order. */
async function lowestArms(page: Page): Promise<string[]> {
  const text = (await page.getByTestId('cnv-lowest-arms').textContent()) ?? '';
  return [...text.matchAll(/(\d+[pq]) \(/g)].map((m) => m[1]!);
}

describe.skipIf(!have)('oligodendroglioma: non-integer upload → plate preset → CNV 1p/19q', () => {
  beforeAll(async () => {
    env = await wizardEnv(user, geneLists!, async () => {});
  }, 300_000);
  afterAll(() => env?.close());

  it('upload as it ships, wizard defaults, CNV with the annotation as references, both languages', async () => {
    const { page, errors } = env.tp;
    await page.goto('/importdata');
    const form = page.getByTestId('upload-form-matrix');
    await form.getByTestId('sample-name').fill('Oligodendroglioma');
    const inputs = form.locator('input[type=file]');
    await inputs.first().setInputFiles([matrix!]);
    await inputs.nth(1).setInputFiles([annotations!]);
    await expect.poll(() => form.getByTestId('upload-file-row').count()).toBe(2);
    await form.getByTestId('upload-submit').click();
    const row = page.getByTestId('uploaded-files').locator('tr', { hasText: 'Oligodendroglioma' });
    await row
      .getByText('Completed')
      .waitFor({ timeout: 120_000 })
      .catch(async (e: unknown) => {
        await screenshot(page, 'oligo-import-failed');
        throw e;
      });
    await row.getByText('184 cells × 10,338 genes').waitFor();
    await expect(row.getByTestId('upload-value-kind').textContent()).resolves.toMatch(/Non-integer counts/);

    // the wizard with every default: the plate preset is chosen from the samples' depth
    await wizardToOptions(page, 'oligo_plate', 'Oligodendroglioma');
    await expect(
      page.locator('[data-testid=wizard-preset] input[type=radio][value=plate]').isChecked(),
    ).resolves.toBe(true);
    await page.getByTestId('wizard-value-kind-nonIntegerCounts').waitFor();
    await expect(page.getByTestId('wizard-doublets').getAttribute('aria-checked')).resolves.toBe('false');
    await screenshot(page, 'oligo-wizard-plate');
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-step-4').waitFor();
    await expect(page.getByTestId('wizard-preview').textContent()).resolves.toContain('1000 – 20000');
    const job = await submitWizard(page, 'oligo_plate');
    await openWhenCompleted(page, job, 240_000);

    // CNV: the annotation file's column, its two normal cell types as references
    await page.getByTestId('tab-label-cnv').click();
    await page.getByTestId('task-panel-cnv').waitFor({ timeout: 60_000 });
    await pick(page, 'groupBy', ['column1']);
    await pick(page, 'reference', REFERENCES);
    await page.getByTestId('task-run-cnv').click();
    await page.getByTestId('cnv-view').waitFor({ timeout: 180_000 });
    await page.getByTestId('cnv-view').getByRole('tab').nth(1).click();
    await page.getByTestId('cnv-lowest-arms').waitFor();
    const en = await lowestArms(page);
    expect(en.slice(0, 3)).toContain('1p');
    expect(en.slice(0, 3)).toContain('19q');
    await screenshot(page, 'oligo-cnv-arms');

    await switchLanguage(page);
    await page.reload();
    await page.getByTestId('tab-label-cnv').click();
    await page.getByTestId('cnv-view').waitFor({ timeout: 60_000 });
    await page.getByTestId('cnv-view').getByRole('tab').nth(1).click();
    await expect(page.getByTestId('cnv-lowest-arms').textContent()).resolves.toMatch(/最低的染色体臂/);
    expect(await lowestArms(page)).toEqual(en);
    await screenshot(page, 'oligo-cnv-arms');
    // the wizard and the upload list in Chinese
    await wizardToOptions(page, 'oligo_zh', 'Oligodendroglioma');
    await expect(page.getByTestId('wizard-preset').textContent()).resolves.toContain('微孔板法');
    await expect(page.getByTestId('wizard-value-kind-nonIntegerCounts').textContent()).resolves.toContain(
      '非整数计数',
    );
    await page.goto('/my_analyzes?tab=uploaded');
    const listed = page.getByTestId('uploaded-files').locator('tr', { hasText: 'Oligodendroglioma' });
    await expect(listed.getByTestId('upload-value-kind').textContent()).resolves.toContain('非整数计数');
    expect(errors).toEqual([]);
  }, 600_000);
});
