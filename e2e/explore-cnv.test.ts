import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedData } from '@cellcloud/testkit';
import { screenshot, switchLanguage } from './support/browser';
import { explorerEnv, type ExplorerEnv } from './support/explore-setup';
import { newUser } from './support/flows';

/**
 * CNV and ITH (issue 17) in the browser on the REAL pbmc3k result: in the CNV tab the run panel
 * picks the level (cluster) and the reference groups from that level, the task runs in the worker,
 * the view draws the heat map canvas and the CNV score violins; in the ITH tab an ITH run by cluster
 * shows its box plots; both views render in Chinese after switching the language.
 */
const pbmc = sharedData('pbmc3k/10x');
let env: ExplorerEnv;

const visibleOption = (page: Page, text: string | RegExp) =>
  page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', {
    hasText: text,
  });

async function pick(page: Page, panel: string, field: string, values: string[]) {
  const item = page.getByTestId(panel).getByTestId(`task-field-${field}`);
  await item.scrollIntoViewIfNeeded();
  await item.locator('.ant-select').first().click({ force: true });
  for (const v of values)
    await visibleOption(page, new RegExp(`^${v}$`))
      .first()
      .click();
  await page.keyboard.press('Escape');
}

/** The heat map canvas has painted colour (not only white) somewhere in its body. */
const canvasPainted = (page: Page) =>
  page
    .getByTestId('cnv-heatmap')
    .locator('canvas')
    .evaluate((c: HTMLCanvasElement) => {
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let coloured = 0;
      for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i]! - d[i + 2]!) > 60) coloured++;
      return coloured;
    });

describe.skipIf(!pbmc)('cnv and ith tasks in the explorer', () => {
  beforeAll(async () => {
    env = await explorerEnv('cnv', pbmc!, { IN_PROCESS_WORKER: 'true' });
  });
  afterAll(() => env?.close());

  it('choose references → run → heat map → score violins → ITH, in both languages', async () => {
    const { context, page, errors } = await env.newPage();
    await env.openResult(page, newUser('cnv'), 'pbmc3k_cnv');
    await page.getByTestId('tab-label-cnv').click();
    await page.getByTestId('task-panel-cnv').waitFor({ timeout: 60_000 });
    await pick(page, 'task-panel-cnv', 'groupBy', ['cluster']);
    await pick(page, 'task-panel-cnv', 'reference', ['1', '2']);
    await page.getByTestId('task-run-cnv').click();
    await page.getByTestId('cnv-view').waitFor({ timeout: 180_000 });
    await page.getByTestId('cnv-heatmap').waitFor();
    await expect.poll(() => canvasPainted(page), { timeout: 20_000 }).toBeGreaterThan(100);
    await page.getByTestId('cnv-heatmap').scrollIntoViewIfNeeded();
    await screenshot(page, 'explore-cnv-heatmap');
    await page.getByTestId('cnv-view').getByRole('tab').nth(2).click();
    await page.getByTestId('cnv-scores-chart').locator('canvas').first().waitFor();
    await screenshot(page, 'explore-cnv-scores');
    await page.getByTestId('cnv-view').getByRole('tab').nth(3).click();
    await page.getByTestId('cnv-frequency-chart').locator('canvas').first().waitFor();

    await page.getByTestId('tab-label-ith').click();
    await page.getByTestId('task-panel-ith').waitFor({ timeout: 60_000 });
    await pick(page, 'task-panel-ith', 'groupBy', ['cluster']);
    await page.getByTestId('task-advanced-ith').locator('.ant-collapse-header').click();
    await page.getByTestId('task-panel-ith').getByTestId('task-field-ncellMax').locator('input').fill('100');
    await page.getByTestId('task-run-ith').click();
    await page.getByTestId('ith-chart').locator('canvas').first().waitFor({ timeout: 180_000 });
    await page.getByTestId('ith-chart').scrollIntoViewIfNeeded();
    await screenshot(page, 'explore-ith');

    await switchLanguage(page);
    await page.reload();
    await page.getByTestId('tab-label-cnv').click();
    await page.getByTestId('cnv-heatmap').waitFor({ timeout: 60_000 });
    await expect(page.getByTestId('cnv-view').getByRole('tab').first().textContent()).resolves.toMatch(
      /热图/,
    );
    await screenshot(page, 'explore-cnv-heatmap');
    await page.getByTestId('tab-label-ith').click();
    await page.getByTestId('ith-chart').waitFor({ timeout: 60_000 });
    await expect(page.getByTestId('ith-view').textContent()).resolves.toMatch(/方法/);
    expect(errors).toEqual([]);
    await context.close();
  }, 300_000);
});
