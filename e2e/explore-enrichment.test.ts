import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedData } from '@cellcloud/testkit';
import { screenshot, switchLanguage } from './support/browser';
import { explorerEnv, type ExplorerEnv } from './support/explore-setup';
import { newUser } from './support/flows';

/**
 * Enrichment one-vs-one (issue 15) in the browser on the REAL pbmc3k result: in the Differential
 * Expression tab, step 1 compares cluster 1 with cluster 2 (the generic run panel's group pickers),
 * the DEG view applies the SPEC §5 display filter and exports CSV; step 2 (enrich) on the same
 * groups shows the ORA table and plots and exports the table; the views render in Chinese too.
 */
const pbmc = sharedData('pbmc3k/10x');
let env: ExplorerEnv;

const visibleOption = (page: Page, text: string | RegExp) =>
  page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', {
    hasText: text,
  });

/** Level `cluster` (the first level) and one of its groups, by keyboard (the page re-lays out while charts load). */
async function pickGroup(page: Page, panelId: string, field: string, value: string) {
  const item = page.getByTestId(panelId).getByTestId(`task-field-${field}`);
  await item.scrollIntoViewIfNeeded();
  const selects = item.locator('.ant-select');
  await selects.nth(0).click({ force: true });
  await visibleOption(page, /^cluster$/)
    .first()
    .waitFor();
  await page.keyboard.press('Enter');
  await expect.poll(() => selects.nth(0).textContent()).toBe('cluster');
  await selects.nth(1).click({ force: true });
  await page.keyboard.type(value);
  await visibleOption(page, new RegExp(`^${value}$`))
    .first()
    .waitFor();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await expect.poll(() => selects.nth(1).textContent()).toContain(value);
}

async function download(page: Page, testId: string): Promise<string> {
  const [d] = await Promise.all([
    page.waitForEvent('download', { timeout: 60_000 }),
    page.getByTestId(testId).click(),
  ]);
  return readFileSync((await d.path())!, 'utf8');
}

describe.skipIf(!pbmc)('enrichment tasks in the explorer', () => {
  beforeAll(async () => {
    env = await explorerEnv('enrichment', pbmc!, { IN_PROCESS_WORKER: 'true' });
  });
  afterAll(() => env?.close());

  it('step 1 → display filter → export, step 2 → ORA plots → export, in both languages', async () => {
    const { context, page, errors } = await env.newPage();
    await env.openResult(page, newUser('enrich'), 'pbmc3k_enrichment');
    await page.getByTestId('tab-label-differentialExpression').click();
    await page.getByTestId('task-panel-deg-groups').waitFor({ timeout: 60_000 });

    await pickGroup(page, 'task-panel-deg-groups', 'group1', '1');
    await pickGroup(page, 'task-panel-deg-groups', 'group2', '2');
    await page.getByTestId('task-run-deg-groups').click();
    const count = page.getByTestId('deg-groups-count');
    await count.waitFor({ timeout: 120_000 });
    const shown = Number(await count.getAttribute('data-shown'));
    const total = Number(await count.getAttribute('data-total'));
    expect(shown).toBeGreaterThan(10);
    expect(shown).toBeLessThan(total); // SPEC §5 display filter on
    await page.getByTestId('deg-groups-filter').click();
    await expect.poll(async () => Number(await count.getAttribute('data-shown'))).toBe(total);
    await page.getByTestId('deg-groups-filter').click();
    const csv = await download(page, 'deg-groups-export-csv');
    expect(csv.split('\r\n')[0]).toContain('Adjusted p value');
    expect(csv.trim().split('\r\n').length).toBe(shown + 1);
    await page.getByTestId('deg-groups-view').scrollIntoViewIfNeeded();
    await screenshot(page, 'explore-enrichment-step1');

    await pickGroup(page, 'task-panel-enrich', 'group1', '1');
    await pickGroup(page, 'task-panel-enrich', 'group2', '2');
    await page.getByTestId('task-run-enrich').click();
    const terms = page.getByTestId('enrich-count');
    await terms.waitFor({ timeout: 120_000 });
    expect(Number(await terms.getAttribute('data-rows'))).toBeGreaterThan(0);
    await page.getByTestId('enrich-bar').locator('canvas').first().waitFor();
    await page.getByTestId('enrich-plots').getByRole('tab').nth(3).click(); // enrichment map
    await page.getByTestId('enrich-emap').locator('canvas').first().waitFor();
    const ora = await download(page, 'enrich-export-csv');
    expect(ora.split('\r\n')[0]).toBe('ID,Description,GeneRatio,BgRatio,pvalue,p.adjust,qvalue,geneID,Count');
    await page.getByTestId('enrich-view').scrollIntoViewIfNeeded();
    await screenshot(page, 'explore-enrichment-step2');

    await switchLanguage(page);
    await page.reload();
    await page.getByTestId('tab-label-differentialExpression').click();
    await expect(page.getByTestId('deg-groups-count').textContent({ timeout: 60_000 })).resolves.toMatch(
      /显示 \d+ \/ \d+ 个基因/,
    );
    await expect(page.getByTestId('enrich-count').textContent({ timeout: 60_000 })).resolves.toMatch(
      /个富集条目/,
    );
    await page.getByTestId('enrich-view').scrollIntoViewIfNeeded();
    await screenshot(page, 'explore-enrichment-step2');
    expect(errors).toEqual([]);
    await context.close();
  }, 300_000);
});
