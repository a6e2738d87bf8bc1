/**
 * npm run bench:subcluster [-- --parent 100000 --cells 20000] — sub-clustering at scale (issue 14:
 * a 20k-cell subset of a 100k result → child result with markers in ≤ 15 s). The parent is
 * synthetic negative-binomial data with 10 known clusters (20,000 genes; packages/engine/src/
 * synthetic.ts); the subset is whole known clusters, in order, until `--cells` cells are reached
 * (cut there), as a user selects clusters of a parent result. runSubcluster (packages/engine/src/
 * subcluster.ts, the child job's engine call) runs with the default child parameters: subset of
 * the parent counts, re-normalisation, new HVGs + PCA, graph, Louvain, Wilcoxon markers, then the
 * embeddings (the child's UMAP layouts start after its markers). Prints wall and CPU seconds per
 * step, the PCA's Krylov blocks, the "→ markers" milestone (subset included), the whole child, peak
 * RSS and ARI against the known clusters, and one JSON line. Asserts nothing.
 */
import { loadavg } from 'node:os';
import { runSubcluster } from '@cellcloud/engine/subcluster';
import { syntheticDataset } from '@cellcloud/engine/synthetic';
import { adjustedRandIndex } from '@cellcloud/engine/stats/ari';
import { lastPowerIterations, lastProducts } from '@cellcloud/engine/methods/sparse-pca';
import { printStepTable, StepTimer } from './step-timer';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const nParent = arg('parent', 100_000);
const nSubset = arg('cells', 20_000);

const g0 = performance.now();
const parent = syntheticDataset({ nCells: nParent, nGenes: 20_000, nClusters: 10, seed: 7, cellSeed: 100 });
console.log(
  `parent: ${nParent} cells × 20000 genes, ${parent.dataset.counts.indices.length} non-zeros (generated in ${((performance.now() - g0) / 1000).toFixed(1)} s, not counted)`,
);
const byCluster = Array.from({ length: 10 }, () => [] as number[]);
parent.truth.forEach((k, c) => byCluster[k].push(c));
const chosen: number[] = [];
const clusters: number[] = [];
for (let k = 0; k < 10 && chosen.length < nSubset; k++) {
  chosen.push(...byCluster[k]);
  clusters.push(k);
}
const cells = Int32Array.from(chosen.slice(0, nSubset)).sort();
console.log(`subset: ${cells.length} cells of known clusters ${clusters.join(', ')}`);

const timer = new StepTimer(performance.now(), Boolean(process.env.BENCH_VERBOSE));
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const result = await runSubcluster(
  {
    name: 'subset',
    counts: parent.dataset.counts,
    genes: parent.dataset.genes,
    barcodes: parent.dataset.cells.barcodes,
    cells,
    parentParams: {},
    child: {},
  },
  timer.onProgress,
);
timer.close();
const seconds = (performance.now() - t0) / 1000;
const cpuAll = process.cpuUsage(cpu0);
const cpuSeconds = (cpuAll.user + cpuAll.system) / 1e6;
const toMarkers = ((timer.markersDone ?? performance.now()) - t0) / 1000;
printStepTable(timer.steps);
// the child's PCA is the last sparsePca call of the run (no doublet step in a child)
const pca = { blocks: lastPowerIterations, passes: lastProducts.total, inWorker: lastProducts.inWorker };
console.log(
  `  pca: ${pca.blocks} Krylov blocks, ${pca.passes} passes over the matrix (${pca.inWorker} split with the worker thread)`,
);
const found = result.obs.cluster.kind === 'categorical' ? result.obs.cluster.values : [];
const known = Array.from(cells, (c) => String(parent.truth[c]));
const ari = adjustedRandIndex(known, found);
const peakRssMB = Math.round(process.resourceUsage().maxRSS / 1024);
const load = loadavg().map((x) => Number(x.toFixed(2)));
console.log(
  `  subset → markers ${toMarkers.toFixed(1)} s (the subset copy included), whole child ${seconds.toFixed(1)} s (CPU ${cpuSeconds.toFixed(1)} s), ${result.clusterLabels.length} clusters, ${result.markers.length} marker rows, peak RSS ${peakRssMB} MB (parent counts included), ARI ${ari.toFixed(3)}, load ${load.join(' ')}`,
);
console.log(
  JSON.stringify({
    parentCells: nParent,
    cells: cells.length,
    toMarkersSeconds: Number(toMarkers.toFixed(2)),
    seconds: Number(seconds.toFixed(2)),
    cpuSeconds: Number(cpuSeconds.toFixed(2)),
    peakRssMB,
    ari: Number(ari.toFixed(4)),
    clusters: result.clusterLabels.length,
    pca,
    steps: timer.steps.map((s) => ({ ...s, wall: Number(s.wall.toFixed(2)), cpu: Number(s.cpu.toFixed(2)) })),
    loadavg: load,
  }),
);
process.exit(0);
