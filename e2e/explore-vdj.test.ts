import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedData } from '@cellcloud/testkit';
import { screenshot, switchLanguage } from './support/browser';
import { explorerEnv, type ExplorerEnv } from './support/explore-setup';
import { newUser } from './support/flows';
import { attachMatchedContigs } from './support/vdj-contigs';

/**
 * Immune V(D)J (issue 19) in the browser on the REAL pbmc3k result: the real 10x PBMC TCR contig
 * table, its cell barcodes re-assigned to pbmc3k barcodes (the two 10x runs share no cells, so the
 * test derives a matched pair), is attached in the VDJ tab's run panel; the task runs in the worker
 * and the view shows the expansion-class plot and the top clonotypes on the embedding, in English
 * and Chinese.
 */
const pbmc = sharedData('pbmc3k/10x');
const contigs = sharedData('vdj_10x/vdj_nextgem_hs_pbmc3_t_filtered_contig_annotations.csv.gz');
let env: ExplorerEnv;

describe.skipIf(!pbmc || !contigs)('V(D)J task in the explorer', () => {
  beforeAll(async () => {
    env = await explorerEnv('vdj', pbmc!, { IN_PROCESS_WORKER: 'true' });
  });
  afterAll(() => env?.close());

  it('attaches contigs, runs, shows the class plot and the top clonotypes on the embedding in both languages', async () => {
    const { context, page, errors } = await env.newPage();
    await env.openResult(page, newUser('vdj'), 'pbmc3k_vdj');
    await page.getByTestId('tab-label-vdj').click();
    const panel = page.getByTestId('task-panel-vdj');
    await panel.waitFor({ timeout: 60_000 });
    await attachMatchedContigs(panel, pbmc!, contigs!);
    await panel.getByTestId('task-run-vdj').click();
    const view = page.getByTestId('vdj-view');
    await view.waitFor({ timeout: 120_000 });
    await page.getByTestId('vdj-class-plot').locator('canvas').first().waitFor();
    await page.getByTestId('vdj-embedding').locator('canvas').first().waitFor();
    await page.getByTestId('vdj-top-table').locator('.ant-table-row').first().waitFor();
    await expect(page.getByTestId('vdj-summary').textContent()).resolves.toMatch(/TCR \(TRA \/ TRB\)/);
    await screenshot(page, 'explore-vdj');
    await switchLanguage(page);
    await page.getByTestId('vdj-view').getByText('各样本的克隆扩增类别').waitFor();
    await screenshot(page, 'explore-vdj');
    expect(errors).toEqual([]);
    await context.close();
  }, 300_000);
});
