import type { Monocle3Graph, Monocle3Params, Monocle3Summary, GenesInPseudotime } from '../contract';
import { estimateMemoryBytes } from '../memory';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { fuzzyConnectivities } from '@cellcloud/engine/methods/fuzzy-graph';
import { harmony } from '@cellcloud/engine/methods/harmony';
import { knnSearch } from '@cellcloud/engine/methods/knn-search';
import { subsetCells, subsetGenes } from '@cellcloud/engine/sparse';
import { seuratV3Hvg } from '@cellcloud/engine/stats/seurat-v3-hvg';
import { umapLayout } from '@cellcloud/engine/stats/umap-layout';
import { logNormalize } from '@cellcloud/engine/steps/normalize';
import { scaledSparsePca } from '@cellcloud/engine/steps/pca';
import { TaskError } from '@cellcloud/engine/tasks/kit';
import { categoricalLevel } from '@cellcloud/engine/tasks/kit';
import type { EngineTask, TableValue } from '@cellcloud/engine/tasks/kit';
import {
  binnedMeans,
  downsamplePerGroup,
  round,
  selectTrajectoryCells,
  sizeFactors,
} from '../../_shared/engine/trajectory/common';
import { findGeneModules, graphTest, principalGraphWeights } from './genes';
import { autoRoot, orderCells } from './order-cells';
import { clusterCells } from './partitions';
import { learnGraph, nodeName } from './principal-graph';

const MIN_CELLS = 30;
const GRAPH_TEST_K = 25;

/** Re-reduction of docs/methods/monocle3.md: vst 2000 → log-normalise, scale (clip 10) → PCA 20 → Harmony → UMAP. */
async function reReduce(
  counts: CountMatrix,
  batch: string[] | undefined,
  seed: number,
): Promise<Float64Array> {
  const hvg = seuratV3Hvg(counts, Math.min(2000, counts.nGenes));
  const sub = subsetGenes(logNormalize(counts), hvg.selected);
  const pca = scaledSparsePca(sub, seed, 10);
  const d = Math.min(20, pca.nComputed);
  const n = counts.nCells;
  let pcs: Float32Array | Float64Array = new Float64Array(n * d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) pcs[i * d + j] = pca.pcs[i * pca.nComputed + j]!;
  if (batch) {
    const ids = new Map<string, number>();
    const b = Int32Array.from(batch, (v) =>
      ids.has(v) ? ids.get(v)! : (ids.set(v, ids.size), ids.size - 1),
    );
    if (ids.size > 1) pcs = harmony(pcs, n, d, b, { seed });
  }
  // Seurat RunUMAP: cosine metric, 30 neighbours, min_dist 0.3
  const unit = new Float64Array(n * d);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < d; j++) s += pcs[i * d + j]! ** 2;
    s = Math.sqrt(s) || 1;
    for (let j = 0; j < d; j++) unit[i * d + j] = pcs[i * d + j]! / s;
  }
  const k = Math.min(30, n - 1);
  const nn = await knnSearch(unit, n, d, k - 1);
  const g = fuzzyConnectivities(
    { runs: new Int32Array(n).fill(k - 1), indices: nn.indices, distances: nn.distances },
    { nNeighbors: k },
  );
  const u = umapLayout(g, { dims: 2, minDist: 0.3, epochs: n > 10_000 ? 200 : 500, seed });
  return Float64Array.from(u);
}

