import path from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { sharedData } from '@cellcloud/testkit';
import { repoRoot } from './support/build';
import { screenshot, switchLanguage } from './support/browser';
import { explorerEnv, type ExplorerEnv } from './support/explore-setup';
import { logInViaUi, newUser, registerViaApi, waitForPath } from './support/flows';

/**
 * The explorer end to end on a REAL pbmc3k result: the engine CLI analyses the shared 10x data,
 * the result is published where the job runner publishes it (storage results/<jobId>/) for a
 * completed job of a user who signed up through the UI, and the page is driven in Chromium
 * (WebGL via SwiftShader, so the viewer picks its CPU renderer; a second case forces the WebGL renderer
 * with `?renderer=webgl`). Screenshots of every tab in both languages land in screenshots/.
 */
const pbmc = sharedData('pbmc3k/10x');
let env: ExplorerEnv;
let jobId: string;
const user = newUser('explore');

/** Counts canvas pixels per colour class in a PNG screenshot (decoded by the browser itself). */
async function pixelStats(page: Page, png: Buffer): Promise<{ coloured: number; distinct: number }> {
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext('2d')!;
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    const colours = new Set<number>();
    let coloured = 0;
    for (let i = 0; i < d.length; i += 4) {
      const [r, gg, bb] = [d[i]!, d[i + 1]!, d[i + 2]!];
      if (Math.max(r, gg, bb) - Math.min(r, gg, bb) > 40) {
        coloured += 1;
        colours.add(((r >> 4) << 8) | ((gg >> 4) << 4) | (bb >> 4));
      }
    }
    return { coloured, distinct: colours.size };
  }, png.toString('base64'));
}

async function openTab(page: Page, key: string, testId: string) {
  await page.getByTestId(`tab-label-${key}`).click();
  await page.getByTestId(testId).waitFor({ timeout: 60_000 });
  await page.getByTestId(`tab-label-${key}`).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.waitForTimeout(800); // charts finish their first layout
}

