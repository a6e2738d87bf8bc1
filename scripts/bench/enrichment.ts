/**
 * npm run bench:enrichment [-- 10000 100000] — seconds of the enrichment tasks (issue 15) on
 * synthetic negative-binomial data (packages/engine/src/synthetic.ts, 15,000 genes, 8 clusters):
 * step 1 (deg-groups: cluster 0 vs cluster 1, Wilcoxon both directions), ORA (enrich on the step-1
 * tables: GO BP, Reactome, WikiPathways, Hallmark) and GSEA (Hallmark, 10,000 permutations).
 * The synthetic genes are renamed to the human symbols of the GO BP / Reactome libraries so that
 * the gene sets match (the marker genes are random, so the terms mean nothing: this is timing only).
 * Prints one line per size and a JSON line {"cells","step1","ora","gsea","total"}.
 */
import { definition as degDef } from '../../packages/tasks/src/deg-groups/contract';
import { definition as enrichDef } from '../../packages/tasks/src/enrich/contract';
import { definition as gseaDef } from '../../packages/tasks/src/gsea/contract';
import { SHARED_DATA_DIR } from '@cellcloud/testkit';
import { nodeResourceReader } from '@cellcloud/engine/cli/node-resources';
import { syntheticDataset } from '@cellcloud/engine/synthetic';
import { engine as degGroupsTask } from '../../packages/tasks/src/deg-groups/engine';
import { engine as enrichTask } from '../../packages/tasks/src/enrich/engine';
import { loadGeneSets } from '../../packages/tasks/src/_shared/engine/gene-sets/library';
import { engine as gseaTask } from '../../packages/tasks/src/gsea/engine';
import { MemorySink } from '@cellcloud/engine/tasks/kit';
import { resultHandleFromDataset } from '@cellcloud/engine/tasks/kit';
import type { SourceTask } from '@cellcloud/engine/tasks/kit';

const sizes = process.argv.slice(2).map(Number).filter(Boolean);
const resources = nodeResourceReader(SHARED_DATA_DIR);
const N_GENES = 15_000;
const names = new Set<string>();
for (const lib of ['go_bp', 'reactome', 'hallmark'] as const) {
  for (const s of await loadGeneSets(lib, resources, undefined))
    for (const g of s.genes) names.add(g.toUpperCase());
}
const symbols = [...names].slice(0, N_GENES);
while (symbols.length < N_GENES) symbols.push(`SYN${symbols.length}`);

const secs = (t0: number) => (performance.now() - t0) / 1000;
for (const nCells of sizes.length ? sizes : [10_000, 100_000]) {
  let t0 = performance.now();
  const syn = syntheticDataset({
    nCells,
    nGenes: N_GENES,
    nClusters: 8,
    markersPerCluster: 60,
    meanUmi: 2500,
    seed: 3,
  });
  const ds = { ...syn.dataset, genes: { ids: symbols, symbols } };
  const result = resultHandleFromDataset(ds, {
    species: 'human',
    extraObs: { cluster: { kind: 'categorical', values: Array.from(syn.truth, String) } },
  });
  result.normalized();
  const gen = secs(t0);
  const groups = { group1: [{ key: 'cluster', values: ['0'] }], group2: [{ key: 'cluster', values: ['1'] }] };
  const run = async <P, S>(task: { run: (c: never) => Promise<S> }, params: P, source?: SourceTask) => {
    const sink = new MemorySink();
    const summary = await task.run({
      result,
      params,
      onProgress: () => {},
      sink,
      resources,
      source,
    } as never);
    return { sink, summary };
  };
  t0 = performance.now();
  const deg = await run(degGroupsTask, degDef.params.parse(groups));
  const step1 = secs(t0);
  const source: SourceTask = {
    name: 'deg-groups',
    summary: deg.summary,
    readTable: async (n) => deg.sink.tables.get(n)!,
    readData: async () => new Uint8Array(0),
  };
  t0 = performance.now();
  await run(
    enrichTask,
    enrichDef.params.parse({ sourceTaskId: '00000000-0000-4000-8000-000000000000' }),
    source,
  );
  const ora = secs(t0);
  t0 = performance.now();
  await run(
    gseaTask,
    gseaDef.params.parse({ sourceTaskId: '00000000-0000-4000-8000-000000000000', library: 'hallmark' }),
    source,
  );
  const gsea = secs(t0);
  const total = step1 + ora + gsea;
  console.log(
    `${nCells} cells x ${N_GENES} genes (synthetic ${gen.toFixed(1)} s incl. normalize): step 1 ${step1.toFixed(1)} s, ORA (4 libraries) ${ora.toFixed(1)} s, GSEA ${gsea.toFixed(1)} s, total ${total.toFixed(1)} s, RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`,
  );
  console.log(JSON.stringify({ cells: nCells, step1, ora, gsea, total }));
}
