import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_API } from '@cellcloud/contracts/admin';
import { USER_PREFERENCES_PATH } from '@cellcloud/contracts/preferences';
import { PUBLIC_PATHS, type PublicSearchResult } from '@cellcloud/contracts/public-datasets';
import { PBMC3K_LINEAGES, sharedData } from '@cellcloud/testkit';
import { registerAndLogIn, uploadParsed } from './support/api-setup';
import { adminTool } from './support/admin-tool';
import { ensureWebBuild } from './support/build';
import { launchBrowser, openPage, screenshot, switchLanguage, type TestPage } from './support/browser';
import { scratchDatabase, type ScratchDb } from './support/database';
import { logInViaUi, newUser, waitForPath, type NewUser } from './support/flows';
import { splitTriplet } from './support/ifnb-fixture';
import { startServer, type RunningServer } from './support/server';

/**
 * Issue 20 in the browser: an administrator ingests pbmc3k (10x counts + a metadata sheet naming
 * the Seurat labels as annot_sub and their lineage as annot_full) with the real admin tool; a user
 * with the SynEcoSys plan, who uploaded 400 IFN-β stimulated PBMCs of Kang 2018, finds the public
 * dataset from the home page search, narrows by a facet, opens the detail (composition by
 * annotation level) in English and Chinese, adds it to a local + public integration (wizard
 * preselected, Harmony by default) with their sample, submits, waits for the job and explores the
 * result coloured by the transferred major cell types (legend = the public lineages, the
 * label-transfer summary of their cells) in both languages. A second user, on the default plan
 * once it is given public access, sees the same public datasets in Chinese without any control to
 * change them; the API refuses the withdrawal (403) and, not being an administrator, they have no
 * admin console (ingest is the administrators' CLI, its jobs are in the admin API: 403).
 * The same ingest serves the detail preview (coloured by each level, the clustering, a searched
 * gene) and the read-only explorer (no subsets, label edits, tasks), en then zh, during the job.
 */
const pbmc = sharedData('pbmc3k/10x');
const labels = sharedData('pbmc3k/pbmc3k_seurat_labels.csv');
const ifnb = sharedData('ifnb_kang2018_subset');
const geneLists = sharedData('gene_ids');
const have = !!(pbmc && labels && ifnb && geneLists);

const LOCAL_CELLS = 400;
const PUBLIC_TITLE = 'PBMC 3k healthy donor (public)';

let db: ScratchDb;
let server: RunningServer;
let browser: Browser;
let tp: TestPage;
let tmp: string;
const alice = newUser('pubdb');
const bob = newUser('pubdbplain');
let aliceToken: string;
let bobToken: string;
/** The lineages of the public cells (the legend of the transferred level must show them). */
let lineages: Set<string>;

const api = (token: string, p: string, init: RequestInit = {}) =>
  fetch(`${server.url}${p}`, { ...init, headers: { 'access-token': token, ...init.headers } });

async function dismissTutorial(token: string): Promise<void> {
  const r = await api(token, USER_PREFERENCES_PATH, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tutorialDismissed: true }),
  });
  expect(r.ok).toBe(true);
}

/** Logs `user` in on `page` and opens the public dataset's detail from /publicDatabase. */
async function openPublicDetail(page: Page, user: NewUser): Promise<void> {
  await page.goto('/login');
  await logInViaUi(page, user.username, user.password);
  await waitForPath(page, '/my_analyzes');
  await page.goto('/publicDatabase');
  await page.getByTestId('publicdb-table').locator('.ant-table-row', { hasText: PUBLIC_TITLE }).click();
}

