/**
 * npx tsx scripts/bench/write-outputs.ts [cells=20000] [parts=all|h5ad|artifacts] — writing the
 * outputs alone (writeOutputs: analysis.h5ad, markers.csv, explorer artifacts) on a result built
 * from synthetic counts without running the pipeline (the writers' cost depends on the matrices,
 * not on how the embeddings were found): counts and log1p(CP10k) sharing their indices as the
 * pipeline's do, random embeddings, numeric QC columns. Prints wall and CPU seconds
 * (process.cpuUsage: all threads, incl. libuv's deflate pool), peak RSS, file sizes and the load
 * average. For before/after comparisons of the writers at a size that runs in seconds.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import '@cellcloud/formats/node-sources';
import { writeArtifacts, writeH5adTo } from '@cellcloud/formats';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { writeOutputs } from '@cellcloud/engine/write-outputs';
import { directorySink } from '@cellcloud/engine/cli/fs-sink';
import { syntheticDataset } from '@cellcloud/engine/synthetic';
import type { AnalysisResult } from '@cellcloud/engine/run-analysis';
import { parseParams } from '@cellcloud/engine/validate';

const nCellsTotal = Number(process.argv[2] ?? 20000);
const parts = process.argv[3] ?? 'all';

function build(): AnalysisResult {
  const pieces = [];
  for (let left = nCellsTotal, s = 0; left > 0; s++) {
    const n = Math.min(50_000, left);
    pieces.push(syntheticDataset({ nCells: n, nGenes: 20_000, nClusters: 10, seed: 7, cellSeed: 100 + s }));
    left -= n;
  }
  const nnz = pieces.reduce((a, p) => a + p.dataset.counts.indices.length, 0);
  const nCells = pieces.reduce((a, p) => a + p.dataset.counts.nCells, 0);
  const counts: CountMatrix = {
    nGenes: 20_000,
    nCells,
    indptr: new Float64Array(nCells + 1),
    indices: new Uint32Array(nnz),
    data: new Float32Array(nnz),
  };
  let c = 0;
  let k = 0;
  for (const p of pieces) {
    const m = p.dataset.counts;
    counts.indices.set(m.indices, k);
    counts.data.set(m.data, k);
    for (let j = 0; j < m.nCells; j++) counts.indptr[c + j + 1] = k + m.indptr[j + 1]!;
    c += m.nCells;
    k += m.indices.length;
  }
  const normalized: CountMatrix = { ...counts, data: new Float32Array(nnz) };
  for (let j = 0; j < nCells; j++) {
    let total = 0;
    for (let i = counts.indptr[j]!; i < counts.indptr[j + 1]!; i++) total += counts.data[i]!;
    for (let i = counts.indptr[j]!; i < counts.indptr[j + 1]!; i++)
      normalized.data[i] = Math.log1p((counts.data[i]! * 1e4) / total);
  }
  const rnd = (dims: number) => ({
    dims,
    values: Float32Array.from({ length: nCells * dims }, () => Math.random() * 20 - 10),
  });
  const barcodes = pieces.flatMap((p, s) => p.dataset.cells.barcodes.map((b) => `s${s}_${b}`));
  const cluster = pieces.flatMap((p) => Array.from(p.truth, String));
  const num = () => ({
    kind: 'numeric' as const,
    values: Float64Array.from({ length: nCells }, () => Math.random()),
  });
  const genes = pieces[0]!.dataset.genes;
  return {
    engineVersion: 'bench',
    params: parseParams({}),
    species: 'human',
    sampleNames: pieces.map((_, s) => `s${s}`),
    counts,
    normalized,
    geneIds: genes.ids,
    geneSymbols: genes.symbols,
    barcodes,
    obs: {
      cluster: { kind: 'categorical', values: cluster },
      'Sample ID': {
        kind: 'categorical',
        values: pieces.flatMap((p, s) => p.dataset.cells.barcodes.map(() => `s${s}`)),
      },
      n_genes_by_counts: num(),
      total_counts: num(),
      pct_counts_mito: num(),
      pct_counts_ribo: num(),
      doublet_score: num(),
    },
    highlyVariable: Uint8Array.from({ length: 20_000 }, (_, g) => (g % 10 === 0 ? 1 : 0)),
    embeddings: { pca: rnd(50), umap: rnd(2), tsne: rnd(2), umap3D: rnd(3) },
    clusterLabels: [...new Set(cluster)],
    markers: [],
    qc: {
      samples: [],
      mitochondrialThreshold: 20,
      doublets: [],
      ambient: [],
      nPcsUsed: 10,
      pcaVarianceRatio: [],
      batchCorrection: 'none',
    },
    timings: {},
  };
}

function du(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    total += e.isDirectory() ? du(p) : statSync(p).size;
  }
  return total;
}

async function main(): Promise<void> {
  const result = build();
  const nnz = result.counts.indptr[result.counts.nCells]!;
  console.log(
    `${result.counts.nCells} cells, ${nnz} non-zeros; load ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  const dir = mkdtempSync(path.join(tmpdir(), 'cellcloud-bench-write-'));
  const sink = directorySink(dir);
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  try {
    if (parts === 'h5ad') {
      const file = await sink.open!('analysis.h5ad');
      await writeH5adTo(
        {
          counts: result.counts,
          normalized: result.normalized,
          genes: { ids: result.geneIds, symbols: result.geneSymbols },
          barcodes: result.barcodes,
          obs: result.obs,
          obsm: { X_pca: result.embeddings.pca!, X_umap: result.embeddings.umap! },
          ...(process.env.BENCH_LEVEL ? { compression: Number(process.env.BENCH_LEVEL) } : {}),
        },
        file,
      );
      await file.close();
    } else if (parts === 'artifacts') {
      await writeArtifacts(
        {
          engineVersion: 'bench',
          species: 'human',
          genes: { ids: result.geneIds, symbols: result.geneSymbols },
          nCells: result.counts.nCells,
          layers: { counts: result.counts, normalized: result.normalized },
          obs: result.obs,
        },
        { write: sink.write, open: sink.open },
      );
    } else await writeOutputs(result, sink);
    const c = process.cpuUsage(c0);
    const wall = (performance.now() - t0) / 1000;
    const h5 = parts === 'artifacts' ? 0 : statSync(path.join(dir, 'analysis.h5ad')).size;
    console.log(
      JSON.stringify({
        parts,
        cells: result.counts.nCells,
        wall: +wall.toFixed(2),
        cpu: +((c.user + c.system) / 1e6).toFixed(2),
        user: +(c.user / 1e6).toFixed(2),
        system: +(c.system / 1e6).toFixed(2),
        h5adMB: +(h5 / 1e6).toFixed(1),
        totalMB: +(du(dir) / 1e6).toFixed(1),
        peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
        load: loadavg().map((x) => +x.toFixed(2)),
      }),
    );
  } finally {
    if (process.env.BENCH_KEEP) console.log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

await main();
