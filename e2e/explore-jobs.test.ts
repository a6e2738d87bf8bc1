import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { STORAGE_PREFIX } from '@cellcloud/contracts';
import type { DegRow } from '@cellcloud/contracts/artifacts';
import { sharedData } from '@cellcloud/testkit';
import { screenshot, switchLanguage } from './support/browser';
import { explorerEnv, pbmc3kResultDir, type ExplorerEnv } from './support/explore-setup';
import { newUser, waitForPath } from './support/flows';

/**
 * The explorer's job-backed actions on a REAL pbmc3k result (engine CLI output published as a
 * completed job, as e2e/explore.test.ts does): cluster genes of a copied cluster subset → Refresh → the
 * DE table with the SPEC filter; a comparison (cluster vs the rest) from the dialog; the T cells subclustered as a child task that opens
 * in /userSubCelltypeDatasetAnalysis; TIFF export of a chart. Screenshots in both languages.
 * DE and sub-clustering run in the worker's memory-capped child processes.
 */
const pbmc = sharedData('pbmc3k/10x');
let env: ExplorerEnv;
const user = newUser('explorejobs');

/** Clusters of the pbmc3k result whose markers include CD3D (the T cells). */
function tCellClusters(): string[] {
  const rows = JSON.parse(
    readFileSync(path.join(pbmc3kResultDir, 'artifacts/markers/cluster.json'), 'utf8'),
  ) as DegRow[];
  return rows.filter((r) => r.gene === 'CD3D' && r.log2fc > 1 && r.padj < 0.05).map((r) => r.cluster);
}

/** Clicks Refresh until `testId` shows up (results appear after a manual refresh, docs/product/states.md#cluster-genes). */
async function refreshUntil(
  page: Page,
  refreshId: string,
  ready: () => Promise<boolean>,
  timeoutMs = 240_000,
) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await ready()) return;
    await page.waitForTimeout(1500);
    await page.getByTestId(refreshId).click();
  }
  await screenshot(page, `explore-jobs-timeout-${refreshId}`);
  throw new Error(`nothing ready after refreshing for ${timeoutMs} ms (${refreshId})`);
}

