import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { USER_PREFERENCES_PATH } from '@cellcloud/contracts/preferences';
import { PUBLIC_PATHS } from '@cellcloud/contracts/public-datasets';
import { sharedData } from '@cellcloud/testkit';
import { registerAndLogIn } from './support/api-setup';
import { ensureWebBuild } from './support/build';
import { launchBrowser, openPage, screenshot, switchLanguage, type TestPage } from './support/browser';
import { scratchDatabase, type ScratchDb } from './support/database';
import { logInViaUi, newUser, waitForPath } from './support/flows';
import { startServer, type RunningServer } from './support/server';

/**
 * Issue 20 in the browser: an administrator ingests pbmc3k (10x counts + a metadata sheet naming
 * the Seurat labels as annot_sub) with the real admin tool; a user with the SynEcoSys plan finds
 * it from the home page search, narrows by a facet, opens the detail (samples, composition by
 * annotation level) in English and Chinese and adds it to a local + public integration (wizard
 * preselected, Harmony by default). A second user on the default plan has no public database
 * (menu entry absent, API 403) and, not being an administrator, cannot withdraw a dataset.
 * Not covered here: running the integration and exploring the transferred labels (the server test
 * public-datasets.test.ts runs that job end to end).
 */
const repoRoot = path.resolve(import.meta.dirname, '..');
const pbmc = sharedData('pbmc3k/10x');
const labels = sharedData('pbmc3k/pbmc3k_seurat_labels.csv');
const have = pbmc !== undefined && labels !== undefined;

let db: ScratchDb;
let server: RunningServer;
let browser: Browser;
let tp: TestPage;
const alice = newUser('pubdb');
const bob = newUser('pubdbplain');
let bobToken: string;

