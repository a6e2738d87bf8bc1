import type { CountMatrix } from '@cellcloud/formats/matrix';
import { fuzzyConnectivities } from '@cellcloud/engine/methods/fuzzy-graph';
import { knnExact } from '@cellcloud/engine/methods/knn';
import { louvain } from '@cellcloud/engine/methods/louvain';
import { sparsePca } from '@cellcloud/engine/methods/sparse-pca';
import { toGeneMajor } from '@cellcloud/engine/sparse';
import { umapLayout } from '@cellcloud/engine/stats/umap-layout';
import { bhAdjust, pnormUpper } from '../../_shared/engine/trajectory/stats';
import { computePartitions, cpmToRb, knnMultigraph, type Knn } from './partitions';
import type { PrincipalGraph } from './principal-graph';

/**
 * graph_test (Moran's I) and find_gene_modules of monocle3 (graph_test.R, cluster_genes.R).
 *
 * Spatial weights (calculateLW, neighbor_graph = "principal_graph"): each cell's k = 25 nearest
 * neighbours on the embedding, kept when the two cells' closest principal nodes are the same or
 * adjacent; row-standardised (spdep nb2listw style "W"), cells without neighbours weigh nothing
 * (zero.policy, adjust.n). Per gene x = log10(count / size factor + 0.1) and spdep's Moran test
 * under randomisation, alternative "greater" (monocle's my.moran.test); q = BH over tested genes.
 */

export interface MoranWeights {
  n: number;
  /** CSR rows: neighbours of each cell with weight 1/|nb| */
  indptr: Int32Array;
  indices: Int32Array;
  weights: Float64Array;
  /** spdep spweights.constants (adjust.n = TRUE) */
  nAdj: number;
  S0: number;
  S1: number;
  S2: number;
}

export function principalGraphWeights(knn: Knn, n: number, pg: PrincipalGraph): MoranWeights {
  const adjNode = new Set<string>();
  for (const [a, b] of pg.edges) {
    adjNode.add(`${a},${b}`);
    adjNode.add(`${b},${a}`);
  }
  const lists: number[][] = [];
  for (let i = 0; i < n; i++) {
    const out: number[] = [];
    for (let a = 0; a < knn.k; a++) {
      const j = knn.indices[i * knn.k + a]!;
      const vi = pg.closest[i]!;
      const vj = pg.closest[j]!;
      if (vi === vj || adjNode.has(`${vi},${vj}`)) out.push(j);
    }
    lists.push(out.sort((x, y) => x - y));
  }
  return weightsFromLists(lists);
}

/** Row-standardised weights and spdep's constants from neighbour lists. */
export function weightsFromLists(lists: number[][]): MoranWeights {
  const n = lists.length;
  const indptr = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) indptr[i + 1] = indptr[i]! + lists[i]!.length;
  const indices = new Int32Array(indptr[n]!);
  const weights = new Float64Array(indptr[n]!);
  const rowSum = new Float64Array(n);
  const colSum = new Float64Array(n);
  const pair = new Map<string, number>();
  let S0 = 0;
  let zeroCards = 0;
  for (let i = 0; i < n; i++) {
    const l = lists[i]!;
    if (!l.length) zeroCards++;
    l.forEach((j, a) => {
      const w = 1 / l.length;
      indices[indptr[i]! + a] = j;
      weights[indptr[i]! + a] = w;
      rowSum[i] += w;
      colSum[j] += w;
      S0 += w;
      pair.set(`${i},${j}`, w);
    });
  }
  let S1 = 0;
  for (const [key, w] of pair) {
    const [i, j] = key.split(',');
    const back = pair.get(`${j},${i}`) ?? 0;
    S1 += (w + back) ** 2; // each ordered pair once: Σ_ij (w_ij + w_ji)² counts both orders → halve below
    if (!pair.has(`${j},${i}`)) S1 += (w + back) ** 2;
  }
  S1 *= 0.5;
  let S2 = 0;
  for (let i = 0; i < n; i++) S2 += (rowSum[i]! + colSum[i]!) ** 2;
  return { n, indptr, indices, weights, nAdj: n - zeroCards, S0, S1, S2 };
}

export interface MoranResult {
  I: number;
  statistic: number;
  p: number;
}