describe.skipIf(!have)('public database in the browser', () => {
  beforeAll(async () => {
    ensureWebBuild();
    db = await scratchDatabase();
    tmp = mkdtempSync(path.join(os.tmpdir(), 'cellcloud-e2e-public-'));
    const dataDir = path.join(tmp, 'data');
    mkdirSync(dataDir);
    const env = { DATABASE_URL: db.url, CELLCLOUD_DATA_DIR: dataDir };
    server = await startServer({
      ...env,
      ENSEMBL_GENE_LISTS_DIR: geneLists!,
      IN_PROCESS_WORKER: 'true',
      WORKER_CONCURRENCY: '1',
    });
    // the cells table of the sheet: the Seurat label (annot_sub) and its lineage (annot_full)
    const rows = readFileSync(labels!, 'utf8').trim().split('\n').slice(1);
    const cells = path.join(tmp, 'pbmc3k-cells.csv');
    writeFileSync(
      cells,
      ['barcode,label,lineage', ...rows.map((r) => `${r},${PBMC3K_LINEAGES[r.split(',')[1]!]}`)].join('\n'),
    );
    lineages = new Set(rows.map((r) => PBMC3K_LINEAGES[r.split(',')[1]!]!));
    const sheet = path.join(tmp, 'pbmc3k.yaml');
    writeFileSync(
      sheet,
      [
        'id: pbmc3k-public',
        `title: ${PUBLIC_TITLE}`,
        'species: Homo sapiens',
        'tissue: [blood]',
        'disease: [normal]',
        'assay: ["10x 3\' v1"]',
        `cells: ${cells}`,
        'columns:',
        '  annot_sub: label',
        '  annot_full: lineage',
        'article:',
        '  title: Massively parallel digital transcriptional profiling of single cells',
        '  journal: Nature Communications',
        '  year: 2017',
        '  doi: 10.1038/ncomms14049',
      ].join('\n'),
    );
    // the administrator's ingest runs while the user registers and uploads their sample
    const t0 = Date.now();
    const ingest = adminTool(['ingest-public', pbmc!, '--meta', sheet], env);
    aliceToken = await registerAndLogIn(server, alice);
    await dismissTutorial(aliceToken); // the first-visit tutorial of My Analyses (its own test)
    await db.query(`UPDATE users SET plan_id = 'synecosys' WHERE username = $1`, [alice.username]);
    const local = path.join(tmp, 'ifnb_stim');
    mkdirSync(local);
    const files = splitTriplet(ifnb!, local, 1000, 1000 + LOCAL_CELLS); // stimulated half
    expect((await uploadParsed(server, aliceToken, 'ifnb_stim', files)).state).toBe('completed');
    bobToken = await registerAndLogIn(server, bob);
    await dismissTutorial(bobToken);
    const done = await ingest;
    expect(done.code, done.out).toBe(0);
    expect(done.out).toContain('ingested public dataset pbmc3k-public v1: 2638 cells');
    expect(done.out).toContain('standard analysis ready');
    // wall only: the CPU is spent in the admin tool's and the server's child processes
    console.log(
      `ingest-public (queued job + standard analysis): ${((Date.now() - t0) / 1000).toFixed(1)} s wall; load ${os.loadavg()[0]!.toFixed(1)}`,
    );
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
  }, 900_000);
  afterAll(async () => {
    await tp?.close();
    await browser?.close();
    await server?.stop();
    await db?.drop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('home search → facet → detail in both languages → local + public integration submitted (Harmony)', async () => {
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
    await page.getByTestId('publicdb-facet-tissue').getByText('blood (1)').click();
    await table.locator('.ant-table-row', { hasText: 'PBMC 3k healthy donor' }).click();
    const detail = page.getByTestId('publicdb-detail');
    await detail.getByTestId('publicdb-level-annot_sub').waitFor();
    await expect(detail.getByTestId('publicdb-level-annot_sub').textContent()).resolves.toContain(
      'CD14+ Mono (480)',
    );
    await expect(detail.getByTestId('publicdb-doi').textContent()).resolves.toContain('10.1038/ncomms14049');
    // issue 31: the composition counts every cell of the dataset, the preview's legend the cells of
    // the standard analysis after QC — each count says which population it is
    await expect(detail.getByTestId('publicdb-composition-title').textContent()).resolves.toContain(
      'all 2638 cells of the dataset',
    );
    await expect(detail.getByTestId('publicdb-preview-title').textContent()).resolves.toMatch(
      /standard analysis: \d+ cells after quality control/,
    );
    await screenshot(page, 'publicdb-detail');
    await switchLanguage(page);
    await detail.getByText('细胞类型组成').waitFor();
    await screenshot(page, 'publicdb-detail');
    await switchLanguage(page);
    await detail.getByTestId('publicdb-add').click();
    await waitForPath(page, '/integrateLocalAndSynEcoSys');
    await page.getByTestId('wizard-step-1').waitFor();
    const samples = page.locator('[data-testid=wizard-samples] .ant-table-row');
    await samples.filter({ hasText: PUBLIC_TITLE }).locator('input[type=checkbox]:checked').waitFor();
    // the menu has the public database entry (Integrate data) for this plan
    await expect(page.getByTestId('top-menu').textContent()).resolves.toContain('Integrate');
    // the user's own sample beside the public one, each with its sample group
    await page.getByTestId('wizard-job-name').fill('public_local');
    await samples.filter({ hasText: 'ifnb_stim' }).locator('input[type=checkbox]').check();
    await page.getByTestId('wizard-group-ifnb_stim').fill('stim');
    await page.getByTestId(`wizard-group-${PUBLIC_TITLE}`).fill('public');
    await page.getByTestId('wizard-next').click();
    // the public dataset's proposed sample name (from its title) passes the name rule
    const errors = page.getByTestId('wizard-errors');
    await page.getByTestId('wizard-step-2').or(errors).waitFor();
    expect(await errors.count(), (await errors.allTextContents()).join()).toBe(0);
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-step-3').waitFor();
    await expect(page.getByTestId('options-batch').textContent()).resolves.toContain('Harmony');
    await page.getByTestId('wizard-next').click();
    await expect(page.getByTestId('wizard-preview').textContent()).resolves.toContain('Harmony');
    await page.getByTestId('wizard-submit').click();
    await page.waitForURL((u) => u.pathname === '/my_analyzes' && u.search.includes('tab=integrated'));
    await page.locator('[data-testid=jobs-integrated] .ant-table-row', { hasText: 'public_local' }).waitFor();
  }, 300_000);

  it('detail preview coloured by a level → gene search recolours → read-only explorer (en, zh)', async () => {
    const own = await openPage(browser, {
      baseURL: server.url,
      locale: 'en-US',
      allowFailedRequests: [/\/api\/jobs\/events/],
    });
    try {
      const page = own.page;
      await openPublicDetail(page, alice);
      const preview = page.getByTestId('publicdb-detail').getByTestId('publicdb-preview');
      const caption = preview.getByTestId('publicdb-preview-colour');
      // coloured by the dataset's own first level (annot_full: its lineages in the legend) first
      await expect.poll(() => caption.getAttribute('data-colour'), { timeout: 60_000 }).toBe('annot_full');
      await preview.getByText('T cell', { exact: true }).waitFor();
      const levels = preview.getByTestId('publicdb-preview-levels');
      await levels.getByText('annot_sub', { exact: true }).click();
      await expect.poll(() => caption.getAttribute('data-colour')).toBe('annot_sub');
      await expect.poll(() => caption.textContent()).toBe('Coloured by annot_sub');
      await preview.getByText('CD14+ Mono', { exact: true }).waitFor();
      await preview.locator('canvas').first().waitFor();
      // the standard analysis' clustering is a level too
      await levels.getByText('cluster', { exact: true }).click();
      await expect.poll(() => caption.getAttribute('data-colour')).toBe('cluster');
      // genes search: the preview colours by the gene's expression
      const gene = preview.getByTestId('gene-search').locator('input');
      await gene.fill('LYZ');
      await gene.press('Enter');
      await expect.poll(() => caption.getAttribute('data-colour')).toBe('LYZ');
      await expect.poll(() => caption.textContent(), { timeout: 30_000 }).toBe('Coloured by LYZ expression');
      // close the suggestion list by clicking outside it — Escape would close the detail drawer
      // itself whenever the list is already closed
      await caption.click();
      await preview.scrollIntoViewIfNeeded();
      await screenshot(page, 'publicdb-preview');

      await switchLanguage(page);
      await expect.poll(() => caption.textContent()).toBe('按 LYZ 表达量着色');
      await levels.getByText('annot_sub', { exact: true }).click();
      await expect.poll(() => caption.textContent()).toBe('按 annot_sub 着色');
      await screenshot(page, 'publicdb-preview');

      await page.getByTestId('publicdb-open-explorer').click();
      await waitForPath(page, '/userDatasetAnalysis');
      expect(new URL(page.url()).searchParams.get('id')).toBe('public:pbmc3k-public');
      const tag = page.getByTestId('explore-readonly');
      await expect.poll(() => tag.textContent(), { timeout: 60_000 }).toBe('公共数据集 — 只读');
      await page.getByTestId('viewer-panel').locator('canvas').first().waitFor();
      await page.getByTestId('explore-tabs').waitFor();
      await screenshot(page, 'publicdb-readonly-explorer');
      await switchLanguage(page);
      await expect.poll(() => tag.textContent()).toBe('Public dataset — read only');
      // the edit actions are absent: subsets (copy, from selection), label edits, analysis tasks
      for (const id of ['subset-panel', 'subset-copy', 'subset-from-selection'])
        expect(await page.getByTestId(id).count(), id).toBe(0);
      expect(await page.locator('[data-testid^="task-panel-"]').count()).toBe(0);
      await screenshot(page, 'publicdb-readonly-explorer');
      expect(own.errors).toEqual([]);
    } finally {
      await own.close();
    }
  }, 300_000);

  it('explores the result coloured by the transferred major cell types, in both languages', async () => {
    const page = tp.page;
    const row = page.locator('[data-testid=jobs-integrated] .ant-table-row', { hasText: 'public_local' });
    await row.locator('[data-status=completed]').waitFor({ timeout: 600_000 });
    await row.getByText('Open result').click();
    await page.waitForURL((u) => u.pathname === '/userDatasetAnalysis' && u.searchParams.has('id'));
    await page.getByTestId('embedding-canvas').waitFor({ timeout: 60_000 });
    await page.getByTestId('colour-by-select').click();
    await page.locator('.ant-select-item-option', { hasText: 'Major cell types' }).click();
    // the legend: the public lineages (public cells keep theirs), at most "unassigned" besides
    const summary = page.getByTestId('label-transfer-summary');
    await summary.waitFor({ timeout: 60_000 });
    const legend = await page.locator('[data-testid=legend-item] > span:nth-child(2)').allTextContents();
    expect(new Set(legend.filter((l) => l !== 'unassigned'))).toEqual(lineages);
    // the user's cells carry transferred labels: counts per type add up to the assigned cells
    const totals = /(\d+) of your (\d+) cells assigned, (\d+) unassigned/.exec(
      (await summary.getByTestId('label-transfer-totals').textContent()) ?? '',
    );
    expect(totals).not.toBeNull();
    const [assigned, total, unassigned] = totals!.slice(1).map(Number) as [number, number, number];
    expect(assigned + unassigned).toBe(total);
    expect(total).toBeLessThanOrEqual(LOCAL_CELLS); // after the cell filtering
    expect(total).toBeGreaterThan(LOCAL_CELLS / 2);
    const rows = summary.getByTestId('label-transfer-row');
    const perType = new Map<string, { cells: number; confidence: string }>();
    for (const r of await rows.all()) {
      const [label, cells, confidence] = await r.locator('td').allTextContents();
      perType.set(label!, { cells: Number(cells), confidence: confidence! });
    }
    expect([...perType.values()].reduce((a, x) => a + x.cells, 0)).toBe(assigned);
    for (const [label, x] of perType) {
      expect(lineages.has(label)).toBe(true);
      // the confidence column is there: an assigned type's mean is at least the 50 % threshold
      expect(Number(/^(\d+) %$/.exec(x.confidence)?.[1])).toBeGreaterThanOrEqual(50);
    }
    // PBMCs: T cells are the largest lineage (the server test checks the agreement with markers)
    expect(perType.get('T cell')!.cells / total).toBeGreaterThan(0.3);
    await expect(summary.textContent()).resolves.toContain('15 nearest public cells');
    await screenshot(page, 'publicdb-transferred-labels');
    await switchLanguage(page);
    await summary.getByText('从公共数据集迁移到您细胞上的标签').waitFor();
    await expect(summary.getByTestId('label-transfer-totals').textContent()).resolves.toContain(
      `您的 ${total} 个细胞中已分配 ${assigned} 个`,
    );
    await screenshot(page, 'publicdb-transferred-labels');
    await switchLanguage(page);
  }, 700_000);

  it('My Analyses: the "show only integrated SynEcoSys datasets" toggle filters the integrated analyses', async () => {
    const page = tp.page;
    await page.goto('/my_analyzes?tab=integrated');
    const jobs = page.getByTestId('jobs-integrated');
    // on (the plan's switch): the two analyses with a public sample
    await jobs.locator('.ant-table-row', { hasText: 'with_public' }).waitFor();
    await jobs.locator('.ant-table-row', { hasText: 'public_local' }).waitFor();
    await expect(jobs.locator('.ant-table-row').count()).resolves.toBe(2);
    await expect(jobs.locator('.ant-table-row', { hasText: 'local_only' }).count()).resolves.toBe(0);
    await page.getByTestId('synecosys-only').click();
    await jobs.locator('.ant-table-row', { hasText: 'local_only' }).waitFor();
    await expect.poll(() => jobs.locator('.ant-table-row').count()).toBe(3);
  }, 120_000);

  it('another user (default plan given public access) sees the same datasets, cannot change them, has no ingest', async () => {
    // the default plan shows the SynEcoSys entries disabled: no public database yet
    expect((await api(bobToken, PUBLIC_PATHS.list)).status).toBe(403);
    await db.query(
      `UPDATE plan_privileges SET disabled = false, hidden = false
       WHERE plan_id = (SELECT id FROM plans WHERE is_default)
         AND permission IN ('integrateSynEcoSysData', 'integrateLocalAndSynEcoSys')`,
    );
    const list = async (token: string) =>
      ((await (await api(token, PUBLIC_PATHS.list)).json()) as { data: PublicSearchResult }).data.items.map(
        (d) => [d.id, d.title, d.cells, d.updatedAt],
      );
    expect(await list(bobToken)).toEqual(await list(aliceToken));

    const zh = await openPage(browser, { baseURL: server.url, locale: 'zh-CN' });
    try {
      const page = zh.page;
      await openPublicDetail(page, bob);
      const detail = page.getByTestId('publicdb-detail');
      await detail.getByTestId('publicdb-level-annot_sub').waitFor();
      await expect(detail.getByTestId('publicdb-level-annot_sub').textContent()).resolves.toContain(
        'CD14+ Mono (480)',
      );
      // read-only: the one action is adding it to an analysis — nothing withdraws, edits or ingests
      await detail.getByTestId('publicdb-add').waitFor();
      const actions = await detail.locator('button, a').allTextContents();
      expect(
        actions.filter((a) => /撤回|编辑|删除|修改|导入|上传|withdraw|edit|delete|ingest/i.test(a)),
      ).toEqual([]);
      await screenshot(page, 'publicdb-other-user');
      await page.keyboard.press('Escape'); // the detail drawer closes
      await detail.waitFor({ state: 'hidden' });
      // no admin console for a non-administrator (the ingest is the administrators' tool)
      await page.getByTestId('user-menu').click();
      await page.getByRole('menuitem', { name: '退出登录' }).waitFor();
      await expect(page.getByTestId('admin-menu').count()).resolves.toBe(0);
      await page.goto('/admin');
      await page.getByTestId('resource-unavailable').waitFor();
    } finally {
      await zh.close();
    }
    const withdraw = await api(bobToken, PUBLIC_PATHS.withdraw('pbmc3k-public'), { method: 'POST' });
    expect(withdraw.status).toBe(403);
    expect(((await withdraw.json()) as { msg: string }).msg).toBeTruthy();
    expect((await api(bobToken, ADMIN_API.jobs)).status).toBe(403); // where ingest jobs are listed
    const probe = (await (await api(bobToken, ADMIN_API.probe)).json()) as { data: { admin: boolean } };
    expect(probe.data.admin).toBe(false);
    // nothing was changed: still listed, same version
    const [row] = (
      await db.query('SELECT withdrawn_at, version FROM public_datasets WHERE id = $1', ['pbmc3k-public'])
    ).rows as { withdrawn_at: Date | null; version: number }[];
    expect(row).toEqual({ withdrawn_at: null, version: 1 });
  }, 180_000);
});