export const engine: EngineTask<Monocle3Params, Monocle3Summary> = {
  name: 'monocle3',
  estimateMemoryBytes,
  async run({ result, params, onProgress, sink, signal }) {
    const progress = (fraction: number, step: string) => {
      if (signal?.aborted) throw new TaskError('common.cancelled', 'The analysis was cancelled.');
      onProgress({ fraction, step });
    };
    progress(0.01, 'select');
    const sel = selectTrajectoryCells(result, params, 'monocle3');
    if (sel.cells.length < MIN_CELLS) {
      throw new TaskError('monocle3.tooFewCells', `Only ${sel.cells.length} cells are selected.`, {
        cells: sel.cells.length,
        min: MIN_CELLS,
      });
    }
    const rootTypes =
      params.root === undefined ? undefined : Array.isArray(params.root) ? params.root : [params.root];
    const keptTypes = new Set(sel.cells.map((c) => sel.labels[c]!));
    for (const r of rootTypes ?? []) {
      if (!keptTypes.has(r))
        throw new TaskError('monocle3.rootNotKept', `The root cell type "${r}" is not selected.`, {
          value: r,
        });
    }

    // 1. embedding: re-reduced on all selected cells, else the stored UMAP
    let coordsAll: Float64Array; // per selected cell
    if (params.reReduce) {
      progress(0.05, 'reReduce');
      const batch = params.batchKey ? categoricalLevel(result, params.batchKey) : undefined;
      coordsAll = await reReduce(
        subsetCells(result.counts(), sel.cells),
        batch && sel.cells.map((c) => batch[c]!),
        params.seed,
      );
    } else {
      const umap = result.embedding('umap');
      if (!umap || umap.dims < 2)
        throw new TaskError('monocle3.noUmap', 'This analysis has no UMAP embedding.');
      coordsAll = new Float64Array(sel.cells.length * 2);
      sel.cells.forEach((c, i) => {
        coordsAll[2 * i] = umap.values[c * umap.dims]!;
        coordsAll[2 * i + 1] = umap.values[c * umap.dims + 1]!;
      });
    }
    // 2. downsample per cell type (seeded)
    const posOf = new Map(sel.cells.map((c, i) => [c, i]));
    const cells = downsamplePerGroup(sel.cells, sel.labels, params.cellsPerGroup, params.seed);
    const n = cells.length;
    const X = new Float64Array(n * 2);
    cells.forEach((c, i) => {
      const j = posOf.get(c)!;
      X[2 * i] = coordsAll[2 * j]!;
      X[2 * i + 1] = coordsAll[2 * j + 1]!;
    });
    const celltype = cells.map((c) => sel.labels[c]!);

    // 3. cluster_cells → partitions; learn_graph
    progress(0.3, 'clusterCells');
    const kNn = Math.min(Math.max(params.k, GRAPH_TEST_K), n - 1);
    const nnRaw = await knnSearch(X, n, 2, kNn);
    const knn = { k: kNn, indices: nnRaw.indices, distances: nnRaw.distances };
    const cl = clusterCells(knn, n, Math.min(params.k, kNn), params.seed);
    progress(0.4, 'learnGraph');
    const pg = learnGraph(X, n, cl, {
      k: Math.min(GRAPH_TEST_K, kNn),
      indices: sliceKnn(knn.indices, kNn, Math.min(GRAPH_TEST_K, kNn), n),
      distances: sliceKnnF(knn.distances, kNn, Math.min(GRAPH_TEST_K, kNn), n),
    });

    // 4. roots and order_cells
    let roots: number[];
    let rootSource: 'celltype' | 'nodes';
    if (params.rootNodes) {
      rootSource = 'nodes';
      roots = params.rootNodes.map((name) => {
        const i = Number(name.slice(2)) - 1;
        if (!(i >= 0 && i < pg.nNodes))
          throw new TaskError('monocle3.unknownNode', `No node ${name}.`, { node: name });
        return i;
      });
    } else {
      rootSource = 'celltype';
      const types = rootTypes ?? [...new Set(celltype)];
      roots = [
        ...new Set(
          types.map((t) =>
            autoRoot(
              pg,
              celltype.flatMap((ct, i) => (ct === t ? [i] : [])),
            ),
          ),
        ),
      ].filter((r) => r >= 0);
    }
    progress(0.5, 'orderCells');
    const pseudotime = orderCells(X, n, pg, roots);

    // 5. graph_test on the principal-graph kNN, then gene modules
    progress(0.55, 'graphTest');
    const counts = subsetCells(result.counts(), cells);
    const sz = sizeFactors(counts);
    const gk = Math.min(GRAPH_TEST_K, kNn);
    const w = principalGraphWeights(
      { k: gk, indices: sliceKnn(knn.indices, kNn, gk, n), distances: sliceKnnF(knn.distances, kNn, gk, n) },
      n,
      pg,
    );
    const tested = graphTest(counts, sz, w, (f) => progress(0.55 + 0.2 * f, 'graphTest'));
    const sig = tested.filter((r) => r.status === 'OK' && r.q <= params.qValue).map((r) => r.gene);
    progress(0.75, 'geneModules');
    const mods = findGeneModules(counts, sz, sig, { resolution: params.resolution, seed: params.seed });

    // outputs
    progress(0.9, 'write');
    const { ids, symbols } = result.genes;
    const fmt = (x: number): TableValue => (Number.isFinite(x) ? x : null);
    await sink.table('graph_test', {
      columns: ['Id', 'Gene_short_name', 'P_value', 'Morans_test_statistic', 'Morans_I', 'Q_value', 'Status'],
      rows: tested.map((r) => [
        ids[r.gene]!,
        symbols[r.gene]!,
        fmt(r.p),
        fmt(r.statistic),
        fmt(r.I),
        fmt(r.q),
        r.status,
      ]),
    });
    const byGene = new Map(tested.map((r) => [r.gene, r]));
    const sigOrder = sig.map((g, i) => ({ g, i })).sort((a, b) => byGene.get(b.g)!.I - byGene.get(a.g)!.I);
    await sink.table('gene_modules', {
      columns: [
        'Id',
        'Gene_short_name',
        'P_value',
        'Morans_test_statistic',
        'Morans_I',
        'Status',
        'Module',
        'Supermodule',
        'dim_1',
        'dim_2',
      ],
      rows: sigOrder.map(({ g, i }) => {
        const r = byGene.get(g)!;
        return [
          ids[g]!,
          symbols[g]!,
          fmt(r.p),
          fmt(r.statistic),
          fmt(r.I),
          r.status,
          mods.module[i]!,
          mods.supermodule[i]!,
          mods.umap[2 * i]!,
          mods.umap[2 * i + 1]!,
        ];
      }),
    });
    // module × cell type: Σ genes log10(count/sf + 1), mean per type, scaled per module, clipped ±3
    const types = [...new Set(celltype)].sort();
    const typeIdx = new Map(types.map((t, i) => [t, i]));
    const typeN = new Float64Array(types.length);
    celltype.forEach((t) => typeN[typeIdx.get(t)!]++);
    const moduleOfGene = new Map(sig.map((g, i) => [g, mods.module[i]!]));
    const agg = Array.from({ length: mods.nModules }, () => new Float64Array(types.length));
    for (let c = 0; c < n; c++) {
      const t = typeIdx.get(celltype[c]!)!;
      for (let p = counts.indptr[c]!; p < counts.indptr[c + 1]!; p++) {
        const m = moduleOfGene.get(counts.indices[p]!);
        if (m !== undefined) agg[m - 1]![t] += Math.log10(counts.data[p]! / sz[c]! + 1);
      }
    }
    const aggRows: TableValue[][] = agg.map((row, m) => {
      const means = Array.from(row, (v, t) => v / typeN[t]!);
      const mu = means.reduce((a, b) => a + b, 0) / means.length;
      const sd = Math.sqrt(means.reduce((a, b) => a + (b - mu) ** 2, 0) / Math.max(1, means.length - 1));
      return [
        `Module ${m + 1}`,
        ...means.map((v) => (sd > 0 ? round(Math.max(-3, Math.min(3, (v - mu) / sd)), 4) : 0)),
      ];
    });
    await sink.table('module_celltype', { columns: ['module', ...types], rows: aggRows });
    await sink.table('nodes', {
      columns: ['ID', 'UMAP_1', 'UMAP_2', 'partition'],
      rows: Array.from({ length: pg.nNodes }, (_, i) => [
        nodeName(i),
        pg.Y[2 * i]!,
        pg.Y[2 * i + 1]!,
        String(pg.partitionOfNode[i]! + 1),
      ]),
    });
    const barcodes = result.barcodes;
    await sink.table('cells', {
      columns: ['barcode', 'celltype', 'partition', 'pseudotime'],
      rows: cells.map((c, i) => [
        barcodes[c]!,
        celltype[i]!,
        String(cl.partitions[i]! + 1),
        fmt(pseudotime[i]!),
      ]),
    });
    const ptAll = new Float64Array(result.nCells).fill(NaN);
    const partAll = new Array<string>(result.nCells).fill('NA');
    cells.forEach((c, i) => {
      ptAll[c] = Number.isFinite(pseudotime[i]!) ? pseudotime[i]! : NaN;
      partAll[c] = String(cl.partitions[i]! + 1);
    });
    await sink.cellColumn('monocle3_pseudotime', { kind: 'numeric', values: ptAll });
    await sink.cellColumn('monocle3_partition', { kind: 'categorical', values: partAll });
    const graph: Monocle3Graph = {
      nodes: Array.from({ length: pg.nNodes }, (_, i) => ({
        id: nodeName(i),
        x: round(pg.Y[2 * i]!, 4),
        y: round(pg.Y[2 * i + 1]!, 4),
        partition: String(pg.partitionOfNode[i]! + 1),
      })),
      edges: pg.edges.map(([a, b]) => [nodeName(a), nodeName(b)]),
      roots: roots.map(nodeName),
      cells: {
        x: Array.from({ length: n }, (_, i) => round(X[2 * i]!, 4)),
        y: Array.from({ length: n }, (_, i) => round(X[2 * i + 1]!, 4)),
        pseudotime: Array.from(pseudotime, (t) => (Number.isFinite(t) ? round(t, 4) : null)),
        celltype,
        partition: Array.from(cl.partitions, (p) => String(p + 1)),
      },
    };
    await sink.data('graph.json', graph);
    // genes along pseudotime: chosen genes or the top 10 by Moran's I; 100 bins of size-factor-normalised counts
    const chosen = params.genes
      ? params.genes.map((g) => result.geneIndex(g)).filter((g) => g >= 0)
      : sigOrder.slice(0, 10).map(({ g }) => g);
    const gip: GenesInPseudotime = { binCenters: [], genes: [] };
    for (const g of chosen) {
      const v = new Float64Array(n);
      for (let c = 0; c < n; c++) {
        for (let p = counts.indptr[c]!; p < counts.indptr[c + 1]!; p++)
          if (counts.indices[p] === g) v[c] = counts.data[p]! / sz[c]!;
      }
      const b = binnedMeans(pseudotime, v, 100);
      gip.binCenters = b.centers.map((x) => round(x, 4));
      const I = byGene.get(g)?.I;
      gip.genes.push({
        gene: symbols[g]!,
        means: b.means.map((x) => (Number.isFinite(x) ? round(x, 4) : 0)),
        moransI: I !== undefined && Number.isFinite(I) ? I : null,
      });
    }
    await sink.data('genes_in_pseudotime.json', gip);
    const finite = Array.from(pseudotime).filter(Number.isFinite);
    progress(1, 'done');
    return {
      groupBy: params.groupBy,
      cellTypes: [...keptTypes].sort().map((t) => ({
        name: t,
        cells: sel.cells.filter((c) => sel.labels[c] === t).length,
        used: celltype.filter((x) => x === t).length,
      })),
      nCells: n,
      embedding: params.reReduce ? 'reReduced' : 'umap',
      nPartitions: cl.nPartitions,
      nNodes: pg.nNodes,
      roots: roots.map(nodeName),
      rootSource,
      maxPseudotime: finite.reduce((a, b) => Math.max(a, b), 0),
      nGenesTested: tested.filter((r) => r.status === 'OK').length,
      nGenesSignificant: sig.length,
      nModules: mods.nModules,
      topGenes: sigOrder.slice(0, 10).map(({ g }) => symbols[g]!),
      qValue: params.qValue,
    };
  },
};

function sliceKnn(idx: Int32Array, k: number, k2: number, n: number): Int32Array {
  if (k2 === k) return idx;
  const out = new Int32Array(n * k2);
  for (let i = 0; i < n; i++) for (let a = 0; a < k2; a++) out[i * k2 + a] = idx[i * k + a]!;
  return out;
}
function sliceKnnF(d: Float64Array, k: number, k2: number, n: number): Float64Array {
  if (k2 === k) return d;
  const out = new Float64Array(n * k2);
  for (let i = 0; i < n; i++) for (let a = 0; a < k2; a++) out[i * k2 + a] = d[i * k + a]!;
  return out;
}
