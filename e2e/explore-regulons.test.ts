import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_PREFIX } from '@cellcloud/contracts';
import { sharedData } from '@cellcloud/testkit';
import { readFileSync } from 'node:fs';
import { screenshot, switchLanguage } from './support/browser';
import { explorerEnv, type ExplorerEnv } from './support/explore-setup';
import { newUser } from './support/flows';

/**
 * TF regulation (issue 18) on the REAL pbmc3k result: the tab's run panel runs the regulons task on
 * the clusters with a small network (30 cells per type, 300 candidate targets), the view shows the
 * RSS / activity heat maps, the per-cell heat map, TF expression next to regulon AUC on the UMAP
 * (another regulon chosen), the average TF expression and CSI heat maps and the top-regulon
 * table, which exports as CSV; the AUC columns join the explorer's colour-by options; then Chinese.
 */
const pbmc = sharedData('pbmc3k/10x');
const DOROTHEA = sharedData('tf_regulons/dorothea_hs.tsv.gz');
let env: ExplorerEnv;

describe.skipIf(!pbmc || !DOROTHEA)('regulons task in the explorer', () => {
  beforeAll(async () => {
    env = await explorerEnv('regulons', pbmc!, { IN_PROCESS_WORKER: 'true' });
  });
  afterAll(() => env?.close());

  it('runs step 1, shows the step-2 heat maps and table, exports, in both languages', async () => {
    const { context, page, errors } = await env.newPage();
    const jobId = await env.openResult(page, newUser('regulons'), 'pbmc3k_regulons');
    await page.getByTestId('tab-label-tfRegulation').click();
    const panel = page.getByTestId('task-panel-regulons');
    await panel.waitFor({ timeout: 60_000 });
    await panel.getByTestId('task-field-groupBy').locator('.ant-select').click();
    await page
      .locator('.ant-select-item-option', { hasText: /^cluster$/ })
      .first()
      .click();
    // the sampling sizes are tuning knobs, under the form's collapsed Advanced section
    await panel.getByTestId('task-advanced-regulons').locator('.ant-collapse-header').click();
    await panel.getByTestId('task-field-cellsPerType').locator('input').fill('30');
    await panel.getByTestId('task-field-maxTargets').locator('input').fill('300');
    await panel.getByTestId('task-run-regulons').click();

    const view = page.getByTestId('regulons-view');
    await view.waitFor({ timeout: 240_000 });
    await expect(page.getByTestId('regulons-summary').textContent()).resolves.toMatch(
      /\d+ regulons from \d+ transcription factors/,
    );
    await page.getByTestId('regulons-rss').locator('canvas').first().waitFor();
    await page.getByTestId('regulons-csi').locator('canvas').first().waitFor();
    await page.getByTestId('regulons-top').locator('tbody tr.ant-table-row').first().waitFor();
    await page.getByTestId('regulons-cell-heatmap').locator('canvas').first().waitFor();
    await page.getByTestId('regulons-tf-expression').locator('canvas').first().waitFor();
    await page.getByTestId('regulons-feature-expression').locator('canvas').first().waitFor();
    await page.getByTestId('regulons-feature-auc').locator('canvas').first().waitFor();
    const features = page.getByTestId('regulons-features');
    // another regulon in the feature plots: both titles follow
    await page.getByTestId('regulons-feature-select').locator('.ant-select').click();
    const second = page.locator('.ant-select-dropdown:visible .ant-select-item-option').nth(1);
    const name = (await second.textContent())!;
    await second.click();
    const aucTitle = page.getByTestId('regulons-feature-auc-title');
    const exprTitle = page.getByTestId('regulons-feature-expression-title');
    await expect.poll(() => aucTitle.textContent()).toBe(`${name} AUC`);
    await expect(exprTitle.textContent()).resolves.toBe(`${name.replace('(+)', '')} expression`);
    // every regulon's AUC is a per-cell column of the explorer (colour-by / annotation options)
    const token = await page.evaluate(
      (k) => (JSON.parse(window.localStorage.getItem(k) ?? '{}') as { token?: string }).token ?? '',
      `${STORAGE_PREFIX}userInfo`,
    );
    const res = await page.request.get(`/api/user_datasets/${jobId}/artifacts/manifest.json`, {
      headers: { 'access-token': token },
    });
    expect(res.status()).toBe(200);
    const manifest = (await res.json()) as { obs: { key: string }[] };
    expect(manifest.obs.map((o) => o.key)).toContain(`regulon ${name}`);
    await page.getByTestId('regulons-rss').scrollIntoViewIfNeeded();
    await screenshot(page, 'explore-regulons');
    await page.getByTestId('regulons-cell-heatmap').scrollIntoViewIfNeeded();
    await screenshot(page, 'explore-regulons-cells');
    await features.scrollIntoViewIfNeeded();
    await screenshot(page, 'explore-regulons-features');
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('regulons-top-export-csv').click(),
    ]);
    expect(readFileSync((await csv.path())!, 'utf8')).toMatch(/\(\+\)/);

    await switchLanguage(page);
    await expect.poll(() => page.getByTestId('regulons-summary').textContent()).toMatch(/个调控子/);
    await expect.poll(() => exprTitle.textContent()).toBe(`${name.replace('(+)', '')} 表达`);
    await expect(features.textContent()).resolves.toMatch(/转录因子表达/);
    await screenshot(page, 'explore-regulons');
    expect(errors).toEqual([]);
    await context.close();
  }, 420_000);
});
