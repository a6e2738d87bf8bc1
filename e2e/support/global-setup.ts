import { sharedData } from '@cellcloud/testkit';
import { ensureWebBuild } from './build';
import { analysePbmc3k } from './explore-setup';

/**
 * Runs once before the e2e files (vitest `globalSetup`). With files side by side
 * (`CELLCLOUD_E2E_WORKERS=2`) it builds the web app when stale and makes the pbmc3k result the
 * explorer files share (explore-setup.ts) first, so that two files never build or analyse into
 * the same folder at once. One file at a time, each file does both itself when it needs them (a
 * run of one file that needs neither does not pay for the analysis).
 */
export default function setup(): void {
  if (Number(process.env.CELLCLOUD_E2E_WORKERS ?? 1) <= 1) return;
  const started = Date.now();
  ensureWebBuild();
  const pbmc = sharedData('pbmc3k/10x');
  if (pbmc) analysePbmc3k(pbmc);
  console.log(
    `e2e global setup (web bundle, pbmc3k result): ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}
