import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Root of the repository checkout. */
export const REPO_ROOT = repoRoot;

/**
 * Directory of the shared public data (`../shared/data` beside the checkout), overridable with
 * CELLCLOUD_SHARED_DATA. Never copy these files into the project.
 */
export const SHARED_DATA_DIR = process.env.CELLCLOUD_SHARED_DATA
  ? path.resolve(process.env.CELLCLOUD_SHARED_DATA)
  : path.resolve(repoRoot, '../shared/data');

export const IN_CI = process.env.CI === 'true';

/**
 * Absolute path of a shared data file, or `undefined` when it is missing outside CI (the caller
 * then skips with `missingDataMessage`). Under CI=true a missing file throws: it is a failure.
 */
export function sharedData(rel: string): string | undefined {
  const p = path.join(SHARED_DATA_DIR, rel);
  if (existsSync(p)) return p;
  if (IN_CI) throw new Error(`shared data file missing under CI: ${p} (set CELLCLOUD_SHARED_DATA)`);
  console.warn(`[skip] shared data file missing: ${p} (set CELLCLOUD_SHARED_DATA to run this test)`);
  return undefined;
}

/** Like sharedData but for use in `describe.skipIf(!hasSharedData(...))`. */
export function hasSharedData(...rels: string[]): boolean {
  return rels.every((r) => sharedData(r) !== undefined);
}

/**
 * The Seurat tutorial labels of pbmc3k (`pbmc3k/pbmc3k_seurat_labels.csv`) at the Cell Ontology
 * lineage level — what a curator stores as annot_full for them (label-transfer tests, e2e ingest).
 */
export const PBMC3K_LINEAGES: Readonly<Record<string, string>> = {
  'Naive CD4 T': 'T cell',
  'Memory CD4 T': 'T cell',
  'CD8 T': 'T cell',
  'CD14+ Mono': 'Monocyte',
  'FCGR3A+ Mono': 'Monocyte',
  B: 'B cell',
  NK: 'NK cell',
  DC: 'Dendritic cell',
  Platelet: 'Platelet',
};

/**
 * A Python 3 with Debian's python3-openpyxl (tests read exported XLSX workbooks back with it), or
 * undefined with a warning naming the package to install.
 */
export function openpyxlPython(): string | undefined {
  const py = ['/usr/bin/python3', 'python3'].find(
    (p) => spawnSync(p, ['-c', 'import openpyxl'], { stdio: 'ignore' }).status === 0,
  );
  if (!py)
    console.warn(
      '⚠ XLSX not read back: python3-openpyxl is not installed (apt-get install python3-openpyxl)',
    );
  return py;
}
export { freePort } from './free-port';
