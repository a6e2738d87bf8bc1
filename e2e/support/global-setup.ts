import { sharedData } from '@cellcloud/testkit';
import { ensureWebBuild } from './build';
import { analysePbmc3k } from './explore-setup';

/**
 * Runs once before the e2e files (vitest `globalSetup`): builds the web app when stale and makes
 * the pbmc3k result the explorer files share (explore-setup.ts), so that files running side by
 * side (`CELLCLOUD_E2E_WORKERS=2`) never build or analyse into the same folder at once, and the
 * first explorer file's time is its own.
 */
export default function setup(): void {
  const started = Date.now();
  ensureWebBuild();
  const pbmc = sharedData('pbmc3k/10x');
  if (pbmc) analysePbmc3k(pbmc);
  console.log(
    `e2e global setup (web bundle, pbmc3k result): ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}
