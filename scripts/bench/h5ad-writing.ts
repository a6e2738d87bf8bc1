/**
 * npx tsx scripts/bench/h5ad-writing.ts levers STORE [values=30000000] — the deflate levers of
 * analysis.h5ad's large arrays (issue 33, docs/benchmarks/h5ad-writing.md), on the first `values`
 * non-zeros of a count store (e.g. scripts/bench/write-streamed.ts prepare's DIR/synth.store): for
 * the counts (float32), the log-normalized values (float32) and the indices (int32), each gzip
 * level × byte shuffle × chunk size, the CPU seconds of deflating every chunk (on this thread,
 * zlib's deflateSync) and the compressed bytes per non-zero.
 * npx tsx scripts/bench/h5ad-writing.ts write STORE — analysis.h5ad alone (X, layers/counts, obs,
 * var) written from the store's cells as the streamed job writes it (csrOfChunks of 98 % of the
 * cells, log1p(CP10k) where read): wall, CPU seconds of the process (the libuv pool's deflate
 * included) and of the main thread, bytes per dataset, peak RSS and the load average.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { deflate, deflateSync } from 'node:zlib';
import { beginH5adRanges } from '@cellcloud/formats';
import { setDeflateImplementation } from '../../packages/formats/src/hdf5-write';
import { shuffleBytes } from '../../packages/formats/src/hdf5-filters';
import { fileRandomAccess, fileSink } from '@cellcloud/formats/node-sources';
import { openCountStore } from '@cellcloud/formats/store';
import { keepCells, logNormalizedCells } from '../../packages/engine/src/stream/views';
import { csrOfChunks } from '../../packages/engine/src/stream/write-cells';
import { H5AD_DEFLATE_LEVEL } from '../../packages/engine/src/write-outputs';

const [mode, storePath, arg] = process.argv.slice(2);
if (!['levers', 'write'].includes(mode ?? '') || !storePath) {
  console.error('usage: h5ad-writing.ts levers|write STORE [values]');
  process.exit(2);
}
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const cpuS = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1e6;

/** The kept cells (all but one in 50, as write-streamed.ts) and their log-normalized values. */
function matrices(store: ReturnType<typeof openCountStore>) {
  const all = store.cells;
  const kept = Uint32Array.from({ length: all.nCells }, (_, c) => c).filter((c) => c % 50 !== 49);
  const counts = keepCells(all, kept);
  const totals = new Float64Array(kept.length);
  for (let i = 0, c = 0; i < counts.chunkCount; i++) {
    const { indptr, data } = counts.chunk(i);
    for (let k = 0; k + 1 < indptr.length; k++, c++)
      totals[c] = data.subarray(indptr[k], indptr[k + 1]).reduce((x, y) => x + y, 0);
  }
  return { kept, counts, normalized: logNormalizedCells(counts, totals), totals };
}

async function levers(values: number): Promise<void> {
  const source = fileRandomAccess(storePath);
  const { counts, normalized } = matrices(openCountStore(source));
  const n = Math.min(values, counts.nnz);
  const x = csrOfChunks(normalized, counts);
  const c = csrOfChunks(counts);
  const arrays: [string, Uint8Array][] = [
    ['counts f32', new Uint8Array(c.data(0, n).buffer)],
    ['normalized f32', new Uint8Array(x.data(0, n).buffer)],
    ['indices i32', new Uint8Array(c.indices(0, n).buffer)],
  ];
  console.log(`${n} non-zeros of ${counts.nnz}; load ${load()}`);
  console.log('array | level | shuffle | chunk elements | CPU s | B per non-zero | MB/s');
  for (const [name, raw] of arrays)
    for (const chunk of [262144, 1048576])
      for (const shuffle of [false, true])
        for (const level of [1, 2, 4, 6]) {
          if (chunk !== 262144 && level !== 1) continue;
          const c0 = process.threadCpuUsage();
          let bytes = 0;
          const tmp = new Uint8Array(chunk * 4);
          for (let s = 0; s < raw.length; s += chunk * 4) {
            let piece = raw.subarray(s, Math.min(raw.length, s + chunk * 4));
            if (shuffle) piece = shuffleBytes(piece, 4, tmp.subarray(0, piece.length));
            bytes += deflateSync(piece, { level }).length;
          }
          const cpu = cpuS(process.threadCpuUsage(c0));
          console.log(
            `${name} | ${level} | ${shuffle} | ${chunk} | ${cpu.toFixed(2)} | ${(bytes / n).toFixed(3)} | ${(raw.length / 1e6 / cpu).toFixed(0)}`,
          );
        }
  source.close();
}

async function write(): Promise<void> {
  const source = fileRandomAccess(storePath);
  const store = openCountStore(source);
  const { kept, counts, normalized } = matrices(store);
  const how = process.env.BENCH_DEFLATE;
  if (how === 'sync') setDeflateImplementation((bytes, level) => deflateSync(bytes, { level }));
  if (how === 'one-pass')
    setDeflateImplementation(
      (bytes, level) =>
        new Promise((resolve, reject) =>
          deflate(bytes, { level, chunkSize: bytes.length + 1024 }, (err, z) =>
            err ? reject(err) : resolve(new Uint8Array(z.buffer, z.byteOffset, z.byteLength)),
          ),
        ),
    );
  if (process.env.BENCH_DECODE) {
    for (const [name, cells] of [
      ['counts', counts],
      ['normalized', normalized],
    ] as const) {
      const t = performance.now();
      const c = process.threadCpuUsage();
      for (let i = 0; i < cells.chunkCount; i++) cells.chunk(i);
      console.log(
        `decode ${name}: ${((performance.now() - t) / 1000).toFixed(1)} s wall, ${cpuS(process.threadCpuUsage(c)).toFixed(1)} CPU s`,
      );
    }
  }
  const out = mkdtempSync(path.join(tmpdir(), 'cellcloud-bench-h5ad-'));
  const file = path.join(out, 'analysis.h5ad');
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const m0 = process.threadCpuUsage();
  try {
    const sink = await fileSink(file);
    const h5 = await beginH5adRanges(
      {
        counts: csrOfChunks(counts),
        normalized: csrOfChunks(normalized, counts),
        genes: { ids: store.geneIds, symbols: store.geneSymbols },
        barcodes: Array.from(kept, (c) => store.barcodes[c]!),
        compression: H5AD_DEFLATE_LEVEL,
      },
      sink,
    );
    const size = await h5.finish({
      obs: { cluster: { kind: 'categorical', values: Array.from(kept, (c) => String(c % 10)) } },
    });
    await sink.close();
    const wall = (performance.now() - t0) / 1000;
    const cpu = cpuS(process.cpuUsage(c0));
    const main = cpuS(process.threadCpuUsage(m0));
    console.log(
      `analysis.h5ad: ${kept.length} cells, ${counts.nnz} non-zeros: ${wall.toFixed(1)} s wall, ` +
        `${cpu.toFixed(1)} CPU s (main thread ${main.toFixed(1)}), ${(size / 1e6).toFixed(1)} MB ` +
        `= ${(size / counts.nnz).toFixed(3)} B per non-zero (file ${(statSync(file).size / 1e6).toFixed(1)} MB)`,
    );
    console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB; load ${load()}`);
  } finally {
    source.close();
    rmSync(out, { recursive: true, force: true });
  }
}

if (mode === 'levers') await levers(Number(arg ?? 30_000_000));
else await write();
