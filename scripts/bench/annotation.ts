/**
 * npm run bench:annotation — automatic cell annotation (issue 13, task `annotate`).
 *
 * 1. pbmc3k 10x counts → `npx cellcloud analyze` with default parameters (once, cached in
 *    $TMPDIR/cellcloud-bench-annotation/pbmc3k; BENCH_FRESH=1 re-runs it);
 * 2. `annotate` (species human, tissue blood; reference chosen automatically) → agreement of
 *    `annot_auto` with the Seurat tutorial labels (pbmc3k/pbmc3k_seurat_labels.csv) on the 9 tutorial
 *    types (target ≥ 75 %) and the coarse types T/NK/B/monocyte/DC/platelet (target ≥ 97 %), with
 *    the documented label mapping of packages/tasks/test/annotate/annotate-agreement.ts; also for the
 *    other levels (reference label, cluster majority, pruned) and the DMAP reference; seconds per
 *    10k cells (annotation only, references cached after the first load);
 * 3. T-cell subtype annotation (mode subtype, lineage t_cells, on the cells annot_auto_major calls
 *    T) → confusion table vs Naive CD4 / Memory CD4 / CD8;
 * 4. mouse10k subset (1,000 chr1 genes only; lenient gene filter, no Scrublet) → analyze + annotate with the mouse reference; prints
 *    the lineages found.
 * Also runs the CLI verb once: `npx cellcloud task annotate <result> --species human --tissue blood`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { definition as annotateTask } from '../../packages/tasks/src/annotate/contract';
import { readH5adBytes } from '@cellcloud/formats';
import { engine as annotateEngine } from '../../packages/tasks/src/annotate/engine';
import { nodeResourceReader } from '@cellcloud/engine/cli/node-resources';
import { MemorySink } from '@cellcloud/engine/tasks/kit';
import { resultHandleFromDataset } from '@cellcloud/engine/tasks/kit';
import type { ResultHandle } from '@cellcloud/engine/tasks/kit';
import { SHARED_DATA_DIR } from '@cellcloud/testkit';
import {
  agreement,
  formatConfusion,
  parseLabels,
} from '../../packages/tasks/test/annotate/annotate-agreement';

const WORK = path.join(tmpdir(), 'cellcloud-bench-annotation');
const resources = nodeResourceReader(SHARED_DATA_DIR);
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

function analyze(input: string, out: string, params?: object): void {
  if (existsSync(path.join(out, 'analysis.h5ad')) && !process.env.BENCH_FRESH) return;
  mkdirSync(out, { recursive: true });
  const t = performance.now();
  const extra: string[] = [];
  if (params) {
    const file = path.join(WORK, `${path.basename(out)}-params.json`);
    writeFileSync(file, JSON.stringify(params));
    extra.push('--params', file);
  }
  const r = spawnSync('npx', ['cellcloud', 'analyze', input, '--out', out, '--quiet', ...extra], {
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error(`cellcloud analyze ${input} failed`);
  console.log(`analyze ${path.basename(input)}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
}

async function load(dir: string, species: string): Promise<ResultHandle> {
  const ds = await readH5adBytes(
    new Uint8Array(readFileSync(path.join(dir, 'analysis.h5ad'))),
    'analysis.h5ad',
  );
  return resultHandleFromDataset(ds, { species });
}

async function annotate(result: ResultHandle, params: object) {
  const sink = new MemorySink();
  const t = performance.now();
  const summary = await annotateEngine.run({
    result,
    params: annotateTask.params.parse(params),
    onProgress: () => {},
    sink,
    resources,
  });
  return { summary, sink, seconds: (performance.now() - t) / 1000 };
}

const labelsOf = (sink: MemorySink, key: string) => sink.cells.get(key)!.values as string[];

async function main() {
  const pbmcDir = path.join(WORK, 'pbmc3k');
  analyze(path.join(SHARED_DATA_DIR, 'pbmc3k/10x'), pbmcDir);
  const result = await load(pbmcDir, 'human');
  const truth = parseLabels(
    readFileSync(path.join(SHARED_DATA_DIR, 'pbmc3k/pbmc3k_seurat_labels.csv'), 'utf8'),
  );
  await annotate(result, { species: 'human', tissue: 'blood' }); // warm-up: reads and caches the references
  const run = await annotate(result, { species: 'human', tissue: 'blood' });
  console.log(
    `\npbmc3k: ${result.nCells} cells after default QC; reference ${run.summary.reference}, markers ${run.summary.markerSource}`,
  );
  console.log(
    `annotation ${run.seconds.toFixed(2)} s = ${((run.seconds * 10000) / result.nCells).toFixed(2)} s per 10k cells`,
  );
  for (const key of ['annot_auto', 'annot_auto_major', 'annot_auto_cluster', 'annot_auto_pruned']) {
    const a = agreement(result.barcodes, labelsOf(run.sink, key), truth);
    console.log(
      `  ${key.padEnd(20)} 9 types ${pct(a.fine)} (target ≥ 75 %)   coarse ${pct(a.coarse)} (target ≥ 97 %)   [${a.cells} cells]`,
    );
  }
  const a = agreement(result.barcodes, labelsOf(run.sink, 'annot_auto'), truth);
  console.log('annot_auto confusion (tutorial → automatic):');
  console.log(formatConfusion(a.confusion));
  console.log('per cluster:');
  for (const c of run.summary.clusters) {
    console.log(
      `  ${c.cluster.padStart(3)} ${String(c.cells).padStart(4)} cells  ${c.label} (${pct(c.confidence)})  markers: ${c.markerLabel ?? '-'}`,
    );
  }
  const dmap = await annotate(result, { species: 'human', tissue: 'blood', reference: 'hema_microarray' });
  const ad = agreement(result.barcodes, labelsOf(dmap.sink, 'annot_auto'), truth);
  console.log(
    `DMAP reference instead: 9 types ${pct(ad.fine)}, coarse ${pct(ad.coarse)}, ${dmap.seconds.toFixed(2)} s`,
  );

  // T-cell subtypes on the cells the reference calls T
  const withMajor = resultHandleFromDataset(
    await readH5adBytes(new Uint8Array(readFileSync(path.join(pbmcDir, 'analysis.h5ad'))), 'analysis.h5ad'),
    { species: 'human', extraObs: { annot_auto_major: run.sink.cells.get('annot_auto_major')! } },
  );
  const sub = await annotate(withMajor, {
    mode: 'subtype',
    species: 'human',
    lineage: 't_cells',
    lineageKey: 'annot_auto_major',
  });
  const subLabels = labelsOf(sub.sink, 'annot_sub');
  const sub2 = labelsOf(sub.sink, 'annot_sub2');
  const rows = ['Naive CD4 T', 'Memory CD4 T', 'CD8 T'];
  const cols = [...new Set(subLabels.filter((l) => l !== 'other'))].sort();
  console.log(
    `\nT-cell subtypes (${sub.summary.nAnnotated} cells, ${sub.seconds.toFixed(2)} s) — annot_sub vs tutorial:`,
  );
  console.log(`  ${''.padEnd(13)} ${cols.map((c) => c.padStart(15)).join('')}`);
  for (const r of rows) {
    const counts = cols.map(
      (c) => result.barcodes.filter((b, i) => truth.get(b) === r && subLabels[i] === c).length,
    );
    console.log(`  ${r.padEnd(13)} ${counts.map((n) => String(n).padStart(15)).join('')}`);
  }
  let ok = 0;
  let n = 0;
  result.barcodes.forEach((b, i) => {
    const t = truth.get(b);
    if (!t || !rows.includes(t) || subLabels[i] === 'other') return;
    n++;
    const l = subLabels[i]!;
    if (
      (t === 'Naive CD4 T' && l === 'CD4 naive T') ||
      (t === 'Memory CD4 T' && (l === 'CD4 memory T' || l === 'Treg')) ||
      (t === 'CD8 T' && /^CD8/.test(l))
    )
      ok++;
  });
  console.log(
    `  agreement on the three T types: ${pct(ok / n)} of ${n} cells; annot_sub2 (DMAP per cell) labels: ${[...new Set(sub2)].length}`,
  );

  // CLI verb once
  const cliOut = path.join(WORK, 'pbmc3k-task');
  const cli = spawnSync(
    'npx',
    ['cellcloud', 'task', 'annotate', pbmcDir, '--species', 'human', '--tissue', 'blood', '--out', cliOut],
    {
      encoding: 'utf8',
    },
  );
  console.log(
    `\nCLI task annotate: exit ${cli.status}; files ${existsSync(cliOut) ? readdirSync(path.join(cliOut, 'tables')).join(', ') : '-'}`,
  );
  if (cli.status !== 0) console.log(cli.stderr.slice(-800));

  // mouse
  const mouseDir = path.join(WORK, 'mouse10k');
  // only 1,000 genes per cell: the default 200-gene minimum and Scrublet do not apply
  analyze(path.join(SHARED_DATA_DIR, 'mouse10k_subset_scanpy'), mouseDir, {
    expressedGeneRange: { state: 'manual', range: [5, 1000] },
    expressedUmiRange: { state: 'manual', range: [0, 1e6] },
    doubletDetectionAndRemoval: false,
    numberOfHighlyVariableGenes: 500,
  });
  const mouse = await load(mouseDir, 'mouse');
  const m = await annotate(mouse, { species: 'mouse', tissue: 'brain' });
  console.log(
    `\nmouse10k: ${mouse.nCells} cells, reference ${m.summary.reference}, ${m.seconds.toFixed(2)} s (${((m.seconds * 10000) / mouse.nCells).toFixed(2)} s per 10k cells)`,
  );
  console.log(
    `  labels: ${m.summary.labels
      .slice(0, 10)
      .map((l) => `${l.label} ${l.cells}`)
      .join(', ')}`,
  );
  const refusal = await annotate(mouse, { species: 'zebrafish', tissue: 'brain' }).catch(
    (e: Error) => e.message,
  );
  console.log(`  species zebrafish → ${typeof refusal === 'string' ? refusal : 'not refused!'}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
