import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedData } from '@cellcloud/testkit';
import { screenshot, switchLanguage } from './support/browser';
import { explorerEnv, type ExplorerEnv } from './support/explore-setup';
import { newUser } from './support/flows';

/**
 * Layouts on demand (issue 33) in the browser: the REAL pbmc3k result published with a manifest
 * that says, as a 250,000-cell out-of-core result's does, that its t-SNE and 3-D UMAP were not
 * computed (`layoutsNotComputed`, their entries dropped). The embedding choice's note offers to
 * compute each; the 3-D UMAP's action opens the Cellular Composition tab's layout task form preset
 * to it; the task runs in the worker and its view draws the layout of every cell; the layout then
 * joins the main view's embedding choice without a reload; in English, then in Chinese.
 */
const pbmc = sharedData('pbmc3k/10x');
let env: ExplorerEnv;

describe.skipIf(!pbmc)('layout on demand from the explorer', () => {
  beforeAll(async () => {
    env = await explorerEnv('layout', pbmc!, { IN_PROCESS_WORKER: 'true' });
  });
  afterAll(() => env?.close());

  it('computes a layout the analysis left out from the "not computed" note, in both languages', async () => {
    const { context, page, errors } = await env.newPage();
    const jobId = await env.openResult(page, newUser('layout'), 'pbmc3k_layout');
    const file = path.join(env.dataDir, 'storage/results', jobId, 'artifacts/manifest.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as {
      nCells: number;
      embeddings: { name: string }[];
      layoutsNotComputed?: unknown;
    };
    manifest.embeddings = manifest.embeddings.filter((e) => e.name !== 'tsne' && e.name !== 'umap3D');
    manifest.layoutsNotComputed = {
      names: ['tsne', 'umap3D'],
      reason: 'cells',
      cells: 250_000,
      maxCells: 200_000,
    };
    writeFileSync(file, JSON.stringify(manifest));
    await page.reload();

    await page.getByTestId('embedding-select').click();
    await page.getByTestId('layouts-not-computed').waitFor({ timeout: 60_000 });
    await expect(page.getByTestId('compute-layout-tsne').textContent()).resolves.toBe(
      'Compute the t-SNE now (a task of the Cellular Composition tab)',
    );
    // the 3-D UMAP: not the form's default (t-SNE), so the preset shows
    await page.getByTestId('compute-layout-umap3D').click();
    const panel = page.getByTestId('task-panel-layout');
    await panel.waitFor({ timeout: 60_000 });
    await expect(
      panel.getByTestId('task-field-layout').locator('.ant-select').textContent(),
    ).resolves.toContain('UMAP (3-D)');
    await panel.getByTestId('task-run-layout').click();
    const view = page.getByTestId('layout-view');
    await view.waitFor({ timeout: 240_000 });
    const summary = page.getByTestId('layout-summary');
    await expect(summary.textContent()).resolves.toMatch(
      new RegExp(
        `^UMAP \\(3-D\\) of ${manifest.nCells.toLocaleString('en-US')} cells, computed from the analysis' principal components \\(\\d+ components\\), seed 42\\.$`,
      ),
    );
    await page.getByTestId('layout-axes').waitFor();
    await page.getByTestId('layout-scatter').locator('canvas').first().waitFor({ timeout: 60_000 });
    await expect(page.getByTestId('layout-legend').textContent()).resolves.not.toBe('');
    await page.getByTestId('layout-scatter').scrollIntoViewIfNeeded();
    await screenshot(page, 'explore-layout');

    // the computed layout joins the main view's embedding choice at once (no reload); the t-SNE
    // stays "not computed"
    await page.getByTestId('embedding-select').scrollIntoViewIfNeeded();
    await page.getByTestId('embedding-select').click();
    const umap3d = page.locator('.ant-select-item-option[title="3-D UMAP"]');
    await umap3d.waitFor({ timeout: 30_000 });
    await expect(umap3d.getAttribute('aria-disabled')).resolves.not.toBe('true');
    await expect(page.locator('.ant-select-item-option[title="t-SNE (not computed)"]').count()).resolves.toBe(
      1,
    );
    await expect(page.getByTestId('compute-layout-umap3D').count()).resolves.toBe(0);
    await umap3d.click();
    const viewer = page.getByTestId('viewer-panel');
    await viewer.getByText('Rotate', { exact: true }).waitFor({ timeout: 60_000 });
    await expect(page.getByTestId('embedding-select').textContent()).resolves.toContain('3-D UMAP');

    await switchLanguage(page);
    await page.reload();
    await page.getByTestId('tab-label-cellularComposition').click();
    const zh = page.getByTestId('layout-summary');
    await zh.waitFor({ timeout: 120_000 });
    await expect(zh.textContent()).resolves.toMatch(
      /^\d[\d,]* 个细胞的UMAP（三维），基于分析的主成分（\d+ 个成分）计算，随机种子 42。$/,
    );
    await page.getByTestId('layout-scatter').scrollIntoViewIfNeeded();
    await screenshot(page, 'explore-layout');
    expect(errors).toEqual([]);
    await context.close();
  }, 600_000);
});
