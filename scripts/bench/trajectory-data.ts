/**
 * Inputs shared by `npm run bench:trajectory` and scripts/compare/monocle2-r.ts: a ResultHandle over
 * the synthetic branching data (scripts/synth/branching.ts) and over the shared pbmc3k.h5ad (raw
 * counts of the 2,638 tutorial cells, Seurat tutorial labels as the `label` level, Seurat UMAP).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readH5adBytes } from '@cellcloud/formats';
import { SHARED_DATA_DIR } from '@cellcloud/testkit';
import { resultHandleFromDataset } from '../../packages/engine/src/tasks/result-handle';
import type { ResultHandle } from '../../packages/engine/src/tasks/types';
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
  const file = path.join(SHARED_DATA_DIR, 'pbmc3k/pbmc3k.h5ad');
  if (!existsSync(file)) {
    console.log(`pbmc3k: shared data missing (${file}), skipped`);
    return undefined;
  }
  const ds = await readH5adBytes(new Uint8Array(readFileSync(file)), 'pbmc3k.h5ad');
  return resultHandleFromDataset(ds, { species: 'human' });
}
