import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDataset } from '@cellcloud/formats';
import { cellChunksOf, geneBlocksOf } from '@cellcloud/formats/cell-chunks';
import { fileRandomAccess, fileSink, pathBundle } from '@cellcloud/formats/node-sources';
import { CountStoreWriter, openCountStore } from '@cellcloud/formats/store';
import { hasSharedData, sharedData } from '@cellcloud/testkit';
import { directorySink } from '../src/cli/fs-sink';
import type { DegRow } from '@cellcloud/contracts/artifacts';
import { filterDegTable, findMarkers } from '../src/markers';
import { runAnalysis, type AnalysisResult } from '../src/run-analysis';
import { adjustedRandIndex } from '../src/stats/ari';
import { runAnalysisStreamed } from '../src/stream/run-streamed';
import type { StreamedAnalysisResult } from '../src/stream/types';
import { MARKER_CSV_HEADER, writeOutputs } from '../src/write-outputs';
import { anndataPython, readWithAnndata } from './support/anndata';
import { column, correlation, expectSameMatrix, firstDifference, gather } from './support/same-matrix';

const PBMC = 'pbmc3k/10x';
const LABELS = 'pbmc3k/pbmc3k_seurat_labels.csv';

/**
 * Canonical markers (any of the genes) per lineage, the Seurat labels of each lineage, and how far
 * down the Wilcoxon ranking (z-score, as scanpy rank_genes_groups) a marker may sit (default 10).
 */
const CANONICAL: { lineage: string; labels: string[]; genes: string[]; top?: number }[] = [
  { lineage: 'T', labels: ['Naive CD4 T', 'Memory CD4 T', 'CD8 T'], genes: ['CD3D', 'IL7R'] },
  { lineage: 'CD14 mono', labels: ['CD14+ Mono'], genes: ['CD14', 'LYZ'] },
  { lineage: 'B', labels: ['B'], genes: ['MS4A1'] },
  { lineage: 'NK', labels: ['NK'], genes: ['GNLY', 'NKG7'] },
  { lineage: 'FCGR3A mono', labels: ['FCGR3A+ Mono'], genes: ['FCGR3A'] },
  { lineage: 'DC', labels: ['DC'], genes: ['FCER1A', 'CST3'] },
  // 14 platelets: genes found only in them (GP9, AP001189.4, ITGA2B, TMEM40…; pct2 ≤ 0.001) have
  // twice PPBP's z-score, which 2.4 % of the other cells also carry. Measured with all 14 platelets
  // kept (the tutorial filter): PF4 rank 14, PPBP rank 34 (13 kept: PF4 rank 9). PF4 is the other
  // textbook platelet marker; issue 4's "PPBP in the top 10" does not hold for a Wilcoxon z ranking.
  { lineage: 'Platelet', labels: ['Platelet'], genes: ['PPBP', 'PF4'], top: 20 },
];

/** `dataset`'s counts written as a count store file (what out-of-core jobs read), opened. */
async function countStoreOf(dataset: Awaited<ReturnType<typeof readDataset>>, file: string) {
  const sink = await fileSink(file);
  const w = new CountStoreWriter(sink, {
    geneIds: dataset.genes.ids,
    geneSymbols: dataset.genes.symbols,
    sampleName: 'pbmc3k',
  });
  const chunks = cellChunksOf(dataset.counts, 1000);
  for (let i = 0; i < chunks.chunkCount; i++)
    await w.addCells(
      chunks.chunk(i),
      dataset.cells.barcodes.slice(chunks.chunkStart(i), chunks.chunkStart(i + 1)),
    );
  await w.finish();
  await sink.close();
  const source = fileRandomAccess(file);
  return { store: openCountStore(source), close: () => source.close() };
}