/** Moran's I test under randomisation (spdep moran.test, as monocle's my.moran.test) of a dense vector. */
export function moranTest(x: ArrayLike<number>, w: MoranWeights): MoranResult {
  const n1 = x.length;
  let mean = 0;
  for (let i = 0; i < n1; i++) mean += x[i]!;
  mean /= n1;
  let zz = 0;
  let z4 = 0;
  let cross = 0;
  for (let i = 0; i < n1; i++) {
    const zi = x[i]! - mean;
    zz += zi * zi;
    z4 += zi ** 4;
    let lz = 0;
    for (let p = w.indptr[i]!; p < w.indptr[i + 1]!; p++) lz += w.weights[p]! * (x[w.indices[p]!]! - mean);
    cross += zi * lz;
  }
  return moranFromSums(cross, zz, z4, n1, w);
}

function moranFromSums(cross: number, zz: number, z4: number, n1: number, w: MoranWeights): MoranResult {
  const n = w.nAdj;
  const I = (n / w.S0) * (cross / zz);
  const K = (n1 * z4) / (zz * zz);
  const EI = -1 / (n - 1);
  const S02 = w.S0 * w.S0;
  const nn = n * n;
  let VI = n * (w.S1 * (nn - 3 * n + 3) - n * w.S2 + 3 * S02);
  const tmp = K * (w.S1 * (nn - n) - 2 * n * w.S2 + 6 * S02);
  VI = (VI - tmp) / ((n - 1) * (n - 2) * (n - 3) * S02) - EI * EI;
  const Z = (I - EI) / Math.sqrt(VI);
  return { I, statistic: Z, p: pnormUpper(Z) };
}

export interface GraphTestRow {
  gene: number;
  status: 'OK' | 'FAIL';
  p: number;
  statistic: number;
  I: number;
  q: number;
}

/**
 * graph_test on every gene of `counts` (cells = the weights' cells). Genes without any count are
 * FAIL (constant: Moran's I undefined). Uses the sparsity of log10(c/sz + 0.1) around log10(0.1).
 */
export function graphTest(
  counts: CountMatrix,
  sz: Float64Array,
  w: MoranWeights,
  onProgress?: (f: number) => void,
): GraphTestRow[] {
  const gm = toGeneMajor(counts);
  const n = counts.nCells;
  const rowSum = new Float64Array(n);
  const colSum = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (let p = w.indptr[i]!; p < w.indptr[i + 1]!; p++) {
      rowSum[i] += w.weights[p]!;
      colSum[w.indices[p]!] += w.weights[p]!;
    }
  }
  const y = new Float64Array(n);
  const rows: GraphTestRow[] = [];
  const base = Math.log10(0.1);
  for (let g = 0; g < gm.nGenes; g++) {
    const s = gm.indptr[g]!;
    const e = gm.indptr[g + 1]!;
    if (onProgress && g % 2000 === 0) onProgress(g / gm.nGenes);
    if (e === s) {
      rows.push({ gene: g, status: 'FAIL', p: NaN, statistic: NaN, I: NaN, q: NaN });
      continue;
    }
    let sumY = 0;
    for (let k = s; k < e; k++) {
      const c = gm.indices[k]!;
      y[c] = Math.log10(gm.data[k]! / sz[c]! + 0.1) - base;
      sumY += y[c]!;
    }
    const ybar = sumY / n;
    let zz = 0;
    let z4 = 0;
    let yy = 0;
    let yRow = 0;
    let yCol = 0;
    for (let k = s; k < e; k++) {
      const c = gm.indices[k]!;
      const yc = y[c]!;
      zz += (yc - ybar) ** 2;
      z4 += (yc - ybar) ** 4;
      yRow += yc * rowSum[c]!;
      yCol += yc * colSum[c]!;
      let acc = 0;
      for (let p = w.indptr[c]!; p < w.indptr[c + 1]!; p++) acc += w.weights[p]! * y[w.indices[p]!]!;
      yy += yc * acc;
    }
    const zeros = n - (e - s);
    zz += zeros * ybar * ybar;
    z4 += zeros * ybar ** 4;
    const cross = yy - ybar * yRow - ybar * yCol + ybar * ybar * w.S0;
    for (let k = s; k < e; k++) y[gm.indices[k]!] = 0;
    if (!(zz > 0)) {
      rows.push({ gene: g, status: 'FAIL', p: NaN, statistic: NaN, I: NaN, q: NaN });
      continue;
    }
    const r = moranFromSums(cross, zz, z4, n, w);
    rows.push({ gene: g, status: 'OK', p: r.p, statistic: r.statistic, I: r.I, q: NaN });
  }
  const q = bhAdjust(rows.map((r) => (r.status === 'OK' ? r.p : NaN)));
  rows.forEach((r, i) => (r.q = q[i]!));
  return rows;
}

