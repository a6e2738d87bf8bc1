/**
 * npx tsx scripts/bench/scrublet.ts [synth50k | pbmc3k | ifnb] — issue 14: Scrublet alone on one
 * sample, CPU seconds (process.cpuUsage, all threads) per phase as its progress messages mark
 * them, the load average next to them. `BENCH_SCRUBLET_SAVE=file` writes the scores and calls;
 * `BENCH_SCRUBLET_REF=file` compares with a saved run (Jaccard and agreement of the called
 * doublets, Pearson correlation of the scores). synth50k is one synthetic 50k-cell sample (the
 * bench's synth100k sample; cached in the temporary folder). Asserts nothing.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { readDataset } from '@cellcloud/formats';
import { filesBundle } from '@cellcloud/formats/node-sources';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { scrublet } from '@cellcloud/engine/methods/scrublet';
import { syntheticDataset } from '@cellcloud/engine/synthetic';
import { sharedData } from '@cellcloud/testkit';

const which = process.argv[2] ?? 'synth50k';
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

async function input(): Promise<CountMatrix> {
  if (which === 'synth50k') {
    const cache = join(tmpdir(), 'cellcloud-scrublet-synth50k.bin');
    if (existsSync(cache)) {
      const b = readFileSync(cache);
      const head = new Float64Array(b.buffer.slice(b.byteOffset, b.byteOffset + 24));
      const [nCells, nGenes, nnz] = Array.from(head);
      let o = b.byteOffset + 24;
      const take = <T>(K: new (x: ArrayBuffer) => T, bytes: number): T => {
        const t = new K(b.buffer.slice(o, o + bytes));
        o += bytes;
        return t;
      };
      const indptr = take(Float64Array, (nCells + 1) * 8);
      const indices = take(Uint32Array, nnz * 4);
      const data = take(Float32Array, nnz * 4);
      return { nCells, nGenes, indptr, indices, data };
    }
    const m = syntheticDataset({ nCells: 50_000, nGenes: 20_000, nClusters: 10, seed: 7, cellSeed: 100 })
      .dataset.counts;
    const head = Float64Array.of(m.nCells, m.nGenes, m.data.length);
    const parts = [head, Float64Array.from(m.indptr), Uint32Array.from(m.indices), Float32Array.from(m.data)];
    writeFileSync(cache, Buffer.concat(parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength))));
    return m;
  }
  const dir = which === 'pbmc3k' ? 'pbmc3k/10x' : 'ifnb_kang2018_subset';
  const files = ['matrix.mtx.gz', 'genes.tsv.gz', 'barcodes.tsv.gz'].map((f) => join(sharedData(dir)!, f));
  const ds = await readDataset(await filesBundle(which, files));
  return ds.counts;
}

const counts = await input();
console.log(`${which}: ${counts.nCells} cells, ${counts.data.length} non-zeros; load ${load()}`);
const c0 = process.cpuUsage();
const t0 = performance.now();
let last = { cpu: 0, wall: 0, phase: 'start' };
const cpu = () => {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
};
const mark = (phase: string) => {
  const now = { cpu: cpu(), wall: (performance.now() - t0) / 1e3, phase };
  if (last.phase !== 'start' || now.cpu > 0.05)
    console.log(
      `  ${last.phase.padEnd(36)} ${(now.wall - last.wall).toFixed(2).padStart(7)} s wall ${(now.cpu - last.cpu).toFixed(2).padStart(7)} CPU s`,
    );
  last = now;
};
const res = await scrublet(counts, { seed: 42, onProgress: (_, m) => mark(m) });
mark('end');
console.log(
  `total ${last.wall.toFixed(2)} s wall / ${last.cpu.toFixed(2)} CPU s; threshold ${res.threshold.toFixed(4)}, called ${(100 * res.doubletRate).toFixed(2)}% (rate ${res.expectedDoubletRate}); load ${load()}`,
);
const save = process.env.BENCH_SCRUBLET_SAVE;
if (save)
  writeFileSync(
    save,
    JSON.stringify({ scores: Array.from(res.scores), predicted: Array.from(res.predicted) }),
  );
const ref = process.env.BENCH_SCRUBLET_REF;
if (ref) {
  const r = JSON.parse(readFileSync(ref, 'utf8')) as { scores: number[]; predicted: number[] };
  let both = 0;
  let either = 0;
  let same = 0;
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  const n = r.scores.length;
  for (let i = 0; i < n; i++) {
    const a = r.predicted[i];
    const b = res.predicted[i];
    if (a && b) both++;
    if (a || b) either++;
    if (a === b) same++;
    const x = r.scores[i];
    const y = res.scores[i];
    sx += x;
    sy += y;
    sxx += x * x;
    syy += y * y;
    sxy += x * y;
  }
  const cov = sxy / n - (sx / n) * (sy / n);
  const corr = cov / Math.sqrt((sxx / n - (sx / n) ** 2) * (syy / n - (sy / n) ** 2));
  console.log(
    `vs ${ref}: called ${r.predicted.reduce((s, v) => s + v, 0)} → ${res.predicted.reduce((s, v) => s + v, 0)}, Jaccard ${(both / Math.max(1, either)).toFixed(4)}, agreement ${(same / n).toFixed(5)}, score correlation ${corr.toFixed(5)}`,
  );
}
process.exit(0);
