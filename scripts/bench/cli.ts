/**
 * npm run bench:cli [-- 100000] [--runs 3] [--no-seurat] [--seurat-only] [--cold] [--generate] — issue 33's
 * "100k cells as a user runs it": `npx cellcloud analyze <sample1> <sample2> --out <dir> --timings`
 * spawned from the repository root under `/usr/bin/time -v` (wall, user + sys CPU of the whole
 * process tree, peak RSS of its largest process), on two 10x MTX folders of PBMC-like density
 * (synthetic, known clusters), then Seurat's tutorial workflow (scripts/bench/cli-seurat.R, Debian
 * r-cran-seurat) on the same folders, timed the same way; prints the ratios Seurat / ours.
 *
 * Data: written once per size under <tmpdir>/cellcloud-bench-cli/pbmclike-<cells>/ (two samples of
 * cells/2, gzip matrix.mtx + features.tsv + barcodes.tsv as Cell Ranger writes them, cell-sorted;
 * truth.csv holds the known cluster of each `<sample>_<barcode>`), from
 * packages/engine/src/synthetic.ts with 33,538 genes (Cell Ranger's GRCh38 feature count) and a
 * mean library size giving ≈ 1,100 detected genes per cell.
 *
 * Per run: the CLI's log and its --timings table (wall, CPU, GC per step), /usr/bin/time's figures
 * (context switches, page faults, file-system reads), the machine's CPU (/proc/stat: busy, iowait,
 * steal) used by *other* processes during the run, the load average, how much of the input was in
 * the page cache (fincore) and the ARI of the clusters in analysis.h5ad against the truth.
 * `--runs N` repeats our command and prints the spread of wall and CPU and of each step;
 * `--cold` evicts the input files from the page cache before each run (posix_fadvise DONTNEED on
 * those files only). Findings: docs/benchmarks/cli.md.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGzip } from 'node:zlib';
import { cellBlocksOf } from '@cellcloud/formats/cell-blocks';
import { withH5adCellBlocks } from '@cellcloud/formats/h5ad-cell-blocks';
import { fileRandomAccess } from '@cellcloud/formats/node-sources';
import { featuresTsv, matrixMarketChunks } from '@cellcloud/formats/write-10x-mtx';
import { Random } from '@cellcloud/engine/methods/random';
import { adjustedRandIndex } from '@cellcloud/engine/stats/ari';
import { syntheticDataset } from '@cellcloud/engine/synthetic';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const GENES = 33_538;
const MEAN_UMI = 1650; // ≈ 1,110 detected genes per cell at 33,538 genes (measured on 2,000 cells)

interface Options {
  cells: number;
  runs: number;
  seurat: boolean;
  ours: boolean;
  cold: boolean;
}

function parseOptions(argv: string[]): Options {
  const o: Options = { cells: 100_000, runs: 1, seurat: true, ours: true, cold: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--runs') o.runs = Number(argv[++i]);
    else if (a === '--no-seurat') o.seurat = false;
    else if (a === '--seurat-only') o.ours = false;
    else if (a === '--cold') o.cold = true;
    else if (a === '--generate')
      o.ours = o.seurat = false; // the data only
    else if (/^\d+$/.test(a)) o.cells = Number(a);
    else throw new Error(`unknown argument ${a}`);
  }
  if (!(o.runs >= 1) || o.cells < 200) throw new Error('--runs ≥ 1 and ≥ 200 cells');
  return o;
}

/** 16 random bases + "-1", as Cell Ranger's barcodes (unique within the sample). */
function barcodes(n: number, seed: number): string[] {
  const rng = new Random(seed);
  const seen = new Set<string>();
  while (seen.size < n) {
    let b = '';
    for (let k = 0; k < 16; k++) b += 'ACGT'[Math.floor(rng.uniform() * 4)];
    seen.add(`${b}-1`);
  }
  return [...seen];
}

async function writeGzip(file: string, chunks: Iterable<Uint8Array | string>): Promise<void> {
  const gz = createGzip({ level: 6 });
  const done = once(gz.pipe(createWriteStream(file)), 'finish');
  for (const c of chunks) if (!gz.write(c)) await once(gz, 'drain');
  gz.end();
  await done;
}