describe.skipIf(!hasSharedData(PBMC, LABELS))('pbmc3k through the whole pipeline', () => {
  let result: AnalysisResult;
  let labels: Map<string, string>;
  // the same defaults run out of core on a count store file of pbmc3k (issue 33), compared below
  // with `result`: one in-memory pbmc3k analysis serves this file's checks and that comparison
  // (they were two files, each with its own in-memory run)
  let str: StreamedAnalysisResult;
  let storeDir: string | undefined;
  let closeStore = () => {};

  beforeAll(async () => {
    const dataset = await readDataset(await pathBundle(sharedData(PBMC) as string));
    // the streamed run first: runAnalysis may consume what it is given
    storeDir = await mkdtemp(path.join(os.tmpdir(), 'stream-run-'));
    const { store, close } = await countStoreOf(dataset, path.join(storeDir, 'pbmc3k.store'));
    closeStore = close;
    str = await runAnalysisStreamed(
      [{ name: 'pbmc3k', ...store, cells: store.cells, genes: store.genes }],
      {},
    );
    const csv = await readFile(sharedData(LABELS) as string, 'utf8');
    labels = new Map(
      csv
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(',') as [string, string]),
    );
    // Every default (issue 14): 200–5000 genes / 0–30,000 UMIs, recommended mito cutoff, ribosomal
    // < 50 %, Scrublet doublet removal, seurat_v3 HVGs, scaling clipped at 10, 10 PCs, scanpy k=15
    // connectivities, Leiden at resolution 0.5 (medoid of 50 restarts), seed 42.
    result = await runAnalysis([{ name: 'pbmc3k', dataset }], {});
    // two whole pbmc3k pipelines: at load average ~20 on the 2-core machine they passed 900 s
  }, 1_800_000);
  afterAll(async () => {
    closeStore();
    if (storeDir) await rm(storeDir, { recursive: true, force: true });
  });

  const clusterOf = () => (result.obs.cluster.kind === 'categorical' ? result.obs.cluster.values : []);

  it('agrees with the Seurat tutorial labels (ARI)', () => {
    const known: string[] = [];
    const found: string[] = [];
    const clusters = clusterOf();
    result.barcodes.forEach((b, i) => {
      const l = labels.get(b);
      if (l) {
        known.push(l);
        found.push(clusters[i]);
      }
    });
    expect(known.length).toBeGreaterThan(2400);
    const ari = adjustedRandIndex(known, found);
    console.info(`pbmc3k ARI vs Seurat labels: ${ari.toFixed(3)} (${result.clusterLabels.length} clusters)`);
    // Issue 32 (Leiden, medoid of 50 restarts, constant PCA start, Scrublet averaged over 5
    // simulations): seed 42 0.899; seeds 42 and 1–9 min 0.894 / median 0.902 (20 restarts, one
    // simulation: 0.783 / 0.891; npm run bench:stability, docs/benchmarks/stability.md).
    // Issue 14: >= 0.80 with every default. Measured (Louvain, converged PCA): seeds 42/7/1/123
    // 0.855/0.825/0.859/0.785 (9/10/8/8 clusters; at 8 clusters the DCs join the monocytes). The
    // previous defaults (METHODS_PRESET: per-sample P98 gene/UMI caps, auto = 6 PCs, resolution
    // 0.8) give 0.588: the caps remove 22 of the 32 DCs. The Seurat tutorial's own settings
    // (200–2500 genes, mito < 5 %, no doublet step, 10 PCs, resolution 0.5) gave 0.85–0.88.
    expect(ari).toBeGreaterThanOrEqual(0.8);
  });

  const topGenes = (rows: DegRow[], group: string, n = 10) =>
    rows
      .filter((r) => r.cluster === group)
      .slice(0, n)
      .map((r) => r.gene);

  it('puts a canonical marker in the top 10 (platelets: 20) of every cluster whose cells are mostly of one lineage', () => {
    const clusters = clusterOf();
    const byCluster = new Map<string, Map<string, number>>();
    result.barcodes.forEach((b, i) => {
      const l = labels.get(b);
      if (!l) return;
      const m = byCluster.get(clusters[i]) ?? new Map<string, number>();
      m.set(l, (m.get(l) ?? 0) + 1);
      byCluster.set(clusters[i], m);
    });
    const checked = new Set<string>();
    const misses: string[] = [];
    for (const [cluster, counts] of byCluster) {
      const majority = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
      const c = CANONICAL.find((x) => x.labels.includes(majority));
      if (!c) continue;
      checked.add(c.lineage);
      const top = topGenes(result.markers, cluster, c.top);
      if (c.lineage !== 'T' && !c.genes.some((g) => top.includes(g)))
        misses.push(`${c.lineage} cluster ${cluster}: ${top.join(' ')}`);
    }
    // T cells form several clusters (naive/memory CD4, CD8): at least one shows CD3D or IL7R.
    const tClusters = [...byCluster.entries()].filter(([, m]) =>
      ['Naive CD4 T', 'Memory CD4 T', 'CD8 T'].includes([...m.entries()].sort((a, b) => b[1] - a[1])[0][0]),
    );
    expect(
      tClusters.some(([cl]) => ['CD3D', 'IL7R'].some((g) => topGenes(result.markers, cl).includes(g))),
    ).toBe(true);
    expect(misses).toEqual([]);
    // Every lineage has its own cluster(s), DC (32 cells) and platelets (14) included.
    expect([...checked].sort()).toEqual(['B', 'CD14 mono', 'DC', 'FCGR3A mono', 'NK', 'Platelet', 'T']);
  });

  it('ranks every canonical marker in the top 10 (platelets: 20) of its cell type (Wilcoxon on the Seurat groups)', () => {
    const names = CANONICAL.flatMap((c) => c.labels);
    const codes = Int32Array.from(result.barcodes, (b) => names.indexOf(labels.get(b) ?? ''));
    const rows = findMarkers(result.normalized, codes, names, result.geneSymbols);
    const misses = CANONICAL.flatMap((c) =>
      c.labels
        .filter((l) => c.lineage !== 'T' || l === 'Memory CD4 T')
        .filter((l) => !c.genes.some((g) => topGenes(rows, l, c.top).includes(g)))
        .map((l) => `${l}: ${topGenes(rows, l, c.top).join(' ')}`),
    );
    expect(misses).toEqual([]);
  });

  it('has a marker table covering every gene of every cluster, with a meaningful display filter', () => {
    expect(result.markers).toHaveLength(result.clusterLabels.length * result.geneIds.length);
    const shown = filterDegTable(result.markers);
    expect(shown.length).toBeGreaterThan(100);
    expect(shown.every((r) => r.padj <= 0.05 && r.log2fc >= 0.25)).toBe(true);
    expect(result.clusterLabels[0]).toBe('1');
  });

  describe('streamed from a count store: the in-memory result', () => {
    it('keeps the same cells and genes with the same QC and cell-cycle columns', () => {
      expect(str.barcodes).toEqual(result.barcodes);
      expect(str.geneIds).toEqual(result.geneIds);
      expect(str.geneSymbols).toEqual(result.geneSymbols);
      for (const key of [
        'n_genes_by_counts',
        'total_counts',
        'pct_counts_mito',
        'pct_counts_ribo',
        'doublet_score',
        'S_score',
        'G2M_score',
      ])
        expect(
          firstDifference(str.obs[key].values as Float64Array, result.obs[key].values as Float64Array),
          key,
        ).toBe(-1);
      expect(str.obs.phase.values).toEqual(result.obs.phase.values);
      expect(new Set(str.obs.phase.values as string[])).toEqual(new Set(['G1', 'S', 'G2M']));
      expect(str.qc.samples).toEqual(result.qc.samples);
      expect(str.qc.doublets).toEqual(result.qc.doublets);
    });

    it('gives the same counts and normalized values, cell-major and gene-major', () => {
      expectSameMatrix(gather(str.counts), result.counts);
      expectSameMatrix(gather(str.normalized), result.normalized);
      const ref = geneBlocksOf(result.normalized);
      const b = str.normalizedGenes.genes(100, 400);
      const r = ref.genes(100, 400);
      expect(firstDifference(b.indptr, r.indptr)).toBe(-1);
      expect(firstDifference(b.indices, r.indices)).toBe(-1);
      expect(firstDifference(b.data, r.data)).toBe(-1);
      expect(firstDifference(str.countsGenes.geneNnz, geneBlocksOf(result.counts).geneNnz)).toBe(-1);
    });

    it('selects the same HVGs and finds the same PCs and clusters', () => {
      expect(firstDifference(str.highlyVariable, result.highlyVariable)).toBe(-1);
      const dims = result.embeddings.pca.dims;
      expect(str.embeddings.pca.dims).toBe(dims);
      for (let j = 0; j < dims; j++)
        expect(
          Math.abs(correlation(column(str.embeddings.pca, j), column(result.embeddings.pca, j))),
        ).toBeGreaterThanOrEqual(0.999);
      expect(str.qc.pcaVarianceRatio).toEqual(result.qc.pcaVarianceRatio);
      const a = str.obs.cluster.values as string[];
      const b = result.obs.cluster.values as string[];
      expect(adjustedRandIndex(a, b)).toBeGreaterThanOrEqual(0.99);
      expect(str.clusterLabels).toEqual(result.clusterLabels);
      for (const key of ['umap', 'tsne', 'umap3D', 'tsne3D'])
        expect(str.embeddings[key]?.dims, key).toBeGreaterThan(1);
    });

    it('finds the same markers', () => {
      expect(str.markers.length).toBeGreaterThan(0);
      expect(str.markers).toEqual(result.markers);
    });
  });

  describe('outputs', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'cellcloud-engine-'));
      await writeOutputs(result, directorySink(dir));
    }, 300_000);
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('writes an h5ad that the formats reader opens with clusters, QC columns and embeddings', async () => {
      const back = await readDataset(await pathBundle(path.join(dir, 'analysis.h5ad')));
      expect(back.counts.nCells).toBe(result.counts.nCells);
      expect(back.counts.nGenes).toBe(result.counts.nGenes);
      const cluster = back.cells.columns.cluster;
      expect(cluster?.kind).toBe('categorical');
      expect(cluster?.kind === 'categorical' && cluster.values).toEqual(clusterOf());
      expect(back.cells.columns.total_counts?.kind).toBe('numeric');
      expect(Object.keys(back.embeddings).sort()).toEqual(
        expect.arrayContaining(['X_pca', 'X_tsne', 'X_umap']),
      );
      expect(back.embeddings.X_umap.dims).toBe(2);
    });

    it.skipIf(!anndataPython)(
      'writes an h5ad that python anndata (Debian 0.8 or later) opens with no shim',
      () => {
        const a = readWithAnndata(path.join(dir, 'analysis.h5ad'));
        expect(a.shape).toEqual([result.counts.nCells, result.counts.nGenes]);
        // highly_variable is a numpy bool mask: subsetting by it keeps the HVGs, not genes 0 and 1
        expect(a.hvgDtype).toBe('bool');
        const nHvg = result.highlyVariable.reduce((x, v) => x + (v ? 1 : 0), 0);
        expect(a.nHvg).toBe(nHvg);
        expect(a.hvgSubsetShape).toEqual([result.counts.nCells, nHvg]);
        expect(a.clusters).toEqual(result.clusterLabels);
        expect(a.ordered).toBe(false);
        expect(a.obsm).toEqual(expect.arrayContaining(['X_pca', 'X_tsne', 'X_umap']));
        expect(a.layers).toEqual(['counts']);
        expect(a.countsTotal).toBe(result.counts.data.reduce((x, v) => x + v, 0));
      },
    );

    it('writes markers.csv with the docs/product/entities.md#deg-table headers and the artifact manifest', async () => {
      const csv = await readFile(path.join(dir, 'markers.csv'), 'utf8');
      const lines = csv.trim().split('\n');
      expect(lines[0]).toBe(MARKER_CSV_HEADER.join(','));
      expect(lines).toHaveLength(result.markers.length + 1);
      const manifest = JSON.parse(await readFile(path.join(dir, 'artifacts/manifest.json'), 'utf8'));
      expect(manifest.nCells).toBe(result.counts.nCells);
      expect(manifest.embeddings.map((e: { name: string }) => e.name)).toEqual(
        expect.arrayContaining(['umap', 'tsne']),
      );
    });
  });
});
