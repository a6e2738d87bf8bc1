import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { readH5adBytes } from '@cellcloud/formats';
import { monocle2Params } from '../../src/monocle2/contract';
import { monocle3Params } from '../../src/monocle3/contract';
import { sharedData } from '@cellcloud/testkit';
import { MemorySink, resultHandleFromDataset } from '@cellcloud/engine/tasks/kit';
import { engine as monocle2Engine } from '../../src/monocle2/engine';
import { engine as monocle3Engine } from '../../src/monocle3/engine';
import type { ResultHandle } from '@cellcloud/engine/tasks/kit';
import { resources } from './trajectory-support';

/**
 * pbmc3k monocytes (Seurat tutorial labels, Seurat UMAP): CD14+ → FCGR3A+ from the CD14+ root,
 * with both trajectory tasks end to end.
 */
const H5AD = sharedData('pbmc3k/pbmc3k.h5ad');
const MONO = ['CD14+ Mono', 'FCGR3A+ Mono'];

function meanBy(values: ArrayLike<number>, labels: readonly string[], label: string): number {
  let s = 0;
  let n = 0;
  labels.forEach((l, i) => {
    if (l === label && Number.isFinite(values[i]!)) {
      s += values[i]!;
      n++;
    }
  });
  return s / n;
}

describe.skipIf(!H5AD)('trajectory tasks on pbmc3k monocytes', () => {
  let result: ResultHandle;
  let labels: string[];
  beforeAll(async () => {
    const ds = await readH5adBytes(new Uint8Array(await readFile(H5AD!)), 'pbmc3k.h5ad');
    result = resultHandleFromDataset(ds, { species: 'human' });
    const col = result.obs('label')!;
    labels = col.kind === 'categorical' ? col.values : [];
  });

  it('monocle3: FCGR3A+ monocytes lie later in pseudotime than CD14+ ones', async () => {
    const sink = new MemorySink();
    const s = await monocle3Engine.run({
      result,
      params: monocle3Params.parse({ groupBy: 'label', groups: MONO, root: 'CD14+ Mono' }),
      onProgress: () => {},
      sink,
      resources,
    });
    const pt = sink.cells.get('monocle3_pseudotime')!.values as Float64Array;
    const early = meanBy(pt, labels, 'CD14+ Mono');
    const late = meanBy(pt, labels, 'FCGR3A+ Mono');
    console.log(
      `monocle3 pbmc3k: ${s.nCells} cells, ${s.nNodes} nodes, mean pseudotime CD14+ ${early.toFixed(2)}, FCGR3A+ ${late.toFixed(2)}, top ${s.topGenes.slice(0, 5)}`,
    );
    expect(late).toBeGreaterThan(early);
    expect(s.nGenesSignificant).toBeGreaterThan(0);
  });

  it('monocle2: FCGR3A+ monocytes lie later in pseudotime than CD14+ ones; an unknown root State is refused', async () => {
    const sink = new MemorySink();
    const s = await monocle2Engine.run({
      result,
      params: monocle2Params.parse({ groupBy: 'label', groups: MONO, root: 'CD14+ Mono' }),
      onProgress: () => {},
      sink,
      resources,
    });
    const pt = sink.cells.get('monocle2_pseudotime')!.values as Float64Array;
    const early = meanBy(pt, labels, 'CD14+ Mono');
    const late = meanBy(pt, labels, 'FCGR3A+ Mono');
    console.log(
      `monocle2 pbmc3k: ${s.nCells} cells, ${s.nStates} States, root State ${s.rootState}, mean pseudotime CD14+ ${early.toFixed(2)}, FCGR3A+ ${late.toFixed(2)}, top ${s.topGenes}`,
    );
    expect(late).toBeGreaterThan(early + 2);
    expect(s.topGenes.length).toBe(8);
    await expect(
      monocle2Engine.run({
        result,
        params: monocle2Params.parse({ groupBy: 'label', groups: MONO, rootState: '99' }),
        onProgress: () => {},
        sink: new MemorySink(),
        resources,
      }),
    ).rejects.toMatchObject({ key: 'monocle2.unknownState' });
  });
});