/** The two sample folders and truth.csv, generated once per size. */
async function ensureData(cells: number): Promise<{ dir: string; samples: string[] }> {
  const dir = path.join(tmpdir(), 'cellcloud-bench-cli', `pbmclike-${cells}`);
  const samples = ['sample1', 'sample2'].map((s) => path.join(dir, s));
  if (existsSync(path.join(dir, 'truth.csv'))) return { dir, samples };
  const t0 = performance.now();
  const truth: string[] = ['barcode,cluster'];
  for (const [s, folder] of samples.entries()) {
    const n = s === 0 ? Math.ceil(cells / 2) : Math.floor(cells / 2);
    // same profile seed → the same clusters in both samples; other cells per sample
    const syn = syntheticDataset({ nCells: n, nGenes: GENES, meanUmi: MEAN_UMI, seed: 7, cellSeed: 100 + s });
    const codes = barcodes(n, 1000 + s);
    const name = path.basename(folder);
    codes.forEach((b, i) => truth.push(`${name}_${b},${syn.truth[i]}`));
    mkdirSync(folder, { recursive: true });
    await writeGzip(
      path.join(folder, 'matrix.mtx.gz'),
      matrixMarketChunks(cellBlocksOf(syn.dataset.counts), 'integer'),
    );
    await writeGzip(path.join(folder, 'features.tsv.gz'), [featuresTsv(syn.dataset.genes)]);
    await writeGzip(path.join(folder, 'barcodes.tsv.gz'), [codes.join('\n') + '\n']);
    const c = syn.dataset.counts;
    console.log(
      `wrote ${folder}: ${c.nCells} cells × ${c.nGenes} genes, ${(c.indices.length / c.nCells).toFixed(0)} detected genes per cell, ${(statSync(path.join(folder, 'matrix.mtx.gz')).size / 1048576).toFixed(0)} MB matrix.mtx.gz`,
    );
  }
  writeFileSync(path.join(dir, 'truth.csv'), truth.join('\n') + '\n');
  console.log(`data generated in ${((performance.now() - t0) / 1000).toFixed(0)} s (not timed below)`);
  return { dir, samples };
}

/** Machine-wide CPU ticks from /proc/stat (USER_HZ): busy (user, nice, system, irq, softirq), iowait, steal. */
function machineTicks(): { busy: number; iowait: number; steal: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const at = (i: number) => f[i] ?? 0;
  return { busy: at(0) + at(1) + at(2) + at(5) + at(6), iowait: at(4), steal: at(7) };
}

/** Percentage of the files' pages in the page cache (fincore), or undefined without fincore. */
function cachedPercent(files: string[]): number | undefined {
  const r = spawnSync('fincore', ['--bytes', '--noheadings', '--output', 'RES,SIZE', ...files], {
    encoding: 'utf8',
  });
  if (r.status !== 0) return undefined;
  let res = 0;
  let size = 0;
  for (const l of r.stdout.trim().split('\n')) {
    const [a, b] = l.trim().split(/\s+/).map(Number);
    res += a ?? 0;
    size += b ?? 0;
  }
  return size ? (100 * res) / size : undefined;
}

/** posix_fadvise(DONTNEED) on the input files only (no machine-wide cache drop). */
function evict(files: string[]): void {
  const py = `import os,sys\nfor f in sys.argv[1:]:\n  fd=os.open(f,os.O_RDONLY); os.posix_fadvise(fd,0,0,os.POSIX_FADV_DONTNEED); os.close(fd)`;
  spawnSync('python3', ['-c', py, ...files], { stdio: 'inherit' });
}

interface Timed {
  wall: number;
  cpu: number;
  peakMB: number;
  majorFaults: number;
  voluntary: number;
  involuntary: number;
  fsInputs: number;
  /** CPU seconds other processes used during the run (machine busy − this run), and steal. */
  othersCpu: number;
  steal: number;
  iowait: number;
  load: number[];
  cached?: number;
  stderr: string;
}

const HZ = 100; // USER_HZ on Linux

