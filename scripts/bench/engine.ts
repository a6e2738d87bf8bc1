/**
 * npm run bench:engine [-- pbmc3k synth20k synth100k] — the standard pipeline (packages/engine,
 * runAnalysis: merge → QC → filter → Scrublet → normalize → HVG → PCA → graph → Louvain → UMAP →
 * t-SNE → Wilcoxon markers) on the real pbmc3k 10x folder and on synthetic negative-binomial data
 * with known clusters (20,000 genes; 20k and 100k cells; packages/engine/src/synthetic.ts).
 *
 * Each dataset runs in its own child process so that peak RSS is that run's alone. Prints seconds
 * per step, peak RSS and ARI against the known labels (pbmc3k: Seurat tutorial labels), and ends
 * each run with one JSON line: {"dataset","cells","seconds","peakRssMB","ari",…}.
 * `seconds` = read (pbmc3k) + pipeline through markers; synthetic generation is reported apart.
 * BENCH_VERBOSE=1 prints each step as it starts, with the RSS at that moment; BENCH_PARAMS='{…}'
 * passes analysis parameters (e.g. '{"doubletDetectionAndRemoval":false}'; default: all defaults).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { readDataset } from '@cellcloud/formats';
import { pathBundle } from '@cellcloud/formats/node-sources';
import { runAnalysis } from '@cellcloud/engine/run-analysis';
import { syntheticDataset } from '@cellcloud/engine/synthetic';
import { adjustedRandIndex } from '@cellcloud/engine/stats/ari';
import type { Dataset } from '@cellcloud/formats/matrix';
import { SHARED_DATA_DIR } from '@cellcloud/testkit';

const DATASETS = ['pbmc3k', 'synth20k', 'synth100k'] as const;
type Name = (typeof DATASETS)[number];

interface Loaded {
  samples: { name: string; dataset: Dataset }[];
  truth: Map<string, string>;
  readSeconds: number;
  generateSeconds: number;
}

/** Cells per sample stay under the SPEC §5 limit (< 100,000): synth100k is two samples of 50k. */
const SYNTH_SAMPLES: Record<Exclude<Name, 'pbmc3k'>, number[]> = { synth20k: [20_000], synth100k: [50_000, 50_000] };

async function load(name: Name): Promise<Loaded> {
  const t0 = performance.now();
  if (name === 'pbmc3k') {
    const dataset = await readDataset(await pathBundle(path.join(SHARED_DATA_DIR, 'pbmc3k/10x')));
    const readSeconds = (performance.now() - t0) / 1000;
    const csv = readFileSync(path.join(SHARED_DATA_DIR, 'pbmc3k/pbmc3k_seurat_labels.csv'), 'utf8');
    const truth = new Map(csv.trim().split('\n').slice(1).map((l) => l.split(',') as [string, string]));
    return { samples: [{ name, dataset }], truth, readSeconds, generateSeconds: 0 };
  }
  const truth = new Map<string, string>();
  const multi = SYNTH_SAMPLES[name].length > 1;
  const samples = SYNTH_SAMPLES[name].map((nCells, s) => {
    // Same profile seed → the same clusters and markers in every sample; other cells per sample.
    const syn = syntheticDataset({ nCells, nGenes: 20_000, nClusters: 10, seed: 7, cellSeed: 100 + s });
    const sample = `${name}_${s + 1}`;
    syn.dataset.cells.barcodes.forEach((b, i) => truth.set(multi ? `${sample}_${b}` : b, String(syn.truth[i])));
    return { name: sample, dataset: syn.dataset };
  });
  return { samples, truth, readSeconds: 0, generateSeconds: (performance.now() - t0) / 1000 };
}

async function child(name: Name): Promise<void> {
  const { samples, truth, readSeconds, generateSeconds } = await load(name);
  const nCells = samples.reduce((a, s) => a + s.dataset.counts.nCells, 0);
  const nnz = samples.reduce((a, s) => a + s.dataset.counts.indices.length, 0);
  console.log(`${name}: ${samples.length} sample(s), ${nCells} cells × ${samples[0].dataset.counts.nGenes} genes, ${nnz} non-zeros`);
  if (generateSeconds) console.log(`  generate        ${generateSeconds.toFixed(2)} s (not counted)`);
  if (readSeconds) console.log(`  read            ${readSeconds.toFixed(2)} s`);
  const t0 = performance.now();
  const params = { ...(process.env.BENCH_PARAMS ? JSON.parse(process.env.BENCH_PARAMS) : {}) };
  let lastStep = '';
  const result = await runAnalysis(samples, params, (e) => {
    if (e.step === lastStep || !process.env.BENCH_VERBOSE) return;
    lastStep = e.step;
    const rss = Math.round(process.memoryUsage().rss / 1024 / 1024);
    console.log(`    … ${((performance.now() - t0) / 1000).toFixed(1)} s ${e.message} (RSS ${rss} MB)`);
  });
  const pipelineSeconds = (performance.now() - t0) / 1000;
  for (const [step, s] of Object.entries(result.timings)) console.log(`  ${step.padEnd(15)} ${s.toFixed(2)} s`);
  const known: string[] = [];
  const found: string[] = [];
  const clusters = result.obs.cluster.kind === 'categorical' ? result.obs.cluster.values : [];
  result.barcodes.forEach((b, i) => {
    const t = truth.get(b);
    if (t !== undefined) {
      known.push(t);
      found.push(clusters[i]);
    }
  });
  const ari = adjustedRandIndex(known, found);
  const peakRssMB = Math.round(process.resourceUsage().maxRSS / 1024);
  console.log(`  cells after QC ${result.counts.nCells}, clusters ${result.clusterLabels.length}, PCs ${result.qc.nPcsUsed}`);
  console.log(`  total ${(readSeconds + pipelineSeconds).toFixed(1)} s, peak RSS ${peakRssMB} MB, ARI ${ari.toFixed(3)}`);
  console.log(
    JSON.stringify({
      dataset: name,
      cells: nCells,
      seconds: Number((readSeconds + pipelineSeconds).toFixed(2)),
      peakRssMB,
      ari: Number(ari.toFixed(4)),
      cellsAfterQc: result.counts.nCells,
      clusters: result.clusterLabels.length,
      generateSeconds: Number(generateSeconds.toFixed(2)),
      params,
    }),
  );
}

const args = process.argv.slice(2);
if (args[0] === '--child') {
  await child(args[1] as Name);
  process.exit(0);
} else {
  const chosen = (args.length ? args : DATASETS) as Name[];
  for (const name of chosen) {
    if (!DATASETS.includes(name)) throw new Error(`unknown dataset "${name}"; choose from ${DATASETS.join(', ')}`);
    const r = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--child', name], {
      stdio: 'inherit',
    });
    if (r.status !== 0) console.log(JSON.stringify({ dataset: name, error: `exit ${r.status ?? r.signal}` }));
  }
}