describe.skipIf(!pbmc)('explorer job-backed actions on a pbmc3k result', () => {
  beforeAll(async () => {
    env = await explorerEnv('explore-jobs', pbmc!, { IN_PROCESS_WORKER: 'true' });
  });

  afterAll(() => env?.close());

  it('runs cluster genes, opens the filtered DE table, subclusters the T cells into a child analysis, exports TIFF', async () => {
    const { context, page, errors } = await env.newPage();
    const jobId = await env.openResult(page, user, 'pbmc3k_jobs');
    await page.getByTestId('subset-panel').waitFor({ timeout: 60_000 });

    // the T cells (clusters carrying CD3D) as a subset, created through the API the page uses
    const tClusters = tCellClusters();
    expect(tClusters.length).toBeGreaterThanOrEqual(1);
    const token = await page.evaluate(
      (k) => (JSON.parse(window.localStorage.getItem(k) ?? '{}') as { token?: string }).token ?? '',
      `${STORAGE_PREFIX}userInfo`,
    );
    const copied = await page.request.post(`/api/user_datasets/${jobId}/observation_subset`, {
      headers: { 'access-token': token },
      data: { from: 'copy', name: 'clusters_copy', key: 'cluster' },
    });
    expect(copied.status()).toBe(200);
    const created = await page.request.post(`/api/user_datasets/${jobId}/observation_subset`, {
      headers: { 'access-token': token },
      data: { from: 'labels', name: 'T_cells', key: 'cluster', labels: tClusters },
    });
    expect(created.status()).toBe(200);
    const tCells = ((await created.json()) as { data: { nCells: number } }).data.nCells;
    expect(tCells).toBeGreaterThan(100);
    await page.reload();
    await page.getByTestId('subset-show-T_cells').waitFor({ timeout: 60_000 });

    // DE runs as a job; the test waits on the API the page polls (not by re-opening the select
    // under load), then presses Refresh once as the researcher does and picks the new source
    const degTasksDone = (n: number) =>
      vi.waitFor(
        async () => {
          const res = await page.request.get(`/api/user_datasets/${jobId}/deg_tasks`, {
            headers: { 'access-token': token },
          });
          const body = await res.text();
          const rows = (JSON.parse(body) as { data: { status: string }[] }).data;
          if (rows.filter((r) => r.status === 'completed').length < n)
            throw new Error(`${n} DE task(s) not completed yet: ${body}`);
        },
        { timeout: 240_000, interval: 1500 },
      );
    const visibleOption = (text: string | RegExp) =>
      page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', {
        hasText: text,
      });
    const pickSource = async (text: string) => {
      await page.getByTestId('deg-jobs-refresh').click();
      await vi.waitFor(
        async () => {
          if (!(await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').count()))
            await page.getByTestId('deg-source').click({ timeout: 10_000 });
          await visibleOption(text).first().click({ timeout: 5_000 });
        },
        { timeout: 90_000, interval: 500 },
      );
    };

    // cluster genes of the copied clusters (the first subset, chosen by default) run as a job; the
    // result shows after Refresh, SPEC filter on
    await page.getByTestId('tab-label-differentialExpression').click();
    await page.getByTestId('deg-jobs').waitFor({ timeout: 60_000 });
    await page.getByTestId('deg-jobs-cluster-genes').click();
    await degTasksDone(1);
    await pickSource('clusters_copy');
    const degCount = page.getByTestId('deg-count');
    await expect
      .poll(async () => Number(await degCount.getAttribute('data-total')), { timeout: 60_000 })
      .toBeGreaterThan(1000);
    const [shown, total] = [
      Number(await degCount.getAttribute('data-shown')),
      Number(await degCount.getAttribute('data-total')),
    ];
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(total); // the docs/product/validation.md#deg-display-filter filter hides most rows
    expect(await page.getByTestId('deg-filter').getAttribute('aria-checked')).toBe('true');
    await page
      .getByTestId('tab-differentialExpression')
      .evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'explore-jobs-cluster-genes');

    // a new comparison from the DE tab: cluster 1 of the copy vs all other cells, as the same job
    await page.getByTestId('deg-jobs-compare').click();
    await page.getByTestId('compare-form').waitFor();
    await page.getByTestId('compare-a').click();
    await visibleOption('clusters_copy').first().click();
    await page.getByTestId('compare-a-labels').click();
    await visibleOption(/^1$/).first().click();
    await page.keyboard.press('Escape');
    await screenshot(page, 'explore-jobs-compare-dialog');
    await switchLanguage(page);
    await screenshot(page, 'explore-jobs-compare-dialog');
    await switchLanguage(page);
    await page.getByTestId('compare-ok').click();
    await page.getByTestId('compare-form').waitFor({ state: 'detached' });
    await degTasksDone(2);
    await pickSource('1 vs rest');
    await expect
      .poll(
        async () =>
          (await page
            .getByTestId('tab-differentialExpression')
            .locator('.ant-table-row')
            .first()
            .textContent()) ?? '',
        { timeout: 60_000 },
      )
      .toMatch(/^1/);
    const cmpShown = Number(await degCount.getAttribute('data-shown'));
    const cmpTotal = Number(await degCount.getAttribute('data-total'));
    expect(cmpTotal).toBeGreaterThan(1000);
    expect(cmpShown).toBeGreaterThan(0);
    expect(cmpShown).toBeLessThan(cmpTotal);

    // TIFF export of the volcano plot through the server conversion
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 120_000 }),
      page.getByTestId('chart-export-tiff').first().click(),
    ]);
    const tiff = readFileSync((await download.path())!);
    expect(Array.from(tiff.subarray(0, 4))).toEqual([0x49, 0x49, 0x2a, 0x00]);
    expect((await sharp(tiff).metadata()).height).toBeGreaterThanOrEqual(4200);

    // subcluster the T cells: a child task that opens in /userSubCelltypeDatasetAnalysis
    await page.getByTestId('subset-subcluster-T_cells').click();
    await page.getByTestId('subcluster-form').waitFor();
    await screenshot(page, 'explore-jobs-subcluster-dialog');
    await switchLanguage(page);
    await screenshot(page, 'explore-jobs-subcluster-dialog');
    await switchLanguage(page);
    await page.getByTestId('subcluster-ok').click();
    await page.getByTestId('child-tasks').waitFor({ timeout: 60_000 });
    const open = page.locator('[data-testid^="child-open-"]');
    await refreshUntil(page, 'child-tasks-refresh', async () => (await open.count()) > 0, 600_000);
    await page.getByTestId('child-tasks').evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await screenshot(page, 'explore-jobs-child-tasks');
    await switchLanguage(page);
    await page.getByTestId('tab-label-differentialExpression').click();
    await page.getByTestId('deg-jobs').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'explore-jobs-cluster-genes');
    await switchLanguage(page);
    await open.first().click();
    await waitForPath(page, '/userSubCelltypeDatasetAnalysis');
    expect(new URL(page.url()).searchParams.get('parent')).toBe(jobId);
    await expect
      .poll(() => page.getByTestId('legend-item').count(), { timeout: 120_000 })
      .toBeGreaterThanOrEqual(2);
    await page.waitForTimeout(800);
    await screenshot(page, 'explore-jobs-subcelltype');
    await switchLanguage(page);
    await screenshot(page, 'explore-jobs-subcelltype');
    expect(errors).toEqual([]);
    await context.close();
  }, 1_200_000);
});
