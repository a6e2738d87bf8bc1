import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedData } from '@cellcloud/testkit';
import { screenshot, switchLanguage } from './support/browser';
import { explorerEnv, type ExplorerEnv } from './support/explore-setup';
import { logInViaUi, newUser, registerViaApi, waitForPath } from './support/flows';

/**
 * Requested downloads in the browser (issue 21) on the REAL pbmc3k result (and the methods report
 * PDF from the explorer's Methods drawer): a user whose plan has
 * no "download free file" requests the .h5ad and the Seurat bundle from the explorer, an
 * administrator approves both in the admin console, the user is notified and downloads through
 * the signed link; a marker table request is declined with a reason the user reads in Chinese;
 * My Analyses' Result files link the ready exports and offer the declined one again;
 * one approved download expires (its validity moved into the past) and its file is deleted from storage.
 */
const pbmc = sharedData('pbmc3k/10x');
let env: ExplorerEnv;

describe.skipIf(!pbmc)('requested downloads with approval', () => {
  beforeAll(async () => {
    env = await explorerEnv('downloads', pbmc!, { IN_PROCESS_WORKER: 'true', DOWNLOAD_SWEEP_SECONDS: '2' });
  });
  afterAll(() => env?.close());

  it('request → admin approves → notified → download; decline with a reason; expiry deletes the file', async () => {
    const user = newUser('dl');
    const admin = newUser('adm');
    const u = await env.newPage();
    const datasetId = await env.openResult(u.page, user, 'pbmc3k_download');
    // the explorer's Methods drawer downloads the report as a PDF (rendered by the server)
    await u.page.getByTestId('methods-report').click();
    await u.page.getByTestId('methods-text').waitFor();
    const [pdf] = await Promise.all([
      u.page.waitForEvent('download'),
      u.page.getByTestId('methods-download-pdf').click(),
    ]);
    expect(pdf.suggestedFilename()).toBe('methods-en-US.pdf');
    expect(
      readFileSync((await pdf.path())!)
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');
    await env.db.query(`UPDATE users SET plan_id = 'readonly' WHERE username = $1`, [user.username]);
    await registerViaApi(env.server, admin);
    await env.db.query(`UPDATE users SET is_admin = true WHERE username = $1`, [admin.username]);

    await u.page.reload();
    for (const kind of ['h5ad', 'seurat', 'markers'] as const) {
      await u.page.getByTestId('request-download').click();
      // each request answered before the next (the button is busy meanwhile, and the previous
      // request's notice would satisfy the wait below at once)
      await Promise.all([
        u.page.waitForResponse((r) => r.request().method() === 'POST' && /\/api\/downloads/.test(r.url())),
        u.page.getByTestId(`request-download-${kind}`).click(),
      ]);
      await u.page
        .getByText(/waits for an administrator's approval/)
        .last()
        .waitFor();
    }
    await u.page.goto('/requestedDownloads?tab=requested');
    await expect
      .poll(() => u.page.getByTestId('downloads-requested').locator('.ant-table-row').count(), {
        timeout: 20_000,
      })
      .toBe(3)
      .catch(async (e: unknown) => {
        await screenshot(u.page, 'downloads-requested-failed');
        throw e;
      });
    await screenshot(u.page, 'downloads-requested');

    // the administrator's console: approve the h5ad and the bundle, decline the marker table
    const a = await env.newPage();
    await a.page.goto('/login?redirect=%2Fadmin%2Fdownloads');
    await logInViaUi(a.page, admin.username, admin.password);
    await waitForPath(a.page, '/admin/downloads');
    const queue = a.page.getByTestId('admin-downloads');
    for (const name of ['pbmc3k_download.h5ad', 'pbmc3k_download_seurat.zip']) {
      await queue.locator('.ant-table-row', { hasText: name }).getByTestId('admin-approve').click();
      await expect.poll(() => queue.locator('.ant-table-row', { hasText: name }).count()).toBe(0);
    }
    await queue
      .locator('.ant-table-row', { hasText: 'pbmc3k_download_markers.csv' })
      .getByTestId('admin-decline')
      .click();
    await a.page.getByTestId('admin-decline-reason').fill('Marker tables are shared on request only');
    await a.page.getByTestId('admin-decline-ok').click();
    await expect.poll(() => queue.locator('.ant-table-row').count()).toBe(0);
    await screenshot(a.page, 'admin-downloads');
    await a.context.close();

    // the user is notified and downloads both files
    await u.page.goto('/requestedDownloads?tab=active');
    const links = u.page.getByTestId('downloads-active').getByTestId('download-link');
    await expect.poll(() => links.count(), { timeout: 120_000, interval: 1000 }).toBe(2);
    const h5adRow = u.page
      .getByTestId('downloads-active')
      .locator('.ant-table-row', { hasText: 'pbmc3k_download.h5ad' });
    const h5ad = await u.page.request.get((await h5adRow.getByTestId('download-link').getAttribute('href'))!);
    expect(h5ad.status()).toBe(200);
    expect((await h5ad.body()).subarray(0, 8).toString('latin1')).toBe('\x89HDF\r\n\x1a\n');
    const zipRow = u.page
      .getByTestId('downloads-active')
      .locator('.ant-table-row', { hasText: 'seurat.zip' });
    const zip = await u.page.request.get((await zipRow.getByTestId('download-link').getAttribute('href'))!);
    expect((await zip.body()).subarray(0, 2).toString('latin1')).toBe('PK');
    await screenshot(u.page, 'downloads-active');

    // My Analyses → Result files: the analysis.h5ad row links both ready exports; the declined
    // marker table can be requested again
    await u.page.goto('/my_analyzes?tab=results');
    const files = u.page.getByTestId('result-files');
    const h5adFile = files.locator('.ant-table-row', { hasText: 'analysis.h5ad' });
    await expect
      .poll(() => h5adFile.getByTestId('result-file-download').count(), { timeout: 30_000 })
      .toBe(2);
    const fromTab = await u.page.request.get(
      (await h5adFile
        .getByTestId('result-file-h5ad')
        .getByTestId('result-file-download')
        .getAttribute('href'))!,
    );
    expect((await fromTab.body()).subarray(0, 8).toString('latin1')).toBe('\x89HDF\r\n\x1a\n');
    await files
      .locator('.ant-table-row', { hasText: 'markers.csv' })
      .locator('[data-testid="result-file-request"][data-kind="markers"]')
      .waitFor();
    await screenshot(u.page, 'result-files');
    const notes = (
      await env.db.query(
        `SELECT kind, params FROM notifications n JOIN users u ON u.id = n.user_id WHERE u.username = $1`,
        [user.username],
      )
    ).rows as { kind: string; params: Record<string, string> }[];
    expect(notes.filter((n) => n.kind === 'download.ready')).toHaveLength(2);

    // the declined request and its reason, in Chinese
    await switchLanguage(u.page);
    await u.page.goto('/requestedDownloads?tab=requested');
    await u.page.getByTestId('downloads-requested').getByText('已拒绝').waitFor();
    await u.page
      .getByTestId('download-reason')
      .getByText('Marker tables are shared on request only')
      .waitFor();
    await screenshot(u.page, 'downloads-declined');

    // the h5ad's validity ends: the sweep deletes the file and the request moves to Expired
    const [{ id, file_key: key }] = (
      await env.db.query(`SELECT id, file_key FROM download_requests WHERE job_id = $1 AND kind = 'h5ad'`, [
        datasetId,
      ])
    ).rows as { id: string; file_key: string }[];
    const stored = path.join(env.dataDir, 'storage', key);
    expect(existsSync(stored)).toBe(true);
    await env.db.query(
      `UPDATE download_requests SET expires_at = now() - interval '1 minute' WHERE id = $1`,
      [id],
    );
    await expect.poll(() => existsSync(stored), { timeout: 30_000 }).toBe(false);
    await u.page.goto('/requestedDownloads?tab=expired');
    await u.page
      .getByTestId('downloads-expired')
      .locator('.ant-table-row', { hasText: 'pbmc3k_download.h5ad' })
      .waitFor();
    await screenshot(u.page, 'downloads-expired');
    expect(u.errors).toEqual([]);
    await u.context.close();
  }, 300_000);
});
