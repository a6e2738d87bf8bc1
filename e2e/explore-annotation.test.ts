import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_PREFIX } from '@cellcloud/contracts';
import { sharedData } from '@cellcloud/testkit';
import { screenshot, switchLanguage } from './support/browser';
import { repoRoot } from './support/build';
import { explorerEnv, type ExplorerEnv } from './support/explore-setup';
import { newUser } from './support/flows';

/**
 * Cell annotation (issue 13) in the browser on a REAL pbmc3k result analysed with the wizard's
 * "Cell annotation: Automatic" parameters (engine CLI `analyze --params` with chooseAnnotationType
 * auto, tissue PBMC — the same in-analysis step the analysis job runs): the Cell Annotations tab
 * shows the automatic labels per cluster with confidence and the reference marker dot plot; two
 * labels are merged by hand and saved as a new level; the DE tab groups cluster genes by that new
 * level (the DE job of that grouping completes in the worker). Both languages.
 */
const pbmc = sharedData('pbmc3k/10x');
const annotatedDir = path.join(os.tmpdir(), 'cellcloud-e2e-pbmc3k-annotated');
let env: ExplorerEnv;

function analyseAnnotated(): void {
  if (existsSync(path.join(annotatedDir, 'artifacts/annotation.json'))) return;
  rmSync(annotatedDir, { recursive: true, force: true });
  mkdirSync(annotatedDir, { recursive: true });
  const params = path.join(annotatedDir, '..', 'cellcloud-e2e-annotated-params.json');
  writeFileSync(params, JSON.stringify({ chooseAnnotationType: 'auto', referenceTissue: 'PBMC' }));
  const bin = path.join(repoRoot, 'node_modules/.bin');
  const r = spawnSync(
    path.join(bin, 'node'),
    [path.join(bin, 'cellcloud'), 'analyze', pbmc!, '--out', annotatedDir, '--params', params, '--quiet'],
    {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` },
    },
  );
  if (r.status !== 0) throw new Error(`engine CLI failed: ${r.stderr}`);
}

const option = (page: Page, text: string) =>
  page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', {
    hasText: text,
  });

describe.skipIf(!pbmc)('cell annotation in the explorer', () => {
  beforeAll(async () => {
    analyseAnnotated();
    env = await explorerEnv('annotation', pbmc!, { IN_PROCESS_WORKER: 'true' });
  }, 300_000);
  afterAll(() => env?.close());

  it('shows automatic labels, saves a hand edit as a new level, and groups DE by it', async () => {
    const { context, page, errors } = await env.newPage();
    const jobId = await env.openResult(page, newUser('annotation'), 'pbmc3k_annotated');
    // this user's result is the annotated analysis
    const stored = path.join(env.dataDir, 'storage/results', jobId);
    cpSync(path.join(annotatedDir, 'artifacts'), path.join(stored, 'artifacts'), { recursive: true });
    cpSync(path.join(annotatedDir, 'analysis.h5ad'), path.join(stored, 'analysis.h5ad'));
    await page.reload();

    await page.getByTestId('tab-label-cellAnnotations').click();
    const tab = page.getByTestId('tab-cellAnnotations');
    await tab.waitFor({ timeout: 60_000 });
    const clusters = page.getByTestId('annotation-clusters');
    await expect.poll(() => clusters.textContent(), { timeout: 60_000 }).toMatch(/CD4 naive T/);
    await expect(clusters.textContent()).resolves.toMatch(/B.*%/);
    await page.getByTestId('annotation-reference').waitFor();
    await page.getByTestId('annotation-dotplot').waitFor();
    await tab.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'explore-annotation');

    // merge the two CD4 labels by hand into a new level
    // (labels with very few cells merge into the largest one: DE needs at least 3 cells per group)
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
    await expect(clusters.textContent()).resolves.not.toMatch(/CD4 naive T/);

    await switchLanguage(page);
    await expect(tab.textContent()).resolves.toMatch(/各簇的主要标签/);
    await screenshot(page, 'explore-annotation');
    await switchLanguage(page);

    // DE: cluster genes grouped by the new level
    await page.getByTestId('tab-label-differentialExpression').click();
    await page.getByTestId('deg-jobs').waitFor({ timeout: 60_000 });
    const grouping = page.getByTestId('deg-jobs-grouping');
    if (!((await grouping.textContent()) ?? '').includes('my_labels')) {
      await grouping.click();
      await option(page, 'my_labels').first().scrollIntoViewIfNeeded();
      await option(page, 'my_labels').first().click();
    }
    await expect(grouping.textContent()).resolves.toMatch(/my_labels/);
    await page.getByTestId('deg-jobs-cluster-genes').click();
    // the job runs in the worker; its task (grouping = the saved level) completes
    const token = await page.evaluate(
      (k) => (JSON.parse(window.localStorage.getItem(k) ?? '{}') as { token?: string }).token ?? '',
      `${STORAGE_PREFIX}userInfo`,
    );
    const levels = (await (
      await page.request.get(`/api/user_datasets/${jobId}/observation_annotation`, {
        headers: { 'access-token': token },
      })
    ).json()) as {
      data: { key: string; name: string }[];
    };
    const saved = levels.data.find((l) => l.name === 'my_labels');
    expect(saved?.key).toMatch(/^subset:/);
    await expect
      .poll(
        async () => {
          const r = (await (
            await page.request.get(`/api/user_datasets/${jobId}/deg_tasks`, {
              headers: { 'access-token': token },
            })
          ).json()) as {
            data: { grouping: string | null; status: string; message: string | null }[];
          };
          const task = r.data.find((t) => t.grouping === saved!.key);
          return task ? `${task.status}${task.message ? `: ${task.message}` : ''}` : 'none';
        },
        { timeout: 150_000, interval: 2000 },
      )
      .toBe('completed');
    expect(errors).toEqual([]);
    await context.close();
  }, 300_000);
});
