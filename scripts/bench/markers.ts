/**
 * npx tsx scripts/bench/markers.ts <cells> [threads] [reference.ts] — the Wilcoxon markers test
 * (stats/wilcoxon.ts) alone on synthetic data (packages/engine/src/synthetic.ts, 20,000 genes,
 * 12 clusters, the known clusters as groups), log-normalized. Prints wall and CPU seconds (all
 * threads), the load average, and a SHA-256 of every result array, so that two implementations or
 * thread counts can be checked for identical tables (and the calling thread's own CPU seconds). The normalized matrix is cached in
 * $TMPDIR/cellcloud-markers-<cells>.bin (generation takes minutes at 100k cells).
 * `reference.ts`: another module exporting wilcoxonByGroup (e.g. the previous version) to time.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { syntheticDataset } from '@cellcloud/engine/synthetic';
import { logNormalize } from '@cellcloud/engine/steps/normalize';
import type { GroupTestResult } from '@cellcloud/engine/stats/wilcoxon';

type Wilcoxon = (
  norm: CountMatrix,
  labels: Int32Array,
  nGroups: number,
  onProgress?: (f: number) => void,
  options?: { threads?: number },
) => GroupTestResult;

const nCells = Number(process.argv[2] ?? 20_000);
const threads = Number(process.argv[3] ?? 2);
const reference = process.argv[4];
const N_CLUSTERS = 12;

function load(): { norm: CountMatrix; labels: Int32Array } {
  const file = path.join(tmpdir(), `cellcloud-markers-${nCells}.bin`);
  if (!existsSync(file)) {
    const { dataset, truth } = syntheticDataset({ nCells, nClusters: N_CLUSTERS, seed: 1 });
    const norm = logNormalize(dataset.counts);
    const head = Float64Array.of(norm.nGenes, norm.nCells, norm.indices.length);
    const parts = [head, norm.indptr, norm.indices, norm.data, truth];
    writeFileSync(file, Buffer.concat(parts.map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength))));
  }
  const buf = readFileSync(file);
  const [nGenes, cells, nnz] = new Float64Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + 24));
  let off = buf.byteOffset + 24;
  // shared arrays, as the normalize step allocates them (the worker thread reads them)
  const take = <T extends Float64Array | Uint32Array | Float32Array | Int32Array>(
    Kind: new (b: SharedArrayBuffer) => T,
    length: number,
    bytes: number,
  ): T => {
    const out = new Kind(new SharedArrayBuffer(length * bytes));
    new Uint8Array(out.buffer).set(new Uint8Array(buf.buffer, off, length * bytes));
    off += length * bytes;
    return out;
  };
  const indptr = take(Float64Array, cells + 1, 8);
  const indices = take(Uint32Array, nnz, 4);
  const data = take(Float32Array, nnz, 4);
  const labels = take(Int32Array, cells, 4);
  return { norm: { nGenes, nCells: cells, indptr, indices, data }, labels };
}

const { norm, labels } = load();
const mod = (await import(reference ? path.resolve(reference) : '@cellcloud/engine/stats/wilcoxon')) as {
  wilcoxonByGroup: Wilcoxon;
};
const load0 = loadavg()[0];
const cpu0 = process.cpuUsage();
const thread0 = process.threadCpuUsage();
const t0 = performance.now();
const res = mod.wilcoxonByGroup(norm, labels, N_CLUSTERS, undefined, { threads });
const wall = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const thread = process.threadCpuUsage(thread0);
const hash = createHash('sha256');
for (const key of ['z', 'pval', 'padj', 'log2fc', 'meanGroup', 'pct1', 'pct2'] as const)
  for (const a of res[key]) hash.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
console.log(
  JSON.stringify({
    impl: reference ? path.basename(reference) : 'current',
    cells: nCells,
    nnz: norm.indices.length,
    threads: reference ? 1 : threads,
    wallSeconds: +wall.toFixed(2),
    cpuSeconds: +((cpu.user + cpu.system) / 1e6).toFixed(2),
    mainThreadCpuSeconds: +((thread.user + thread.system) / 1e6).toFixed(2),
    load: [load0, loadavg()[0]].map((l) => +l.toFixed(2)),
    blocksInWorker: mod.lastWilcoxon ? `${mod.lastWilcoxon.inWorker}/${mod.lastWilcoxon.blocks}` : undefined,
    sha256: hash.digest('hex').slice(0, 16),
  }),
);
