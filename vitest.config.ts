import { defineConfig } from 'vitest/config';
import { SlowestFirst } from './scripts/test/slowest-first';

/**
 * Four projects:
 *  - unit:   pure packages and web unit tests (no servers).
 *  - server: HTTP/database integration tests; run once per database backend by scripts/test.mjs
 *            (CELLCLOUD_TEST_DB=pglite | postgres).
 *  - e2e:    browser tests in Debian's Chromium via playwright-core against a built app.
 *  - deploy: the Helm chart and the container image (podman) under deploy/.
 * Files run longest first (scripts/test/slowest-first.ts), also on a fresh clone.
 */
export default defineConfig({
  test: {
    sequence: { sequencer: SlowestFirst },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/test/**/*.test.{ts,tsx}', 'apps/web/test/**/*.test.{ts,tsx}'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/test/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          pool: 'forks',
          // one process per worker for all its files, not one per file: each file loaded the whole
          // server again (fastify, pg-boss, OpenTelemetry, the S3 client, the task registry), ~2 s
          // a file. 20 short files on PGlite: 99 s wall / 116 CPU s → 52 s / 50 CPU s. What a
          // file sets in process.env is undone when it ends (support/restore-env.ts).
          isolate: false,
          setupFiles: ['./apps/server/test/support/restore-env.ts'],
        },
      },
      {
        // deploy/: the Helm chart renders and validates; the container image builds and runs under
        // podman (a stage of its own in scripts/test.mjs: one image build, not beside the others)
        test: {
          name: 'deploy',
          include: ['deploy/test/**/*.test.ts'],
          testTimeout: 900_000,
          hookTimeout: 900_000,
          pool: 'forks',
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          // with CELLCLOUD_E2E_WORKERS=2: the web bundle and the shared pbmc3k result, made once first
          globalSetup: ['e2e/support/global-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
          pool: 'forks',
          // one file at a time unless CELLCLOUD_E2E_WORKERS=2 (each file has its own server,
          // database and browser; see scripts/test.mjs for the measured times)
          fileParallelism: Number(process.env.CELLCLOUD_E2E_WORKERS ?? 1) > 1,
        },
      },
    ],
  },
});
