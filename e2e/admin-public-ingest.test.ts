import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { sharedData } from '@cellcloud/testkit';
import { ensureWebBuild } from './support/build';
import { launchBrowser, openPage, screenshot } from './support/browser';
import { scratchDatabase, type ScratchDb } from './support/database';
import { logInViaUi, newUser, registerViaApi, waitForPath } from './support/flows';
import { startServer, type RunningServer } from './support/server';

/**
 * Issue 31, in both languages: an administrator opens the admin console's "Public database" tab,
 * chooses pbmc3k's three 10x files, pastes a metadata sheet with several mistakes, validates and
 * reads every problem (naming the sheet's fields, in the page's language), fixes the sheet,
 * validates again, starts the ingest and sees its state (no worker runs here: it stays queued;
 * public-ingest-job.test.ts covers the analysis).
 */
const pbmc = sharedData('pbmc3k/10x');
/** The cells of the 10x files: one barcode a line. */
const cellCount = () =>
  gunzipSync(readFileSync(path.join(pbmc!, 'barcodes.tsv.gz')))
    .toString()
    .trim()
    .split('\n').length;
let server: RunningServer;
let browser: Browser;
let db: ScratchDb;
const admin = newUser('pubadm');

const BAD = ['id: pbmc3k e2e', 'colour: red', 'species: Homo sapiens', 'tissue: blood'].join('\n');
const good = (id: string) =>
  [
    `id: ${id}`,
    'title: 3k PBMCs (browser ingest)',
    'species: Homo sapiens',
    'tissue: [blood]',
    'disease: [normal]',
    "assay: [10x 3' v1]",
  ].join('\n');

beforeAll(async () => {
  if (!pbmc) return;
  ensureWebBuild();
  db = await scratchDatabase();
  server = await startServer({ DATABASE_URL: db.url });
  await registerViaApi(server, admin);
  await db.query('UPDATE users SET is_admin = true WHERE username = $1', [admin.username]);
  browser = await launchBrowser();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

const cases = [
  {
    locale: 'en-US' as const,
    id: 'pbmc3k-e2e-en',
    tab: 'Public database',
    required: '"title" is required',
    unknown: '"colour" is not a field of the metadata sheet',
    queued: 'Queued',
  },
  {
    locale: 'zh-CN' as const,
    id: 'pbmc3k-e2e-zh',
    tab: '公共数据库',
    required: '缺少 "title"',
    unknown: '"colour" 不是元数据表的字段',
    queued: '排队中',
  },
];

describe.skipIf(!pbmc)('public dataset ingest from the admin console', () => {
  for (const c of cases)
    it(`${c.locale}: validate lists every problem, the fixed sheet starts a queued ingest`, async () => {
      const t = await openPage(browser, { baseURL: server.url, locale: c.locale });
      await t.page.goto('/login?redirect=%2Fadmin');
      await logInViaUi(t.page, admin.username, admin.password);
      await waitForPath(t.page, '/admin');
      await t.page.getByRole('tab', { name: c.tab }).click();
      await t.page
        .getByTestId('pi-files')
        .setInputFiles(['barcodes.tsv.gz', 'genes.tsv.gz', 'matrix.mtx.gz'].map((f) => path.join(pbmc!, f)));
      await t.page.getByTestId('pi-sheet').fill(BAD);
      await t.page.getByTestId('pi-validate').click();
      const problems = t.page.getByTestId('pi-problems');
      await problems.waitFor({ timeout: 120_000 });
      const text = await problems.innerText();
      for (const s of [c.required, c.unknown]) expect(text).toContain(s);
      // every problem at once: id, title, colour, tissue (sheet) and disease, assay (counts rules)
      expect(await problems.locator('li').count()).toBe(6);
      for (const f of ['id', 'title', 'colour', 'tissue', 'disease', 'assay'])
        await problems.locator('code', { hasText: new RegExp(`^${f}$`) }).waitFor();
      expect(text).not.toMatch(/\[object|Invalid input|meta\./);
      await screenshot(t.page, 'admin-public-ingest-problems');

      await t.page.getByTestId('pi-sheet').fill(good(c.id));
      await t.page.getByTestId('pi-validate').click();
      await t.page.getByTestId('pi-valid').waitFor({ timeout: 120_000 });
      expect(await t.page.getByTestId('pi-valid').innerText()).toContain(String(cellCount()));
      await t.page.getByTestId('pi-start').click();
      await t.page.getByTestId('pi-progress').waitFor({ timeout: 120_000 });
      await expect.poll(() => t.page.getByTestId('pi-state').innerText()).toBe(c.queued);
      expect(await t.page.getByTestId('pi-progress').innerText()).toContain(`${c.id} v1`);
      await screenshot(t.page, 'admin-public-ingest-queued');
      const rows = await db.query('SELECT status FROM public_ingests WHERE dataset_id = $1', [c.id]);
      expect(rows.rows.map((r: { status: string }) => r.status)).toEqual(['queued']);
      expect(t.errors).toEqual([]);
      await t.close();
    }, 300_000);
});