/** Runs `cmd` under /usr/bin/time -v from the repository root; its stderr is echoed as it comes ("  | "). */
async function timed(cmd: string[], inputs: string[]): Promise<Timed> {
  const cached = cachedPercent(inputs);
  const m0 = machineTicks();
  const child = spawn('/usr/bin/time', ['-v', ...cmd], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  let err = '';
  let echoed = 0;
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    err += d;
    // the command's own lines, not /usr/bin/time's report
    const stop = err.indexOf('\tCommand being timed');
    const end = stop >= 0 ? stop : err.lastIndexOf('\n') + 1;
    if (end > echoed) process.stdout.write(err.slice(echoed, end).replace(/^(?=.)/gm, '  | '));
    echoed = Math.max(echoed, end);
  });
  const [code] = (await once(child, 'close')) as [number | null];
  const m1 = machineTicks();
  const num = (label: string) => Number(new RegExp(`${label}: ([\\d.:]+)`).exec(err)?.[1] ?? NaN);
  const el = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)/.exec(err)?.[1] ?? '0';
  const wall = el.split(':').reduce((a, x) => a * 60 + Number(x), 0);
  if (code !== 0) throw new Error(`${cmd.join(' ')} failed (exit ${code})`);
  const cpu = num('User time \\(seconds\\)') + num('System time \\(seconds\\)');
  return {
    wall,
    cpu,
    peakMB: num('Maximum resident set size \\(kbytes\\)') / 1024,
    majorFaults: num('Major \\(requiring I/O\\) page faults'),
    voluntary: num('Voluntary context switches'),
    involuntary: num('Involuntary context switches'),
    fsInputs: num('File system inputs'),
    othersCpu: (m1.busy - m0.busy) / HZ - cpu,
    steal: (m1.steal - m0.steal) / HZ,
    iowait: (m1.iowait - m0.iowait) / HZ,
    load: loadavg(),
    cached,
    stderr: err.slice(0, err.lastIndexOf('\tCommand being timed')),
  };
}

function truthMap(dir: string): Map<string, string> {
  const lines = readFileSync(path.join(dir, 'truth.csv'), 'utf8').trim().split('\n').slice(1);
  return new Map(lines.map((l) => l.split(',') as [string, string]));
}

function ari(truth: Map<string, string>, cells: string[], clusters: string[]): number {
  const a: string[] = [];
  const b: string[] = [];
  cells.forEach((c, i) => {
    const t = truth.get(c);
    if (t !== undefined) {
      a.push(t);
      b.push(clusters[i]!);
    }
  });
  return adjustedRandIndex(a, b);
}

async function oursAri(out: string, truth: Map<string, string>): Promise<{ ari: number; cells: number }> {
  const src = fileRandomAccess(path.join(out, 'analysis.h5ad'));
  try {
    return await withH5adCellBlocks(src, 'analysis.h5ad', (p) => {
      const col = p.cells.columns.cluster;
      const clusters = col?.kind === 'categorical' ? col.values : [];
      return { ari: ari(truth, p.cells.barcodes, clusters), cells: p.cells.barcodes.length };
    });
  } finally {
    src.close();
  }
}

const f1 = (x: number) => x.toFixed(1);
const line = (t: Timed, what: string) =>
  `${what}: wall ${f1(t.wall)} s, CPU ${f1(t.cpu)} s (user+sys), peak RSS ${t.peakMB.toFixed(0)} MB; ` +
  `others' CPU ${f1(t.othersCpu)} s, steal ${f1(t.steal)} s, iowait ${f1(t.iowait)} s; ` +
  `ctx switches ${t.voluntary} vol / ${t.involuntary} invol, major faults ${t.majorFaults}, fs reads ${t.fsInputs}; ` +
  `input cached ${t.cached === undefined ? '?' : t.cached.toFixed(0) + ' %'}; load ${t.load.map((x) => x.toFixed(2)).join(' ')}`;

/** Rows of the CLI's --timings table: step → [wall, cpu]. */
function stepTimes(stderr: string): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  const at = stderr.lastIndexOf('timings:');
  if (at < 0) return out;
  for (const l of stderr.slice(at).split('\n').slice(2)) {
    const m = /^ {2}(\S.*?)\s+([\d.]+)\s+([\d.]+)\s/.exec(l);
    if (m) out.set(m[1]!, [Number(m[2]), Number(m[3])]);
  }
  return out;
}

const spread = (xs: number[]) => (Math.max(...xs) - Math.min(...xs)) / Math.min(...xs);

