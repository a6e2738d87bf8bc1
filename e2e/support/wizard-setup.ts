import type { Browser } from 'playwright-core';
import { USER_PREFERENCES_PATH } from '@cellcloud/contracts/preferences';
import { registerAndLogIn } from './api-setup';
import { ensureWebBuild } from './build';
import { launchBrowser, openPage, screenshot, type TestPage } from './browser';
import { logInViaUi, waitForPath, type NewUser } from './flows';
import { startServer, type RunningServer } from './server';

export interface WizardEnv {
  server: RunningServer;
  browser: Browser;
  /** Logged in as the user, on /my_analyzes. */
  tp: TestPage;
  close(): Promise<void>;
}

/**
 * Shared setup of the wizard e2e files: a server with the Ensembl gene lists and one in-process
 * worker, the user registered through the API, their samples uploaded and parsed by `upload`,
 * then a page (first-visit tutorial closed) logged in through the UI on /my_analyzes.
 */
export async function wizardEnv(
  user: NewUser,
  geneLists: string,
  upload: (server: RunningServer, token: string) => Promise<void>,
): Promise<WizardEnv> {
  ensureWebBuild();
  const server = await startServer({
    ENSEMBL_GENE_LISTS_DIR: geneLists,
    IN_PROCESS_WORKER: 'true',
    WORKER_CONCURRENCY: '1',
  });
  let browser: Browser | undefined;
  let tp: TestPage | undefined;
  const close = async () => {
    await tp?.close();
    await browser?.close();
    await server.stop();
  };
  try {
    browser = await launchBrowser();
    const token = await registerAndLogIn(server, user);
    await upload(server, token);
    // The first-visit tutorial (its own test) stays closed here: the choice is stored per user.
    const dismissed = await fetch(`${server.url}${USER_PREFERENCES_PATH}`, {
      method: 'PUT',
      headers: { 'access-token': token, 'content-type': 'application/json' },
      body: JSON.stringify({ tutorialDismissed: true }),
    });
    if (!dismissed.ok) throw new Error(`could not dismiss the tutorial: ${dismissed.status}`);
    tp = await openPage(browser, {
      baseURL: server.url,
      locale: 'en-US',
      allowFailedRequests: [/\/api\/jobs\/events/],
    });
    await tp.page.goto('/login?redirect=%2Fmy_analyzes');
    try {
      await logInViaUi(tp.page, user.username, user.password);
    } catch (e) {
      await screenshot(tp.page, 'wizard-login-failure');
      throw new Error(`${(e as Error).message}\nbrowser errors: ${tp.errors.join('\n')}`);
    }
    await waitForPath(tp.page, '/my_analyzes');
  } catch (e) {
    await close(); // a failed setup leaves no server behind
    throw e;
  }
  return { server, browser, tp, close };
}
