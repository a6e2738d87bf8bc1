import type { CountMatrix } from '@cellcloud/formats/matrix';
import type { ClusterResults, NeighborIndex, NeighborResults, RunPcaResults, ScranMatrix, SnnGraph } from 'scran.js';
import { freeAll, initScran } from './scran';
import { subsetGenes } from './sparse';
import { dispersionHvg } from './stats/dispersion-hvg';
import { logNormalize } from './steps/normalize';

/**
 * A self-contained clustering of one count matrix (normalize → 2,000 HVGs → 20 PCs → SNN over 15
 * neighbours → Louvain at 0.8), the per-sample clustering DecontX needs (METHODS §1.5 uses a
 * Seurat run with 20 PCs and resolution 0.8 for the same purpose).
 */
export async function quickClusters(counts: CountMatrix, opts: { nPcs?: number; resolution?: number } = {}): Promise<Int32Array> {
  const scran = await initScran();
  const norm = logNormalize(counts);
  const sub = subsetGenes(norm, dispersionHvg(norm, Math.min(2000, norm.nGenes)).selected);
  let mat: ScranMatrix | undefined;
  let pca: RunPcaResults | undefined;
  let index: NeighborIndex | undefined;
  let nn: NeighborResults | undefined;
  let graph: SnnGraph | undefined;
  let clusters: ClusterResults | undefined;
  try {
    mat = scran.initializeSparseMatrixFromSparseArrays(sub.nGenes, sub.nCells, sub.data, sub.indices, sub.indptr, {
      byRow: false,
      forceInteger: false,
      layered: false,
    });
    pca = scran.runPca(mat, { numberOfPCs: opts.nPcs ?? 20, scale: true });
    const dims = pca.numberOfPCs();
    index = scran.buildNeighborSearchIndex(pca.principalComponents(), {
      numberOfDims: dims,
      numberOfCells: counts.nCells,
      approximate: counts.nCells > 10_000,
    });
    nn = scran.findNearestNeighbors(index, Math.min(15, counts.nCells - 1));
    graph = scran.buildSnnGraph(nn, { scheme: 'rank', neighbors: Math.min(15, counts.nCells - 1) });
    clusters = scran.clusterGraph(graph, { method: 'multilevel', multiLevelResolution: opts.resolution ?? 0.8 });
    return clusters.membership();
  } finally {
    freeAll(clusters, graph, nn, index, pca, mat);
  }
}
