import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { definition as regulonsTask, type RegulonFeatures } from '../../src/regulons/contract';
import { readH5adBytes } from '@cellcloud/formats';
import { SHARED_DATA_DIR, sharedData } from '@cellcloud/testkit';
import { nodeResourceReader } from '@cellcloud/engine/cli/node-resources';
import { isTaskError, MemorySink, resultHandleFromDataset } from '@cellcloud/engine/tasks/kit';
import { runRegulons } from '../../src/regulons/engine';
import type { ResultHandle } from '@cellcloud/engine/tasks/kit';

const H5AD = sharedData('pbmc3k/pbmc3k.h5ad');
const DOROTHEA = sharedData('tf_regulons/dorothea_hs.tsv.gz');
const resources = nodeResourceReader(SHARED_DATA_DIR);

async function run(result: ResultHandle, params: object, from = resources) {
  const sink = new MemorySink();
  const summary = await runRegulons({
    result,
    params: regulonsTask.params.parse(params),
    onProgress: () => {},
    sink,
    resources: from,
  });
  return { summary, sink };
}

describe.skipIf(!H5AD || !DOROTHEA)('regulons (pySCENIC-style) on pbmc3k with the tutorial labels', () => {
  let result: ResultHandle;
  beforeAll(async () => {
    const ds = await readH5adBytes(new Uint8Array(await readFile(H5AD!)), 'pbmc3k.h5ad');
    result = resultHandleFromDataset(ds, { species: 'human' });
  });

  it('finds myeloid, B and NK regulators on top by RSS; regulon targets are DoRothEA evidence; AUC per cell', async () => {
    // default sample (150 cells per type): PAX5 is detected in 7 % of pbmc3k's B cells only, so
    // smaller samples fall under the 1 % expression filter of candidate TFs
    const { summary, sink } = await run(result, { groupBy: 'label' });
    for (const t of summary.topByType)
      console.log(t.cellType, t.regulons.map((r) => `${r.name} ${r.rss.toFixed(3)}`).join(', '));
    const top = (type: string) =>
      summary.topByType.find((t) => t.cellType === type)!.regulons.map((r) => r.name);
    expect(top('CD14+ Mono').some((r) => ['SPI1(+)', 'CEBPB(+)', 'CEBPA(+)'].includes(r))).toBe(true);
    expect(top('NK').some((r) => ['TBX21(+)', 'EOMES(+)'].includes(r))).toBe(true);
    expect(top('B').some((r) => ['PAX5(+)', 'EBF1(+)'].includes(r))).toBe(true);
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
    // feature plots: TF expression and AUC per cell on the embedding, for the top regulons
    const features = sink.datas.get('features.json') as RegulonFeatures;
    expect(features.embedding).toMatch(/umap/i);
    expect(features.x.length).toBe(result.nCells);
    expect(features.regulons.map((r) => r.name)).toContain('PAX5(+)');
    const pax5 = features.regulons.find((r) => r.name === 'PAX5(+)')!;
    const auc = sink.cells.get('regulon PAX5(+)')!.values as ArrayLike<number>;
    expect(pax5.auc[7]).toBeCloseTo(auc[7]!, 4);
    expect(pax5.expression.length).toBe(result.nCells);
    for (const t of [
      'adjacencies',
      'rss',
      'regulon_activity_scaled',
      'csi_matrix',
      'csi_modules',
      'top_regulons',
      'tf_expression_by_cell_type',
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
    // cisTarget rankings: a missing path names the resource; a configured database is refused
    const e3 = await run(result, { groupBy: 'label', rankings: 'cistarget/none.feather' }).catch((e) => e);
    expect(isTaskError(e3) && e3.key).toBe('common.resourceMissing');
    const dir = await mkdtemp(path.join(tmpdir(), 'cellcloud-rankings-'));
    await mkdir(path.join(dir, 'cistarget'));
    await writeFile(path.join(dir, 'cistarget/hg38.genes_vs_motifs.rankings.feather'), 'ARROW1');
    const e4 = await run(
      result,
      { groupBy: 'label', rankings: 'cistarget/hg38.genes_vs_motifs.rankings.feather' },
      nodeResourceReader(dir),
    ).catch((e) => e);
    expect(isTaskError(e4) && e4.key).toBe('regulons.rankingsUnsupported');
    await rm(dir, { recursive: true });
  }, 300_000);
});
