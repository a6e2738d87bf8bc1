import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedData } from '@cellcloud/testkit';
import { screenshot, switchLanguage } from './support/browser';
import { explorerEnv, type ExplorerEnv } from './support/explore-setup';
import { newUser } from './support/flows';

/**
 * Cell interaction (issue 16) on the REAL pbmc3k result: the Cell Interactions tab's run panel
 * runs the CellPhoneDB task on the clusters (worker, 1000 permutations), the view shows the count
 * heat map (count and log), the network and the top-30 dot plot; step 2 picks a curated category
 * and cell-type pairs → detail dot plot + table; the table exports as CSV and the heat map as
 * SVG; then the same view in Chinese.
 */
const pbmc = sharedData('pbmc3k/10x');
const CPDB = sharedData('cellphonedb_v5/interaction_input.csv.gz');
let env: ExplorerEnv;

describe.skipIf(!pbmc || !CPDB)('cell interaction task in the explorer', () => {
  beforeAll(async () => {
    env = await explorerEnv('interaction', pbmc!, { IN_PROCESS_WORKER: 'true' });
  });
  afterAll(() => env?.close());

  it('runs, shows heat map / network / dot plot, step 2 selection and exports, in both languages', async () => {
    const { context, page, errors } = await env.newPage();
    await env.openResult(page, newUser('interaction'), 'pbmc3k_interaction');
    await page.getByTestId('tab-label-cellInteractions').click();
    const panel = page.getByTestId('task-panel-interaction');
    await panel.waitFor({ timeout: 60_000 });
    await panel.getByTestId('task-field-groupBy').locator('.ant-select').click();
    await page
      .locator('.ant-select-item-option', { hasText: /^cluster$/ })
      .first()
      .click();
    await panel.getByTestId('task-run-interaction').click();

    const view = page.getByTestId('interaction-view');
    await view.waitFor({ timeout: 180_000 });
    await expect(page.getByTestId('interaction-summary').textContent()).resolves.toMatch(
      /cell types, \d+ ligand–receptor/,
    );
    await page.getByTestId('interaction-heatmap').locator('canvas').first().waitFor();
    await page.getByTestId('interaction-heat-scale').getByText('Log count').click();
    await page.getByTestId('interaction-network').locator('canvas').first().waitFor();
    await page.getByTestId('interaction-top30').scrollIntoViewIfNeeded();
    await screenshot(page, 'explore-interaction');

    // chart export (the explorer's EChart: PNG ≥ 4200 px, SVG, TIFF) — SVG here, it is the cheap one
    const [svg] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('interaction-heatmap').getByRole('button', { name: 'SVG' }).click(),
    ]);
    expect(readFileSync((await svg.path())!, 'utf8')).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);

    // step 2: chemokines between the first two cell-type pairs → detail table and CSV
    await page.getByTestId('interaction-category').click();
    await page.locator('.ant-select-item-option', { hasText: 'Chemokines' }).click();
    await page.getByTestId('interaction-cell-pairs').click();
    // options of a long virtual list can move while it renders: select them by event
    await page.locator('.ant-select-item-option[title="1|2"]').dispatchEvent('click');
    await page.locator('.ant-select-item-option[title="2|1"]').dispatchEvent('click');
    await page.keyboard.press('Escape');
    const rows = page.getByTestId('interaction-detail-table').locator('tbody tr.ant-table-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBeGreaterThan(0);
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('interaction-detail-export-csv').click(),
    ]);
    const text = readFileSync((await csv.path())!, 'utf8');
    expect(text.split('\n')[0]).toContain('interacting pair');
    expect(text).toMatch(/CC[LR]|CXC[LR]/);

    await switchLanguage(page);
    await expect.poll(() => page.getByTestId('interaction-summary').textContent()).toMatch(/种细胞类型/);
    await expect(page.getByTestId('interaction-view').textContent()).resolves.toContain('第二步');
    await screenshot(page, 'explore-interaction');
    expect(errors).toEqual([]);
    await context.close();
  }, 300_000);
});