describe.skipIf(!pbmc)('explorer on a pbmc3k result', () => {
  beforeAll(async () => {
    env = await explorerEnv('explore', pbmc!);
  });

  afterAll(() => env?.close());

  it('signs up, opens the finished analysis, colours by cluster and CD3D, lassos cells, exports a tall PNG, shows every tab in both languages', async () => {
    const { context, page, errors } = await env.newPage();
    jobId = await env.openResult(page, user, 'pbmc3k_e2e', { signUp: 'ui' });

    // coloured by the raw cluster by default: legend lists the clusters, canvas shows several colours
    const canvas = page.getByTestId('embedding-canvas');
    await canvas.waitFor({ timeout: 60_000 });
    await expect
      .poll(() => page.getByTestId('legend-item').count(), { timeout: 60_000 })
      .toBeGreaterThanOrEqual(2);
    await page.waitForTimeout(500);
    // no GPU here: Chromium's WebGL is SwiftShader, so the automatic choice is the CPU splat renderer
    expect(await canvas.getAttribute('data-renderer')).toBe('cpu');
    const clusters = await pixelStats(page, await canvas.screenshot());
    expect(clusters.coloured).toBeGreaterThan(2000);
    expect(clusters.distinct).toBeGreaterThanOrEqual(3);
    await screenshot(page, 'explore-cluster');

    // colour by CD3D from the gene search
    const search = page.getByTestId('viewer-panel').locator('.ant-select-auto-complete input').first();
    await search.fill('CD3D');
    await page
      .locator('.ant-select-item-option', { hasText: /^CD3D$/ })
      .first()
      .click();
    await expect.poll(() => page.getByTestId('legend').textContent(), { timeout: 30_000 }).toContain('CD3D');
    await page.waitForTimeout(500);
    const cd3d = await pixelStats(
      page,
      await canvas.screenshot({ path: path.join(repoRoot, 'screenshots/explore-canvas-cd3d.png') }),
    );
    expect(cd3d.coloured).toBeGreaterThan(200); // expressing T cells are coloured, the rest grey
    await screenshot(page, 'explore-cd3d');

    // a second gene really is another gene (B-cell MS4A1 colours far fewer cells than CD3D)
    await search.click();
    await search.fill('MS4A1');
    await search.press('Enter');
    await expect.poll(() => page.getByTestId('legend').textContent(), { timeout: 30_000 }).toContain('MS4A1');
    await page.waitForTimeout(500);
    const ms4a1 = await pixelStats(
      page,
      await canvas.screenshot({ path: path.join(repoRoot, 'screenshots/explore-canvas-ms4a1.png') }),
    );
    expect(ms4a1.coloured).toBeGreaterThan(50);
    expect(ms4a1.coloured * 1.5).toBeLessThan(cd3d.coloured);

    // labels on the clusters, and a hover tooltip over a cell
    await page.locator('.ant-radio-button-wrapper', { hasText: 'On cluster' }).click();
    await expect
      .poll(() => page.getByTestId('cluster-label').count(), { timeout: 30_000 })
      .toBeGreaterThanOrEqual(2);
    await screenshot(page, 'explore-labels-on-cluster');
    await page.locator('.ant-radio-button-wrapper', { hasText: 'On side' }).click();
    const area = (await canvas.boundingBox())!;
    let hovered = false;
    for (let gy = 0.2; gy < 0.9 && !hovered; gy += 0.1) {
      for (let gx = 0.1; gx < 0.9 && !hovered; gx += 0.05) {
        await page.mouse.move(area.x + area.width * gx, area.y + area.height * gy);
        hovered = await page.getByTestId('hover-tip').isVisible();
      }
    }
    expect(hovered).toBe(true);

    // lasso a region in the middle of the plot
    await page.getByTestId('lasso-toggle').click();
    const box = (await canvas.boundingBox())!;
    const [cx, cy, r] = [box.x + box.width / 2, box.y + box.height / 2, Math.min(box.width, box.height) / 3];
    await page.mouse.move(cx + r, cy);
    await page.mouse.down();
    for (let a = 0; a <= 2 * Math.PI + 0.01; a += Math.PI / 18)
      await page.mouse.move(cx + r * Math.cos(a), cy + r * Math.sin(a));
    await page.mouse.up();
    await expect
      .poll(async () =>
        Number((await page.getByTestId('selection-count').textContent())?.match(/\d+/)?.[0] ?? 0),
      )
      .toBeGreaterThan(50);
    await screenshot(page, 'explore-lasso');

    // subsets: the lassoed cells become a subset; a copy of the raw clusters is recoloured and merged
    const panel = page.getByTestId('subset-panel');
    const ok = () => page.locator('.ant-modal-footer .ant-btn-primary').click();
    await page.getByTestId('subset-from-selection').click();
    await page.getByTestId('subset-name').fill('T_lasso');
    await page.getByTestId('subset-label').fill('T');
    await ok();
    await panel.getByText('T_lasso').waitFor();
    await panel.getByRole('button', { name: 'Rename' }).first().click();
    await page.getByTestId('subset-name').fill('T_renamed');
    await ok();
    await panel.getByText('T_renamed').waitFor();

    await page.getByTestId('subset-copy').click();
    await page.getByTestId('subset-name').fill('clusters_copy');
    await page.getByTestId('subset-group').click();
    await page.locator('.ant-select-item-option', { hasText: 'Raw cluster' }).click();
    await ok();
    await panel.getByTestId('subset-show-clusters_copy').waitFor();
    await panel.getByTestId('subset-show-clusters_copy').click();
    await page.locator('.ant-radio-button-wrapper', { hasText: 'Customize' }).click();
    const legendItems = page.getByTestId('legend-item');
    await expect.poll(() => legendItems.count()).toBeGreaterThanOrEqual(3);
    const colourOf = (label: string) =>
      page
        .getByTestId(`swatch-${label}`)
        .locator('span')
        .evaluate((el) => getComputedStyle(el).backgroundColor);
    const taken = await colourOf('2');
    await page.getByTestId('swatch-1').click();
    const rgb = taken.match(/\d+/g)!.map(Number);
    await page
      .getByTestId('colour-input')
      .fill(`#${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}`);
    await page.getByTestId('colour-input').press('Enter');
    await page.locator('.ant-message').getByText('already used').waitFor();
    await page.getByTestId('colour-input').fill('#123456');
    await page.getByTestId('colour-input').press('Enter');
    await expect.poll(() => colourOf('1'), { timeout: 30_000 }).toBe('rgb(18, 52, 86)');
    await screenshot(page, 'explore-subset-recolour');

    const row = panel.locator('tr', { hasText: 'clusters_copy' });
    await row.getByRole('button', { name: 'Merge clusters' }).click();
    await page.locator('.ant-modal .ant-select').click();
    await page.locator('.ant-select-item-option', { hasText: /^1$/ }).click();
    await page.locator('.ant-select-item-option', { hasText: /^2$/ }).click();
    // close the multi-select's list (with many clusters it covers the dialog's buttons), as a user would
    await page.locator('.ant-modal-title').click();
    await expect
      .poll(() => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').count(), {
        timeout: 15_000, // the list's closing animation is slow on a loaded 2-core machine
      })
      .toBe(0);
    await page.locator('.ant-modal input.ant-input').fill('Merged');
    await ok();
    await row.getByText('Must be recalculated').waitFor();
    await expect.poll(() => page.getByTestId('legend').textContent()).toContain('Merged');
    await screenshot(page, 'explore-subset-merged');

    // result files are downloaded through a request (researcher plan: approved at once; the
    // export, approval and signed links are covered by e2e/downloads.test.ts)
    await page.getByTestId('request-download').click();
    await page.getByTestId('request-download-h5ad').click();
    await page.getByText(/is approved and being prepared/).waitFor();

    // PNG export is at least 4200 px high (docs/product/limits.md#exports)
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-png').click(),
    ]);
    const png = readFileSync((await download.path())!);
    expect(png.readUInt32BE(20)).toBeGreaterThanOrEqual(4200);

    for (const locale of ['en-US', 'zh-CN'] as const) {
      if (locale === 'zh-CN') await switchLanguage(page);
      await openTab(page, 'cellQuality', 'tab-cellQuality');
      await screenshot(page, 'explore-tab-cell-quality');
      await openTab(page, 'geneExpression', 'tab-geneExpression');
      const tabSearch = page.getByTestId('tab-geneExpression').locator('.ant-select-auto-complete input');
      await tabSearch.fill('MS4A1');
      await tabSearch.press('Enter');
      await page.getByTestId('feature-MS4A1').waitFor();
      await page.waitForTimeout(500);
      await screenshot(page, 'explore-tab-gene-expression');
      for (const [plot, name] of [
        ['Dot plot', 'dot'],
        ['Heatmap', 'heatmap'],
        ['Violin', 'violin'],
      ] as const) {
        if (locale !== 'en-US') break;
        await page.locator('.ant-radio-button-wrapper', { hasText: plot }).click();
        await page.getByTestId('tab-geneExpression').locator('canvas').first().waitFor();
        await page.waitForTimeout(600);
        await screenshot(page, `explore-gene-${name}`);
      }
      await openTab(page, 'cellularComposition', 'tab-cellularComposition');
      await screenshot(page, 'explore-tab-composition');
      await openTab(page, 'differentialExpression', 'tab-differentialExpression');
      const degCount = page.getByTestId('deg-count');
      const [shown, total] = [
        Number(await degCount.getAttribute('data-shown')),
        Number(await degCount.getAttribute('data-total')),
      ];
      expect(total).toBeGreaterThan(0);
      expect(shown).toBeLessThan(total!); // the docs/product/validation.md#deg-display-filter filter is applied by default
      await screenshot(page, 'explore-tab-deg');
      // a downstream-analysis tab shows its run panel (the tasks have their own browser tests)
      await openTab(page, 'trajectory', 'task-panel-monocle3');
      await screenshot(page, 'explore-tab-trajectory');
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('draws the same analysis with the WebGL renderer when ?renderer=webgl forces it (clusters, CD3D, tall PNG export)', async () => {
    expect(jobId, 'the first case publishes the result').toBeTruthy();
    const { context, page, errors } = await env.newPage();
    const target = `/userDatasetAnalysis?id=${jobId}&renderer=webgl`;
    await page.goto(`/login?redirect=${encodeURIComponent(target)}`);
    await logInViaUi(page, user.username, user.password);
    await waitForPath(page, '/userDatasetAnalysis');

    const canvas = page.getByTestId('embedding-canvas');
    await canvas.waitFor({ timeout: 60_000 });
    await expect.poll(() => canvas.getAttribute('data-renderer'), { timeout: 60_000 }).toBe('webgl');
    await expect
      .poll(() => page.getByTestId('legend-item').count(), { timeout: 60_000 })
      .toBeGreaterThanOrEqual(2);
    await page.waitForTimeout(500);
    const clusters = await pixelStats(
      page,
      await canvas.screenshot({ path: path.join(repoRoot, 'screenshots/explore-canvas-webgl-clusters.png') }),
    );
    expect(clusters.coloured).toBeGreaterThan(2000);
    expect(clusters.distinct).toBeGreaterThanOrEqual(3);

    const search = page.getByTestId('viewer-panel').locator('.ant-select-auto-complete input').first();
    await search.fill('CD3D');
    await page
      .locator('.ant-select-item-option', { hasText: /^CD3D$/ })
      .first()
      .click();
    await expect.poll(() => page.getByTestId('legend').textContent(), { timeout: 30_000 }).toContain('CD3D');
    await page.mouse.move(5, 990); // away from the header menus the canvas screenshot scrolls under
    await page.waitForTimeout(500);
    const cd3d = await pixelStats(
      page,
      await canvas.screenshot({ path: path.join(repoRoot, 'screenshots/explore-canvas-webgl-cd3d.png') }),
    );
    expect(cd3d.coloured).toBeGreaterThan(200);
    expect(cd3d.coloured).toBeLessThan(clusters.coloured); // only expressing cells are coloured

    // export reads the picture back from an off-screen WebGL framebuffer
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-png').click(),
    ]);
    const png = readFileSync((await download.path())!);
    expect(png.readUInt32BE(20)).toBeGreaterThanOrEqual(4200);
    expect(errors).toEqual([]);
    await context.close();
  });
  it("another user's dataset URL shows the translated 'Resource does not exist' page, no internal URL (issue 22 item 1)", async () => {
    const owner = await env.newPage();
    const ownedId = await env.openResult(owner.page, newUser('owner'), 'owned_by_someone');
    await owner.context.close();
    const { context, page, errors } = await env.newPage();
    const intruder = newUser('intruder');
    await registerViaApi(env.server, intruder, 'signup');
    const target = `/userDatasetAnalysis?id=${ownedId}`;
    await page.goto(`/login?redirect=${encodeURIComponent(target)}`);
    await logInViaUi(page, intruder.username, intruder.password);
    await waitForPath(page, '/userDatasetAnalysis');
    const gone = page.getByTestId('resource-unavailable');
    await gone.getByText('Resource does not exist').waitFor({ timeout: 60_000 });
    await switchLanguage(page);
    await gone.getByText('资源不存在').waitFor();
    const text = (await page.locator('main, body').first().textContent()) ?? '';
    expect(text).not.toMatch(/http|manifest|re-run|重新运行/);
    await screenshot(page, 'explore-other-users-dataset-zh');
    // a made-up id gets the same page
    await page.goto('/userDatasetAnalysis?id=00000000-0000-0000-0000-000000000000');
    await page.getByTestId('resource-unavailable').waitFor({ timeout: 60_000 });
    expect(errors).toEqual([]);
    await context.close();
  });
  it('every explore tab is visible at 1366 px, and at 390 px the embedding is drawn at the panel width (issue 22 item 5)', async () => {
    const { context, page, errors } = await env.newPage();
    await page.setViewportSize({ width: 1366, height: 900 });
    await env.openResult(page, newUser('layout'), 'layout_check');
    await page.getByTestId('explore-tabs').waitFor({ timeout: 60_000 });
    const labels = page.locator('[data-testid=explore-tabs] .ant-tabs-tab');
    const n = await labels.count();
    expect(n).toBeGreaterThanOrEqual(11);
    for (let i = 0; i < n; i++) {
      const box = await labels.nth(i).boundingBox();
      expect(box, `tab ${i} has a box`).not.toBeNull();
      expect(box!.x + box!.width).toBeLessThanOrEqual(1366);
      expect(await labels.nth(i).isVisible()).toBe(true);
    }
    expect(await page.locator('[data-testid=explore-tabs] .ant-tabs-nav-operations').isVisible()).toBe(false);
    await screenshot(page, 'explore-tabs-1366');
    await switchLanguage(page);
    await page.getByTestId('explore-tabs').getByText('细胞注释').waitFor();
    for (let i = 0; i < n; i++)
      expect(
        (await labels.nth(i).boundingBox())!.x + (await labels.nth(i).boundingBox())!.width,
      ).toBeLessThanOrEqual(1366);
    await screenshot(page, 'explore-tabs-1366-zh');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(800);
    const panel = (await page.getByTestId('viewer-panel').boundingBox())!;
    const canvas = (await page.locator('[data-testid=viewer-panel] canvas').first().boundingBox())!;
    expect(canvas.width).toBeGreaterThan(panel.width * 0.8);
    await screenshot(page, 'explore-390');
    expect(errors).toEqual([]);
    await context.close();
  });
});
