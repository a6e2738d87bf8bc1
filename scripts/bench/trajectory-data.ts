/**
 * Inputs shared by `npm run bench:trajectory` and scripts/compare/monocle2-r.ts: a ResultHandle over
 * the synthetic branching data (scripts/synth/branching.ts) and over the CellCloud analysis of
 * pbmc3k with the Seurat tutorial labels as the `label` level (TRAJ_PBMC3K_RESULT=<analysis.h5ad>
 * reuses an existing result; otherwise the standard pipeline runs once, ~1 min).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readH5adBytes } from '@cellcloud/formats';
import { REPO_ROOT, SHARED_DATA_DIR } from '@cellcloud/testkit';
import { resultHandleFromDataset } from '../../packages/engine/src/tasks/result-handle';
import type { ResultHandle } from '../../packages/engine/src/tasks/types';
import { parseObsFile } from '../../packages/engine/src/cli/obs-file';
import type { BranchingData } from '../synth/branching';

export function syntheticHandle(d: BranchingData): ResultHandle {
  return resultHandleFromDataset(
    {
      counts: d.counts,
      genes: d.genes,
      cells: { barcodes: d.barcodes, columns: { celltype: { kind: 'categorical', values: d.celltype } } },
      embeddings: { X_umap: { dims: 2, values: d.umap } },
    },
    { species: 'human' },
  );
}

export async function pbmc3kMonocytes(): Promise<ResultHandle | undefined> {
  const labelsFile = path.join(SHARED_DATA_DIR, 'pbmc3k/pbmc3k_seurat_labels.csv');
  if (!existsSync(labelsFile)) {
    console.log(`pbmc3k: shared data missing (${labelsFile}), skipped`);
    return undefined;
  }
  let stored = process.env.TRAJ_PBMC3K_RESULT;
  if (!stored) {
    const out = mkdtempSync(path.join(tmpdir(), 'traj-pbmc3k-'));
    console.log(`pbmc3k: running the standard analysis into ${out} (set TRAJ_PBMC3K_RESULT to reuse one)`);
    const r = spawnSync(
      'npx',
      ['cellcloud', 'analyze', path.join(SHARED_DATA_DIR, 'pbmc3k/10x'), '--out', out],
      { cwd: REPO_ROOT, stdio: 'ignore' },
    );
    if (r.status !== 0) throw new Error('cellcloud analyze failed on pbmc3k');
    stored = path.join(out, 'analysis.h5ad');
  }
  const ds = await readH5adBytes(new Uint8Array(readFileSync(stored)), path.basename(stored));
  const obs = parseObsFile(readFileSync(labelsFile, 'utf8'), ds.cells.barcodes);
  return resultHandleFromDataset(ds, { species: 'human', extraObs: obs.columns });
}