describe.skipIf(!have)('public database in the browser', () => {
  beforeAll(async () => {
    ensureWebBuild();
    db = await scratchDatabase();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cellcloud-e2e-public-'));
    const env = { DATABASE_URL: db.url, CELLCLOUD_DATA_DIR: dataDir };
    server = await startServer(env);
    const sheet = path.join(dataDir, 'pbmc3k.yaml');
    writeFileSync(
      sheet,
      [
        'id: pbmc3k-public',
        'title: PBMC 3k healthy donor (public)',
        'species: Homo sapiens',
        'tissue: [blood]',
        'disease: [normal]',
        'assay: ["10x 3\' v1"]',
        `cells: ${labels}`,
        'columns:',
        '  annot_sub: label',
        'article:',
        '  title: Massively parallel digital transcriptional profiling of single cells',
        '  journal: Nature Communications',
        '  year: 2017',
        '  doi: 10.1038/ncomms14049',
      ].join('\n'),
    );
    const ingest = spawnSync(
      path.join(repoRoot, 'node_modules/.bin/node'),
      ['--import', 'tsx', 'apps/server/src/cli/admin.ts', 'ingest-public', pbmc!, '--meta', sheet],
      { cwd: repoRoot, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 300_000 },
    );
    expect(ingest.status, ingest.stderr).toBe(0);
    expect(ingest.stdout).toContain('ingested public dataset pbmc3k-public v1: 2638 cells');
    const aliceToken = await registerAndLogIn(server, alice);
    // the first-visit tutorial of My Analyses (its own test) stays closed
    const dismissed = await fetch(`${server.url}${USER_PREFERENCES_PATH}`, {
      method: 'PUT',
      headers: { 'access-token': aliceToken, 'content-type': 'application/json' },
      body: JSON.stringify({ tutorialDismissed: true }),
    });
    expect(dismissed.ok).toBe(true);
    bobToken = await registerAndLogIn(server, bob);
    await db.query(`UPDATE users SET plan_id = 'synecosys' WHERE username = $1`, [alice.username]);
    // display switch "show only integrated SynEcoSys datasets" on for the plan; two waiting analyses
    // of the user (nothing runs them here), one with the public dataset
    await db.query(
      `UPDATE plans SET switches = switches || '{"onlyIntegratedSynEcoSysDatasets": true}' WHERE id = 'synecosys'`,
    );
    for (const [name, samples] of [
      ['with_public', ['local-1', 'public:pbmc3k-public']],
      ['local_only', ['local-1', 'local-2']],
    ] as const)
      await db.query(
        `INSERT INTO analysis_jobs (user_id, analysis_id, job_name, kind, status, species, sample_ids, params, draft, cache_key)
         SELECT id, 'CA' || lpad(nextval('analysis_id_seq')::text, 6, '0'), $2, 'integrated', 'submitted', 'Homo sapiens', $3, '{}', '{}', $2
         FROM users WHERE username = $1`,
        [alice.username, name, JSON.stringify(samples)],
      );
    browser = await launchBrowser();
    tp = await openPage(browser, {
      baseURL: server.url,
      locale: 'en-US',
      allowFailedRequests: [/\/api\/jobs\/events/],
    });
  }, 600_000);
  afterAll(async () => {
    await tp?.close();
    await browser?.close();
    await server?.stop();
    await db?.drop();
  });

  it('home search → facet → detail in both languages → add to a local + public integration', async () => {
    const page = tp.page;
    await page.goto('/login');
    await logInViaUi(page, alice.username, alice.password);
    await waitForPath(page, '/my_analyzes');
    await page.goto('/');
    const search = page.getByTestId('home-public-search');
    await search.locator('input').fill('pbmc blo');
    await search.locator('input').press('Enter');
    await waitForPath(page, '/publicDatabase');
    const table = page.getByTestId('publicdb-table');
    await table.locator('.ant-table-row', { hasText: 'PBMC 3k healthy donor' }).waitFor();
    await expect(page.getByTestId('publicdb-search').locator('input').inputValue()).resolves.toBe('pbmc blo');
    // facet: the tissue value with its count, checked, keeps the dataset
    const blood = page.getByTestId('publicdb-facet-tissue').getByText('blood (1)');
    await blood.click();
    await table.locator('.ant-table-row', { hasText: 'PBMC 3k healthy donor' }).click();
    const detail = page.getByTestId('publicdb-detail');
    await detail.getByTestId('publicdb-level-annot_sub').waitFor();
    await expect(detail.getByTestId('publicdb-level-annot_sub').textContent()).resolves.toContain(
      'CD14+ Mono (480)',
    );
    await expect(detail.getByTestId('publicdb-doi').textContent()).resolves.toContain('10.1038/ncomms14049');
    await screenshot(page, 'publicdb-detail');
    await switchLanguage(page);
    await detail.getByText('细胞类型组成').waitFor();
    await screenshot(page, 'publicdb-detail');
    await switchLanguage(page);
    await detail.getByTestId('publicdb-add').click();
    await waitForPath(page, '/integrateLocalAndSynEcoSys');
    await page.getByTestId('wizard-step-1').waitFor();
    await page
      .locator('[data-testid=wizard-samples] .ant-table-row', { hasText: 'PBMC 3k healthy donor' })
      .locator('input[type=checkbox]:checked')
      .waitFor();
    // the menu has the public database entry (Integrate data) for this plan
    await expect(page.getByTestId('top-menu').textContent()).resolves.toContain('Integrate');
  }, 300_000);

  it('My Analyses: the "show only integrated SynEcoSys datasets" toggle filters the integrated analyses', async () => {
    const page = tp.page;
    await page.goto('/my_analyzes?tab=integrated');
    const jobs = page.getByTestId('jobs-integrated');
    await jobs.locator('.ant-table-row', { hasText: 'with_public' }).waitFor();
    await expect(jobs.locator('.ant-table-row').count()).resolves.toBe(1);
    await page.getByTestId('synecosys-only').click();
    await jobs.locator('.ant-table-row', { hasText: 'local_only' }).waitFor();
    await expect(jobs.locator('.ant-table-row').count()).resolves.toBe(2);
  }, 120_000);

  it('another user on the default plan: no public database, and cannot withdraw (not an administrator)', async () => {
    const list = await fetch(`${server.url}${PUBLIC_PATHS.list}`, { headers: { 'access-token': bobToken } });
    expect(list.status).toBe(403);
    const withdraw = await fetch(`${server.url}${PUBLIC_PATHS.withdraw('pbmc3k-public')}`, {
      method: 'POST',
      headers: { 'access-token': bobToken },
    });
    expect(withdraw.status).toBe(403);
    // still listed for the first user: nothing was changed
    const [row] = (
      await db.query('SELECT withdrawn_at FROM public_datasets WHERE id = $1', ['pbmc3k-public'])
    ).rows as { withdrawn_at: Date | null }[];
    expect(row!.withdrawn_at).toBeNull();
  }, 60_000);
});