export interface GeneModules {
  /** per selected gene: module (1-based) and supermodule (1-based), UMAP coordinates */
  module: Int32Array;
  supermodule: Int32Array;
  umap: Float32Array;
  nModules: number;
}

/**
 * find_gene_modules: gene loadings of preprocess_cds' PCA (log2(count/sf + 1), genes centred and
 * scaled, 50 components; loadings × component sd), cosine UMAP of the chosen genes (15 neighbours,
 * min_dist 0.1), k = 20 nearest-neighbour graph, Louvain (CPM resolution mapped as for cells),
 * supermodules by compute_partitions.
 */
export function findGeneModules(
  counts: CountMatrix,
  sz: Float64Array,
  chosen: number[],
  opts: { resolution: number; seed: number; k?: number },
): GeneModules {
  const nSel = chosen.length;
  if (nSel < 4) {
    return {
      module: new Int32Array(nSel).fill(1),
      supermodule: new Int32Array(nSel).fill(1),
      umap: new Float32Array(nSel * 2),
      nModules: nSel ? 1 : 0,
    };
  }
  const logm: CountMatrix = { ...counts, data: new Float32Array(counts.data.length) };
  for (let c = 0; c < counts.nCells; c++) {
    for (let p = counts.indptr[c]!; p < counts.indptr[c + 1]!; p++)
      logm.data[p] = Math.log2(counts.data[p]! / sz[c]! + 1);
  }
  // every gene with a non-zero row enters the PCA, as preprocess_cds
  const n = counts.nCells;
  const sum = new Float64Array(counts.nGenes);
  const sum2 = new Float64Array(counts.nGenes);
  for (let p = 0; p < logm.data.length; p++) {
    sum[counts.indices[p]!] += logm.data[p]!;
    sum2[counts.indices[p]!] += logm.data[p]! ** 2;
  }
  const genes: number[] = [];
  for (let g = 0; g < counts.nGenes; g++)
    if (sum[g]! > 0 && sum2[g]! - (sum[g]! * sum[g]!) / n > 0) genes.push(g);
  const center = new Float64Array(genes.length);
  const scale = new Float64Array(genes.length);
  genes.forEach((g, i) => {
    center[i] = sum[g]! / n;
    scale[i] = 1 / Math.sqrt((sum2[g]! - (sum[g]! * sum[g]!) / n) / (n - 1));
  });
  const nPcs = Math.min(50, genes.length - 1, n - 1);
  // two power iterations: the loadings only place genes for the module UMAP (the PCA over every
  // expressed gene was the slowest step with the default four)
  const fit = sparsePca(logm, Int32Array.from(genes), nPcs, {
    center,
    scale,
    seed: opts.seed,
    powerIterations: 2,
  });
  const pos = new Map(genes.map((g, i) => [g, i]));
  const load = new Float64Array(nSel * nPcs);
  chosen.forEach((g, r) => {
    const i = pos.get(g);
    if (i === undefined) return;
    let norm = 0;
    for (let c = 0; c < nPcs; c++) {
      const v = fit.rotation[i * nPcs + c]! * Math.sqrt(fit.variance[c]!);
      load[r * nPcs + c] = v;
      norm += v * v;
    }
    norm = Math.sqrt(norm) || 1;
    for (let c = 0; c < nPcs; c++) load[r * nPcs + c] /= norm; // cosine metric
  });
  const kU = Math.min(15, nSel - 1);
  const nnU = knnExact(load, nSel, nPcs, kU - 1);
  const fg = fuzzyConnectivities(
    { runs: new Int32Array(nSel).fill(kU - 1), indices: nnU.indices, distances: nnU.distances },
    { nNeighbors: kU },
  );
  const umap = umapLayout(fg, { dims: 2, minDist: 0.1, epochs: nSel > 10_000 ? 200 : 500, seed: opts.seed });
  const k = Math.min(opts.k ?? 20, nSel - 1);
  const nn = knnExact(umap, nSel, 2, k);
  const g = knnMultigraph({ k, indices: nn.indices, distances: nn.distances }, nSel, k);
  const membership = louvain(g, { resolution: cpmToRb(g, opts.resolution), seed: opts.seed });
  let nModules = 0;
  for (const m of membership) nModules = Math.max(nModules, m + 1);
  const comp = computePartitions(g, membership, nModules);
  return {
    module: Int32Array.from(membership, (m) => m + 1),
    supermodule: Int32Array.from(membership, (m) => comp[m]! + 1),
    umap,
    nModules,
  };
}
