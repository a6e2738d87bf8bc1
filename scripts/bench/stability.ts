/**
 * npm run bench:stability [-- pbmc3k ifnb mouse10k] — issue 32 "clusters that do not hinge on the
 * seed": the standard pipeline with every default (the engine in-process, no server) up to the
 * clusters, once per seed (STABILITY_SEEDS, default 42 and 1–9: ten seeds), and prints per dataset
 *   - the ARI of every seed's clusters against the Seurat tutorial labels (pbmc3k) as
 *     min / median / max (on the labelled cells each run kept),
 *   - the median (and min) pairwise ARI between the seeds' clusterings (on the cells both kept),
 *   - cluster counts, wall / CPU seconds, peak RSS and the load average,
 * and one JSON line per dataset. ifnb (both batches read as one sample, as
 * scripts/compare/seurat-clustering.ts) and mouse10k (1,000 genes: minimum 20 detected genes) have
 * no labels: pairwise agreement only; scripts/compare/seurat-clustering.ts compares them with Seurat.
 *
 * STABILITY_VARY=doublets|pca|all (default all) says which step the seed reaches: `doublets` keeps
 * the PCA's seed at 42 and varies Scrublet's, `pca` the reverse — where the seed changes the
 * clusters (docs/benchmarks/stability.md). STABILITY_PARAMS='{…}' adds analysis parameters.
 * One runner per dataset: the steps before the seed's first use (read, QC, filter) run once; the
 * UMAP / t-SNE embeddings and the markers are not computed (they do not feed the clusters).
 */
import { loadavg } from 'node:os';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { analysisParams } from '@cellcloud/contracts/analysis-params';
import { readDataset } from '@cellcloud/formats';
import { pathBundle } from '@cellcloud/formats/node-sources';
import { AnalysisRunner } from '@cellcloud/engine/runner';
import { adjustedRandIndex } from '@cellcloud/engine/stats/ari';
import { SHARED_DATA_DIR } from '@cellcloud/testkit';

const DATASETS: Record<string, { dir: string; labels?: string; params?: Record<string, unknown> }> = {
  pbmc3k: { dir: 'pbmc3k/10x', labels: 'pbmc3k/pbmc3k_seurat_labels.csv' },
  ifnb: { dir: 'ifnb_kang2018_subset' },
  mouse10k: {
    dir: 'mouse10k_subset_scanpy',
    params: { species: 'Mus musculus', expressedGeneRange: { range: [20, 1000] } },
  },
};
const SEEDS = (process.env.STABILITY_SEEDS ?? '42,1,2,3,4,5,6,7,8,9').split(',').map(Number);
const VARY = process.env.STABILITY_VARY ?? 'all';
if (!['all', 'doublets', 'pca'].includes(VARY))
  throw new Error(`STABILITY_VARY: all, doublets or pca (got ${VARY})`);
const EXTRA = JSON.parse(process.env.STABILITY_PARAMS ?? '{}') as Record<string, unknown>;
const FIXED_SEED = 42;
/** CPU seconds of the clusters step (graph, restarts, medoid) of the current dataset's runs. */
let clusterCpu = 0;

const cpuSeconds = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
};
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const f3 = (x: number) => x.toFixed(3);

/** The steps of AnalysisRunner.run up to the clusters, with Scrublet's and the PCA's seeds apart. */
async function clustersFor(
  runner: AnalysisRunner,
  input: unknown,
  seeds: { doublets: number; pca: number },
): Promise<Map<string, string>> {
  const p = analysisParams.parse(input);
  await runner.inputs.compute({});
  await runner.qc.compute({});
  await runner.filter.compute({
    expressedGeneRange: p.expressedGeneRange,
    expressedUmiRange: p.expressedUmiRange,
    mitochondrialContent: p.mitochondrialContent,
    ribosomalContent: p.ribosomalContent,
  });
  await runner.doublets.compute({
    doubletDetectionAndRemoval: p.doubletDetectionAndRemoval,
    seed: seeds.doublets,
  });
  await runner.ambient.compute({ ambientRnaRemoval: p.ambientRnaRemoval, seed: seeds.doublets });
  await runner.normalize.compute({});
  await runner.hvg.compute({
    numberOfHighlyVariableGenes: p.numberOfHighlyVariableGenes,
    hvgMethod: p.hvgMethod,
  });
  await runner.cellCycle.compute({
    removeCellCycleEffects: p.removeCellCycleEffects,
    species: p.species,
    seed: seeds.pca,
  });
  await runner.pca.compute({ seed: seeds.pca });
  await runner.batch.compute({
    batchEffectRemoval: p.batchEffectRemoval,
    seed: seeds.pca,
    pcValue: p.pcValue,
  });
  await runner.neighbors.compute({});
  const c0 = cpuSeconds();
  await runner.clusters.compute({ clusterResolution: p.clusterResolution, algorithm: p.algorithm });
  clusterCpu += cpuSeconds() - c0;
  const { codes, labels } = runner.clusters.value;
  const barcodes = runner.ambient.value.barcodes;
  return new Map(barcodes.map((b, i) => [b, labels[codes[i]!]!]));
}