/** HEAD and the files under packages/ changed in the working tree (the CLI runs what is there). */
function revision(): string {
  const git = (...a: string[]) => spawnSync('git', a, { cwd: root, encoding: 'utf8' }).stdout?.trim() ?? '';
  const dirty = git('status', '--porcelain', '--', 'packages').split('\n').filter(Boolean).length;
  return `${git('rev-parse', '--short', 'HEAD')}${dirty ? ` + ${dirty} uncommitted file(s) under packages/` : ''}`;
}

const opts = parseOptions(process.argv.slice(2));
console.log(
  `bench:cli at ${revision()}: ${opts.cells} cells, ${opts.ours ? `${opts.runs} run(s) of ours` : 'not ours'}${opts.seurat ? ', Seurat once' : ''}; load ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
const { dir, samples } = await ensureData(opts.cells);
const inputs = samples.flatMap((s) =>
  ['matrix.mtx.gz', 'features.tsv.gz', 'barcodes.tsv.gz'].map((f) => path.join(s, f)),
);
const truth = truthMap(dir);
const out = path.join(dir, 'out');
const ours: Timed[] = [];
for (let run = 1; opts.ours && run <= opts.runs; run++) {
  rmSync(out, { recursive: true, force: true });
  if (opts.cold) evict(inputs);
  console.log(
    `\n--- ours, run ${run}: npx cellcloud analyze ${samples.map((s) => path.basename(s)).join(' ')} --out out --timings`,
  );
  const t = await timed(['npx', 'cellcloud', 'analyze', ...samples, '--out', out, '--timings'], inputs);
  ours.push(t);
  const a = await oursAri(out, truth);
  console.log(`${line(t, `ours run ${run}`)}; ARI ${a.ari.toFixed(3)} (${a.cells} cells kept)`);
}
if (ours.length > 1) {
  console.log(`\nspread over ${ours.length} runs ((max − min) / min):`);
  console.log(
    `  wall ${ours.map((t) => f1(t.wall)).join(' / ')} s → ${(100 * spread(ours.map((t) => t.wall))).toFixed(0)} %; ` +
      `CPU ${ours.map((t) => f1(t.cpu)).join(' / ')} s → ${(100 * spread(ours.map((t) => t.cpu))).toFixed(0)} %; ` +
      `peak RSS ${ours.map((t) => t.peakMB.toFixed(0)).join(' / ')} MB`,
  );
  const steps = ours.map((t) => stepTimes(t.stderr));
  for (const [name] of steps[0]!) {
    const w = steps.map((s) => s.get(name)?.[0] ?? NaN);
    const c = steps.map((s) => s.get(name)?.[1] ?? NaN);
    console.log(
      `  ${name.padEnd(12)} wall ${w.map(f1).join(' / ')} (${(100 * spread(w)).toFixed(0)} %), CPU ${c.map(f1).join(' / ')} (${(100 * spread(c)).toFixed(0)} %)`,
    );
  }
}
let seurat: Timed | undefined;
if (opts.seurat) {
  const csv = path.join(dir, 'seurat_clusters.csv');
  console.log(`\n--- Seurat (scripts/bench/cli-seurat.R: tutorial workflow, see its header)`);
  seurat = await timed(['Rscript', path.join(root, 'scripts/bench/cli-seurat.R'), csv, ...samples], inputs);
  const rows = readFileSync(csv, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','));
  const a = ari(
    truth,
    rows.map((r) => r[0]!),
    rows.map((r) => r[1]!),
  );
  console.log(`${line(seurat, 'Seurat')}; ARI ${a.toFixed(3)} (${rows.length} cells kept)`);
}
if (seurat && ours.length) {
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  const w = med(ours.map((t) => t.wall));
  const c = med(ours.map((t) => t.cpu));
  console.log(
    `\nSeurat / ours (median of ours): wall ${f1(seurat.wall)} / ${f1(w)} = ${(seurat.wall / w).toFixed(2)}×, ` +
      `CPU ${f1(seurat.cpu)} / ${f1(c)} = ${(seurat.cpu / c).toFixed(2)}×, peak RSS ${seurat.peakMB.toFixed(0)} / ${med(ours.map((t) => t.peakMB)).toFixed(0)} MB`,
  );
}
console.log(
  JSON.stringify({
    cells: opts.cells,
    ours: ours.map(({ stderr, ...t }) => ({ ...t, steps: Object.fromEntries(stepTimes(stderr)) })),
    ...(seurat ? { seurat: { ...seurat, stderr: undefined } } : {}),
  }),
);
