/**
 * `npm run bench:engine -- umap-parallel [200000 300000 …]` (issue 33): the 2-D UMAP layout on
 * the synthetic PCs of layouts-memory (ten Gaussian clusters), sequential SGD (one thread, the
 * layout up to UMAP_SEQUENTIAL_MAX_NODES) vs the partitioned SGD used above it, on 1 and 2 threads.
 * Per layout: wall and CPU seconds (process-wide, workers included) with the load average, the
 * trustworthiness (k = 15) on a 2,000-cell sample (PCs vs layout, as the UMAP benchmarks measure
 * it) and the separation of the clusters on that sample: the share of the 15 nearest sampled cells
 * in the layout that are in the same cluster, and the mean silhouette by cluster. The neighbour
 * graph is built once per size (NeighborsStep, as the streamed run does). BENCH_UMAP=seq,p1,p2
 * picks the layouts. Asserts nothing.
 */
import { loadavg } from 'node:os';
import { fuzzyConnectivities } from '@cellcloud/engine/methods/fuzzy-graph';
import { BatchStep } from '@cellcloud/engine/steps/batch';
import { umapEpochs, umapMinDist } from '@cellcloud/engine/steps/embeddings';
import { N_NEIGHBORS, NeighborsStep } from '@cellcloud/engine/steps/neighbors';
import { trustworthiness } from '@cellcloud/engine/stats/trustworthiness';
import { UmapLayoutJob, type UmapLayoutOptions } from '@cellcloud/engine/stats/umap-layout';
import { batchOnPcs } from '@cellcloud/engine/stream/run-streamed';
import { syntheticPcs } from './layouts-memory';

const SAMPLE = 2000;
const K = 15;

/** Same-cluster share of the K nearest sampled cells, and mean silhouette, of sampled points y (m × 2). */
function separation(y: Float64Array, labels: Int32Array): { sameNeighbours: number; silhouette: number } {
  const m = labels.length;
  const dist = new Float64Array(m);
  let same = 0;
  let sil = 0;
  for (let i = 0; i < m; i++) {
    const sum = new Float64Array(10);
    const count = new Float64Array(10);
    for (let j = 0; j < m; j++) {
      dist[j] = j === i ? Infinity : Math.hypot(y[2 * i] - y[2 * j], y[2 * i + 1] - y[2 * j + 1]);
      if (j !== i) {
        sum[labels[j]] += dist[j];
        count[labels[j]]++;
      }
    }
    const order = Array.from({ length: m }, (_, j) => j).sort((p, q) => dist[p] - dist[q]);
    for (let r = 0; r < K; r++) if (labels[order[r]] === labels[i]) same++;
    const own = sum[labels[i]] / count[labels[i]];
    let other = Infinity;
    for (let c = 0; c < 10; c++)
      if (c !== labels[i] && count[c] > 0) other = Math.min(other, sum[c] / count[c]);
    sil += (other - own) / Math.max(own, other);
  }
  return { sameNeighbours: same / (m * K), silhouette: sil / m };
}

export async function benchUmapParallel(sizes: number[]): Promise<void> {
  const picked = (process.env.BENCH_UMAP ?? 'seq,p1,p2').split(',');
  for (const n of sizes) {
    const pca = syntheticPcs(n);
    const batch = await batchOnPcs(
      pca,
      new Int32Array(n),
      Int32Array.from({ length: n }, (_, c) => c),
    );
    await batch.compute(BatchStep.defaults());
    const neighbors = new NeighborsStep(batch);
    await neighbors.compute({});
    const nn = neighbors.value.nn;
    const graph = fuzzyConnectivities(nn.serialize(), {
      nNeighbors: Math.min(N_NEIGHBORS, nn.numberOfCells()),
    });
    const dPc = batch.value.dims;
    // evenly spread, every cluster (cell i is in cluster i % 10) in it: n ≥ 10 · SAMPLE
    const sample = Array.from({ length: SAMPLE }, (_, i) => Math.floor((i * n) / SAMPLE) + (i % 10));
    const pick = (v: ArrayLike<number>, d: number, stride = d) =>
      Float64Array.from({ length: SAMPLE * d }, (_, t) => v[sample[Math.floor(t / d)] * stride + (t % d)]);
    // the PCs the graph was built on
    const xs = pick(pca.pcs, dPc, pca.nComputed);
    const labels = Int32Array.from(sample, (i) => i % 10);
    console.log(
      `${n.toLocaleString('en')} cells, ${dPc} PCs, ${graph.indices.length.toLocaleString('en')} graph entries`,
    );
    const base: UmapLayoutOptions = { dims: 2, minDist: umapMinDist(n), epochs: umapEpochs(n), seed: 42 };
    const variants: Record<string, UmapLayoutOptions> = {
      seq: { ...base, sequentialMaxNodes: n, threads: 1 },
      p1: { ...base, sequentialMaxNodes: 0, threads: 1 },
      p2: { ...base, sequentialMaxNodes: 0, threads: 2 },
    };
    const label: Record<string, string> = {
      seq: 'sequential SGD, 1 thread ',
      p1: 'partitioned SGD, 1 thread',
      p2: 'partitioned SGD, 2 threads',
    };
    const results: Record<string, Float32Array> = {};
    for (const v of picked) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const job = new UmapLayoutJob(graph, variants[v]);
      const y = (results[v] = await job.result());
      const wall = (performance.now() - t0) / 1000;
      const c = process.cpuUsage(c0);
      const load = loadavg().map((x) => x.toFixed(1));
      const ys = pick(y, 2);
      const trust = trustworthiness(xs, dPc, ys, 2, K);
      const sep = separation(ys, labels);
      console.log(
        `  ${label[v]}: ${wall.toFixed(1)} s wall, ${((c.user + c.system) / 1e6).toFixed(1)} s CPU (load ${load.join(' ')}); ` +
          `trustworthiness ${trust.toFixed(4)}, same-cluster neighbours ${sep.sameNeighbours.toFixed(4)}, silhouette ${sep.silhouette.toFixed(3)}`,
      );
    }
    if (results.p1 && results.p2) {
      const same = results.p1.every((v, i) => Object.is(v, results.p2[i]));
      console.log(`  partitioned 1 thread = 2 threads, bit for bit: ${same}`);
    }
  }
}
