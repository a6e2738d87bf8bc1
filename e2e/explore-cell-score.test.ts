import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedData } from '@cellcloud/testkit';
import { screenshot, switchLanguage } from './support/browser';
import { explorerEnv, type ExplorerEnv } from './support/explore-setup';
import { newUser } from './support/flows';

/**
 * Cell score (issue 11's worked example of the task shape) in the browser on the REAL pbmc3k
 * result: the Gene Expression tab's generic run panel takes an uploaded T-cell gene set csv, the
 * task runs in the worker (history shows it processing, then completed), the cell-score view
 * shows the embedding, violins and per-cell table; a malformed csv fails with the docs/product/validation.md message,
 * in English and in Chinese.
 */
const pbmc = sharedData('pbmc3k/10x');
let env: ExplorerEnv;

describe.skipIf(!pbmc)('cell score task in the explorer', () => {
  beforeAll(async () => {
    env = await explorerEnv('cell-score', pbmc!, { IN_PROCESS_WORKER: 'true' });
  });
  afterAll(() => env?.close());

  it('runs an uploaded gene set, shows the result view, and refuses a malformed file in both languages', async () => {
    const { context, page, errors } = await env.newPage();
    await env.openResult(page, newUser('cellscore'), 'pbmc3k_cell_score');
    await page.getByTestId('tab-label-geneExpression').click();
    const panel = page.getByTestId('task-panel-cell-score');
    await panel.waitFor({ timeout: 60_000 });

    // issue 31, a form a researcher reads: the tuning knobs wait under a collapsed "Advanced",
    // each field has help, and on a 390 px screen the form fits
    await expect(panel.getByTestId('task-field-nBins').isVisible()).resolves.toBe(false);
    await panel.getByTestId('task-field-method').locator('.ant-form-item-tooltip').hover();
    await page.getByRole('tooltip', { name: /AddModuleScore/ }).waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    await panel.getByTestId('task-advanced-cell-score').locator('.ant-collapse-header').click();
    await panel.getByTestId('task-field-nBins').waitFor();
    const form = panel.getByTestId('task-form-cell-score');
    const fits = () =>
      form.evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= 390);
    await expect(fits()).resolves.toBe(true);
    await page.setViewportSize({ width: 1440, height: 1000 });
    // checked in the form before anything is queued: the field named by its label, what to do
    const runs = panel.locator('[data-testid=task-history-cell-score] .ant-table-row');
    const before = await runs.count();
    await panel.getByTestId('task-field-name').locator('input').fill('my score');
    await panel.getByTestId('task-run-cell-score').click();
    await expect(
      panel.getByTestId('task-field-name').locator('.ant-form-item-explain-error').textContent(),
    ).resolves.toBe('Score name has a value that cannot be used; see its help (?) and change it.');
    await expect(runs.count()).resolves.toBe(before);
    await panel.getByTestId('task-field-name').locator('input').fill('tcell');

    const upload = panel.getByTestId('task-upload-geneSet').locator('input[type=file]');
    await upload.setInputFiles({
      name: 'tcells.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('CD3D\nCD3E\nCD2\nIL7R\nLCK\n'),
    });
    await panel.getByTestId('task-run-cell-score').click();
    const view = page.getByTestId('cell-score-view');
    await view.waitFor({ timeout: 120_000 });
    // the history names the run's parameters readably (issue 31: raw key=value, [object Object])
    const params = (await panel.getByTestId('task-params').first().textContent()) ?? '';
    expect(params).toContain('Gene set file (csv, one gene per line, no header): tcells.csv');
    expect(params).toContain('Method: AddModuleScore and UCell');
    expect(params).not.toMatch(/\[object |=/);
    await expect(page.getByTestId('cell-score-genes').textContent()).resolves.toMatch(/5 of 5 genes used/);
    await page.getByTestId('cell-score-table').locator('tbody tr').first().waitFor();
    await page.getByTestId('cell-score-embedding').scrollIntoViewIfNeeded();
    await screenshot(page, 'explore-cell-score');

    await upload.setInputFiles({
      name: 'bad.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('gene,weight\nCD3D,1\n'),
    });
    await panel.getByTestId('task-run-cell-score').click();
    const failure = panel.getByTestId('task-failure').first();
    await failure.waitFor({ timeout: 120_000 });
    await expect(failure.textContent()).resolves.toMatch(/one gene per line, no header/);
    await switchLanguage(page);
    await page.reload();
    await page.getByTestId('tab-label-geneExpression').click();
    await expect(
      page.getByTestId('task-panel-cell-score').getByTestId('task-failure').first().textContent(),
    ).resolves.toMatch(/请每行提供一个基因/);
    await screenshot(page, 'explore-cell-score');
    expect(errors).toEqual([]);
    await context.close();
  }, 300_000);
});
