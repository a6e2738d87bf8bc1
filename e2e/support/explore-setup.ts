import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { STORAGE_PREFIX } from '@cellcloud/contracts';
import { ensureWebBuild, repoRoot } from './build';
import { CHROMIUM } from './browser';
import { scratchDatabase, type ScratchDb } from './database';
import { logInViaUi, registerViaApi, signUpViaUi, waitForPath, type NewUser } from './flows';
import { startServer, type RunningServer } from './server';

/**
 * Shared setup of the explorer e2e files: a REAL pbmc3k result made once per machine by the
 * engine CLI, a server on a scratch PostgreSQL database, Chromium with WebGL through SwiftShader,
 * and a user (registered through the API, or signing up in the UI when asked) who finds the result
 * published where the job runner publishes it (storage `results/<jobId>/`) for a completed job of
 * theirs.
 * `CELLCLOUD_E2E_PBMC3K_RESULT=<dir>` uses a result made before as it is (e.g. to time the browser
 * files while the engine's sources are being edited beside them, which would analyse again).
 */
export const pbmc3kResultDir =
  process.env.CELLCLOUD_E2E_PBMC3K_RESULT ||
  path.join(os.tmpdir(), `cellcloud-e2e-pbmc3k-result-${engineSourceHash()}`);

/**
 * Hash of the engine's and the formats' sources: the cached pbmc3k result is made again whenever
 * either changes (a result made by an older engine would test the explorer against stale outputs).
 */
function engineSourceHash(): string {
  const h = createHash('sha256');
  const walk = (dir: string) => {
    for (const f of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, f.name);
      if (f.isDirectory()) walk(p);
      else h.update(p.slice(repoRoot.length)).update(readFileSync(p));
    }
  };
  for (const d of ['packages/engine/src', 'packages/formats/src']) walk(path.join(repoRoot, d));
  return h.digest('hex').slice(0, 12);
}

/** Runs `cellcloud analyze` on the shared pbmc3k 10x data unless its result is already there. */
export function analysePbmc3k(pbmcDir: string): void {
  if (existsSync(path.join(pbmc3kResultDir, 'artifacts/manifest.json'))) return;
  const bin = path.join(repoRoot, 'node_modules/.bin');
  const r = spawnSync(
    path.join(bin, 'node'),
    [path.join(bin, 'cellcloud'), 'analyze', pbmcDir, '--out', pbmc3kResultDir],
    {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` },
    },
  );
  if (r.status !== 0)
    throw new Error(
      `engine CLI failed (${r.error?.message ?? `exit ${r.status}`}):\n${r.stdout}\n${r.stderr}`,
    );
}

export interface ExplorerEnv {
  server: RunningServer;
  db: ScratchDb;
  browser: Browser;
  dataDir: string;
  /** A fresh en-US context (downloads on) and its page; `errors` collects uncaught page errors. */
  newPage(): Promise<{ context: BrowserContext; page: Page; errors: string[] }>;
  /**
   * Registers `user`, publishes the pbmc3k result as their completed job `jobName` and opens it in
   * the explorer after logging in through the UI in `page`; returns the job id. The account is made
   * through the API with what the sign-up form enters, unless `signUp: 'ui'` fills the form in
   * `page` (the form's own test is e2e/shell.test.ts; one explorer case keeps the whole path).
   */
  openResult(page: Page, user: NewUser, jobName: string, opts?: { signUp?: 'ui' | 'api' }): Promise<string>;
  close(): Promise<void>;
}

export async function explorerEnv(
  name: string,
  pbmcDir: string,
  env: Record<string, string> = {},
): Promise<ExplorerEnv> {
  analysePbmc3k(pbmcDir);
  ensureWebBuild();
  const db = await scratchDatabase();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `cellcloud-e2e-${name}-`));
  const cleanUp = async (server?: RunningServer, browser?: Browser) => {
    await browser?.close();
    await server?.stop();
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  let server: RunningServer | undefined;
  let browser: Browser;
  try {
    server = await startServer({ DATABASE_URL: db.url, CELLCLOUD_DATA_DIR: dataDir, ...env });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--use-angle=swiftshader',
        '--enable-unsafe-swiftshader',
      ],
    });
  } catch (e) {
    await cleanUp(server); // a failed setup leaves no server or database behind
    throw e;
  }
  return {
    server,
    db,
    browser,
    dataDir,
    async newPage() {
      const context = await browser.newContext({
        baseURL: server.url,
        viewport: { width: 1440, height: 1000 },
        locale: 'en-US',
        acceptDownloads: true,
      });
      await context.addInitScript(
        (k) => window.localStorage.getItem(k) || window.localStorage.setItem(k, 'en-US'),
        `${STORAGE_PREFIX}locale`,
      );
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      return { context, page, errors };
    },
    async openResult(page, user, jobName, opts = {}) {
      if (opts.signUp === 'ui') {
        await page.goto('/signup');
        await signUpViaUi(page, server, user);
      } else await registerViaApi(server, user, 'signup');
      const [{ id: userId }] = (await db.query('SELECT id FROM users WHERE username = $1', [user.username]))
        .rows as { id: string }[];
      const job = await db.query(
        `INSERT INTO analysis_jobs (user_id, analysis_id, job_name, kind, status, species, params, draft, progress, finished_at)
         VALUES ($1, 'CA' || lpad(nextval('analysis_id_seq')::text, 6, '0'), $2, 'custom', 'completed', 'Homo sapiens', '{}', '{}', 1, now()) RETURNING id`,
        [userId, jobName],
      );
      const jobId = (job.rows[0] as { id: string }).id;
      const stored = path.join(dataDir, 'storage/results', jobId);
      cpSync(path.join(pbmc3kResultDir, 'artifacts'), path.join(stored, 'artifacts'), { recursive: true });
      cpSync(path.join(pbmc3kResultDir, 'analysis.h5ad'), path.join(stored, 'analysis.h5ad'));
      cpSync(path.join(pbmc3kResultDir, 'markers.csv'), path.join(stored, 'markers.csv'));
      const target = `/userDatasetAnalysis?id=${jobId}`;
      await page.goto(`/login?redirect=${encodeURIComponent(target)}`);
      await logInViaUi(page, user.username, user.password);
      await waitForPath(page, '/userDatasetAnalysis');
      return jobId;
    },
    close: () => cleanUp(server, browser),
  };
}