/** ARI of two clusterings on the cells both have. */
function ariOnCommon(a: Map<string, string>, b: Map<string, string>): number {
  const x: string[] = [];
  const y: string[] = [];
  for (const [cell, c] of a) {
    const d = b.get(cell);
    if (d !== undefined) {
      x.push(c);
      y.push(d);
    }
  }
  return adjustedRandIndex(x, y);
}

async function bench(name: string): Promise<void> {
  const spec = DATASETS[name];
  if (!spec) throw new Error(`unknown dataset ${name}; one of ${Object.keys(DATASETS).join(', ')}`);
  const t0 = performance.now();
  const c0 = cpuSeconds();
  clusterCpu = 0;
  const dataset = await readDataset(await pathBundle(path.join(SHARED_DATA_DIR, spec.dir)));
  const runner = new AnalysisRunner();
  runner.inputs.setInputs([{ name, dataset }]);
  const truth = spec.labels
    ? new Map(
        readFileSync(path.join(SHARED_DATA_DIR, spec.labels), 'utf8')
          .trim()
          .split('\n')
          .slice(1)
          .map((l) => l.split(',') as [string, string]),
      )
    : undefined;
  const runs: { seed: number; clusters: Map<string, string>; ari?: number; seconds: number }[] = [];
  try {
    for (const seed of SEEDS) {
      const t1 = performance.now();
      const clusters = await clustersFor(
        runner,
        { ...spec.params, ...EXTRA, seed },
        {
          doublets: VARY === 'pca' ? FIXED_SEED : seed,
          pca: VARY === 'doublets' ? FIXED_SEED : seed,
        },
      );
      const run: (typeof runs)[number] = { seed, clusters, seconds: (performance.now() - t1) / 1000 };
      if (truth) run.ari = ariOnCommon(clusters, truth);
      runs.push(run);
      console.log(
        `${name} seed ${seed}: ${clusters.size} cells, ${new Set(clusters.values()).size} clusters` +
          (run.ari === undefined ? '' : `, ARI vs labels ${f3(run.ari)}`) +
          ` (${run.seconds.toFixed(1)} s)`,
      );
    }
  } finally {
    runner.free();
  }
  const pairwise: number[] = [];
  for (let i = 0; i < runs.length; i++)
    for (let j = i + 1; j < runs.length; j++)
      pairwise.push(ariOnCommon(runs[i]!.clusters, runs[j]!.clusters));
  const aris = runs.flatMap((r) => (r.ari === undefined ? [] : [r.ari]));
  const row = {
    dataset: name,
    vary: VARY,
    seeds: SEEDS,
    params: { ...spec.params, ...EXTRA },
    clusters: runs.map((r) => new Set(r.clusters.values()).size),
    ...(aris.length
      ? {
          ariVsLabelsMin: Number(f3(Math.min(...aris))),
          ariVsLabelsMedian: Number(f3(median(aris))),
          ariVsLabelsMax: Number(f3(Math.max(...aris))),
        }
      : {}),
    pairwiseAriMedian: Number(f3(median(pairwise))),
    pairwiseAriMin: Number(f3(Math.min(...pairwise))),
    wallSeconds: Number(((performance.now() - t0) / 1000).toFixed(1)),
    cpuSeconds: Number((cpuSeconds() - c0).toFixed(1)),
    clusterStepCpuSeconds: Number(clusterCpu.toFixed(2)),
    peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    load: loadavg().map((l) => Number(l.toFixed(2))),
  };
  console.log(
    `${name} (${SEEDS.length} seeds, seed varies ${VARY}): ` +
      (aris.length
        ? `ARI vs tutorial labels min ${f3(row.ariVsLabelsMin!)} / median ${f3(row.ariVsLabelsMedian!)} / max ${f3(row.ariVsLabelsMax!)}; `
        : '') +
      `pairwise ARI median ${f3(row.pairwiseAriMedian)} (min ${f3(row.pairwiseAriMin)}); ` +
      `clusters ${row.clusters.join(' ')}; ${row.wallSeconds} s wall, ${row.cpuSeconds} CPU s ` +
      `(clusters step ${row.clusterStepCpuSeconds}), ` +
      `peak RSS ${row.peakRssMB} MB (process so far), load ${row.load.join(' ')}`,
  );
  console.log(JSON.stringify(row));
}

const picked = process.argv.slice(2);
for (const name of picked.length ? picked : Object.keys(DATASETS)) await bench(name);
