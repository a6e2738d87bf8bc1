import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { regulonsTask } from '@cellcloud/contracts/tasks/regulons';
import { readH5adBytes } from '@cellcloud/formats';
import { SHARED_DATA_DIR, sharedData } from '@cellcloud/testkit';
import { nodeResourceReader } from '../../src/cli/node-resources';
import { isTaskError } from '../../src/tasks/errors';
import { runRegulons } from '../../src/tasks/regulons';
import { MemorySink } from '../../src/tasks/memory-sink';
import { resultHandleFromDataset } from '../../src/tasks/result-handle';
import type { ResultHandle } from '../../src/tasks/types';

const H5AD = sharedData('pbmc3k/pbmc3k.h5ad');
const DOROTHEA = sharedData('tf_regulons/dorothea_hs.tsv.gz');
const resources = nodeResourceReader(SHARED_DATA_DIR);

async function run(result: ResultHandle, params: object) {
  const sink = new MemorySink();
  const summary = await runRegulons({
    result,
    params: regulonsTask.params.parse(params),
    onProgress: () => {},
    sink,
    resources,
  });
  return { summary, sink };
}

describe.skipIf(!H5AD || !DOROTHEA)('regulons (pySCENIC-style) on pbmc3k with the tutorial labels', () => {
  let result: ResultHandle;
  beforeAll(async () => {
    const ds = await readH5adBytes(new Uint8Array(await readFile(H5AD!)), 'pbmc3k.h5ad');
    result = resultHandleFromDataset(ds, { species: 'human' });
  });

  it('finds myeloid and NK regulators on top by RSS; regulon targets are DoRothEA evidence; AUC per cell', async () => {
    const { summary, sink } = await run(result, { groupBy: 'label', cellsPerType: 60 });
    for (const t of summary.topByType)
      console.log(t.cellType, t.regulons.map((r) => `${r.name} ${r.rss.toFixed(3)}`).join(', '));
    const top = (type: string) =>
      summary.topByType.find((t) => t.cellType === type)!.regulons.map((r) => r.name);
    expect(top('CD14+ Mono').some((r) => ['SPI1(+)', 'CEBPB(+)', 'CEBPA(+)'].includes(r))).toBe(true);
    expect(top('NK').some((r) => ['TBX21(+)', 'EOMES(+)'].includes(r))).toBe(true);
    // every target of a regulon is in the TF's DoRothEA A–C evidence (the TF itself aside)
    const evidence = new Map<string, Set<string>>();
    for (const line of gunzipSync(await readFile(DOROTHEA!))
      .toString('utf8')
      .trim()
      .split('\n')
      .slice(1)) {
      const [tf, conf, target] = line.split('\t') as [string, string, string];
      if (conf > 'C') continue;
      if (!evidence.has(tf)) evidence.set(tf, new Set());
      evidence.get(tf)!.add(target);
    }
    const table = sink.tables.get('regulons')!;
    for (const [, tf, , targets] of table.rows as [string, string, number, string][]) {
      for (const g of targets.split(';')) if (g !== tf) expect(evidence.get(tf)!.has(g)).toBe(true);
    }
    expect(sink.cells.get(`regulon ${summary.regulons[0]!.name}`)?.values.length).toBe(result.nCells);
    for (const t of [
      'adjacencies',
      'rss',
      'regulon_activity_scaled',
      'csi_matrix',
      'csi_modules',
      'top_regulons',
    ]) {
      expect(sink.tables.get(t)!.rows.length).toBeGreaterThan(0);
    }
  }, 300_000);

  it('same seed → identical regulons and AUC in two runs; one cell type and other species are refused', async () => {
    const params = { groupBy: 'label', cellsPerType: 30, maxTargets: 300 };
    const a = await run(result, params);
    const b = await run(result, params);
    expect(b.summary.regulons).toEqual(a.summary.regulons);
    const key = `regulon ${a.summary.regulons[0]!.name}`;
    const values = (x: typeof a) => Array.from(x.sink.cells.get(key)!.values as ArrayLike<number>);
    expect(values(b)).toEqual(values(a));
    const ds = await readH5adBytes(new Uint8Array(await readFile(H5AD!)), 'pbmc3k.h5ad');
    const single = resultHandleFromDataset(ds, {
      species: 'human',
      extraObs: { all: { kind: 'categorical', values: ds.cells.barcodes.map(() => 'PBMC') } },
    });
    const e1 = await run(single, { groupBy: 'all' }).catch((e) => e);
    expect(isTaskError(e1) && e1.key).toBe('regulons.oneType');
    const rat = resultHandleFromDataset(ds, { species: 'Rattus norvegicus' });
    const e2 = await run(rat, { groupBy: 'label' }).catch((e) => e);
    expect(isTaskError(e2) && e2.key).toBe('common.speciesHumanMouse');
  }, 300_000);
});
