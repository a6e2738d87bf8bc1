/**
 * npx tsx scripts/bench/knn-ari.ts [cells < 100000: one sample] — issue 14 check of the neighbours step's exact search
 * against the scran.js Annoy search it replaced: runs the pipeline on synthetic data (10 known
 * clusters, 20,000 genes) up to the clusters, then clusters the Annoy 15-NN lists of the same
 * reduced representation the same way, and prints the ARI between the two clusterings, each one's
 * ARI against the known clusters, the recall of the Annoy lists against the exact ones and the
 * CPU seconds of both searches. Peer-matched parameters (no doublet step, seurat_v3, 10 PCs,
 * resolution 0.5). Asserts nothing.
 */
import { loadavg } from 'node:os';
import { AnalysisRunner } from '@cellcloud/engine/runner';
import { initScran } from '@cellcloud/engine/scran';
import { clusterNeighbors, renumberBySize } from '@cellcloud/engine/steps/clusters';
import { adjustedRandIndex } from '@cellcloud/engine/stats/ari';
import { syntheticDataset } from '@cellcloud/engine/synthetic';
import { knnLists } from '@cellcloud/engine/methods/knn-search';

const nCells = Number(process.argv[2] ?? 20_000);
const syn = syntheticDataset({ nCells, nGenes: 20_000, nClusters: 10, seed: 7, cellSeed: 100 });
const params = {
  doubletDetectionAndRemoval: false,
  hvgMethod: 'seurat_v3',
  pcValue: 10,
  clusterResolution: 0.5,
};
const runner = new AnalysisRunner();
const stop = new Error('stop at markers');
try {
  await runner.run([{ name: 'syn', dataset: syn.dataset }], params as never, (e) => {
    if (e.step === 'markers') throw stop;
  });
} catch (e) {
  if (e !== stop) throw e;
}
const cpu = (c0: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
};
const { embedding, dims } = runner.batch.value;
const n = embedding.length / dims;
let c0 = process.cpuUsage();
const exact = await knnLists(Float32Array.from(embedding), n, dims, 15);
const exactCpu = cpu(c0);
const scran = await initScran();
c0 = process.cpuUsage();
const index = scran.buildNeighborSearchIndex(embedding, {
  numberOfDims: dims,
  numberOfCells: n,
  approximate: true,
});
const annoy = scran.findNearestNeighbors(index, 15);
const annoyCpu = cpu(c0);
const lists = annoy.serialize();
let hit = 0;
for (let i = 0; i < n; i++) {
  const want = new Set(exact.indices.subarray(i * 15, i * 15 + 15));
  for (let t = 0; t < 15; t++) if (want.has(lists.indices[i * 15 + t])) hit++;
}
const before = renumberBySize(await clusterNeighbors(annoy, { resolution: 0.5, algorithm: 'louvain' })).codes;
annoy.free();
index.free();
const now = runner.clusters.value.codes;
const truth = Array.from(runner.doublets.value.cellIndex, (c) => syn.truth[c]);
console.log(
  `${n} cells, ${dims} dims: exact search ${exactCpu.toFixed(2)} CPU s (two threads), Annoy ${annoyCpu.toFixed(2)} CPU s, Annoy recall ${(hit / (n * 15)).toFixed(4)}`,
);
console.log(
  `ARI exact vs Annoy clustering ${adjustedRandIndex(Array.from(before), Array.from(now)).toFixed(4)}; vs known clusters: exact ${adjustedRandIndex(truth, Array.from(now)).toFixed(4)}, Annoy ${adjustedRandIndex(truth, Array.from(before)).toFixed(4)}; load ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
runner.free();
process.exit(0);
