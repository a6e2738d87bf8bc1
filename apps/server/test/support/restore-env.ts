import { afterAll } from 'vitest';

/**
 * The server files share their worker process (vitest.config.ts: `isolate: false`), so what one
 * file sets in `process.env` (TMPDIR of its own, ENSEMBL_GENE_LISTS_DIR for its uploads) is
 * undone when it ends: the environment as it was before the file, restored after its own hooks.
 */
const saved = { ...process.env };
afterAll(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
});
