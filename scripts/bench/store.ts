/**
 * npm run bench:store [-- --cells 50000] — the count store (docs/formats/count-store.md) against
 * the uncompressed 8 B per non-zero and a deflate h5ad written by our own write-h5ad.ts, on pbmc3k
 * and a synthetic matrix: bytes per non-zero, read throughput (non-zeros per second: cell chunks,
 * gene blocks) and write throughput. Wall and CPU seconds, peak RSS and the load average are
 * printed so runs on a shared machine can be compared.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { syntheticDataset } from '@cellcloud/engine/synthetic';
import { readDataset } from '@cellcloud/formats';
import { datasetAt, groupAt, withH5Source } from '@cellcloud/formats/h5-io';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { fileRandomAccess, fileSink, folderBundle } from '@cellcloud/formats/node-sources';
import { CountStoreWriter, openCountStore } from '@cellcloud/formats/store';
import { writeH5adTo } from '@cellcloud/formats/write-h5ad';
import { sharedData } from '@cellcloud/testkit';

interface Timed<T> {
  value: T;
  wall: number;
  cpu: number;
}

async function timed<T>(fn: () => Promise<T> | T): Promise<Timed<T>> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await fn();
  const c = process.cpuUsage(c0);
  return { value, wall: (performance.now() - t0) / 1000, cpu: (c.user + c.system) / 1e6 };
}

const fmt = (x: number, d = 2) => x.toFixed(d);
const mnz = (nnz: number, s: number) => `${fmt(nnz / s / 1e6, 0)} M/s`;
const line = (label: string, t: Timed<unknown>, nnz: number) =>
  console.log(
    `  ${label.padEnd(34)} ${fmt(t.wall).padStart(7)} s wall ${fmt(t.cpu).padStart(7)} s CPU  ${mnz(nnz, t.cpu).padStart(9)} per CPU s`,
  );

async function bench(
  name: string,
  m: CountMatrix,
  barcodes: string[],
  geneIds: string[],
  dir: string,
): Promise<void> {
  const nnz = m.indptr[m.nCells]!;
  console.log(`\n${name}: ${m.nCells} cells × ${m.nGenes} genes, ${nnz} non-zeros`);
  const storePath = path.join(dir, `${name}.store`);
  const w = await timed(async () => {
    const sink = await fileSink(storePath);
    const writer = new CountStoreWriter(sink, { geneIds, geneSymbols: geneIds });
    for (let c0 = 0; c0 < m.nCells; c0 += 4096) {
      const c1 = Math.min(m.nCells, c0 + 4096);
      const s = m.indptr[c0]!;
      const e = m.indptr[c1]!;
      const indptr = m.indptr.slice(c0, c1 + 1).map((x) => x - s);
      await writer.addCells(
        {
          nGenes: m.nGenes,
          nCells: c1 - c0,
          indptr,
          indices: m.indices.subarray(s, e),
          data: m.data.subarray(s, e),
        },
        barcodes.slice(c0, c1),
      );
    }
    const r = await writer.finish();
    await sink.close();
    return r;
  });
  const h5Path = path.join(dir, `${name}.h5ad`);
  const hw = await timed(async () => {
    const sink = await fileSink(h5Path);
    await writeH5adTo({ counts: m, genes: { ids: geneIds, symbols: geneIds }, barcodes }, sink);
    await sink.close();
  });
  const source = fileRandomAccess(storePath);
  const store = openCountStore(source);
  const cellBytes = store.bytes - store.geneMajorBytes;
  const h5Bytes = statSync(h5Path).size;
  console.log('  bytes per non-zero');
  console.log(`    uncompressed (u32 index + f32 value)   8.00`);
  console.log(`    store, cell-major alone               ${fmt(cellBytes / nnz)}`);
  console.log(`    store, with the gene-major copy       ${fmt(store.bytes / nnz)}`);
  console.log(`    h5ad CSR, deflate 4 (write-h5ad.ts)   ${fmt(h5Bytes / nnz)}`);
  console.log('  write');
  line('store (cells + gene tiles)', w, nnz);
  line('h5ad (deflate 4, X only)', hw, nnz);
  console.log('  read');
  const rc = await timed(() => {
    let sum = 0;
    for (let i = 0; i < store.cells.chunkCount; i++) sum += store.cells.chunk(i).indptr.length;
    return sum;
  });
  line('store, all cell chunks', rc, nnz);
  const rg = await timed(() => {
    let n = 0;
    for (let g0 = 0; g0 < m.nGenes; g0 += 1000)
      n += store.genes.genes(g0, Math.min(m.nGenes, g0 + 1000)).indices.length;
    return n;
  });
  line('store, all genes, blocks of 1000', rg, nnz);
  const one = await timed(() => store.genes.genes(m.nGenes >> 1, (m.nGenes >> 1) + 1));
  console.log(`  ${'store, one gene (cold)'.padEnd(34)} ${fmt(one.wall * 1000, 1).padStart(7)} ms wall`);
  source.close();
  // the h5ad path: CSR X sliced in blocks of about 1M non-zeros through h5wasm (withH5adCellBlocks' way)
  const hsrc = fileRandomAccess(h5Path);
  const hr = await timed(() =>
    withH5Source(hsrc, h5Path, (f) => {
      const x = groupAt(f, 'X')!;
      const indices = datasetAt(x, 'indices')!;
      const data = datasetAt(x, 'data')!;
      let n = 0;
      for (let s = 0; s < nnz; s += 1 << 20) {
        const e = Math.min(nnz, s + (1 << 20));
        n += (indices.slice([[s, e]]) as Uint32Array).length + (data.slice([[s, e]]) as Float32Array).length;
      }
      return n;
    }),
  );
  hsrc.close();
  line('h5ad, all cells (no gene access)', hr, nnz);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const cellsArg = args.indexOf('--cells');
  const nSynth = cellsArg >= 0 ? Number(args[cellsArg + 1]) : 50_000;
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-store-'));
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  try {
    const pbmc = sharedData('pbmc3k/10x');
    if (pbmc) {
      const ds = await readDataset(await folderBundle(pbmc));
      await bench('pbmc3k', ds.counts, ds.cells.barcodes, ds.genes.ids, dir);
    } else console.log('pbmc3k: shared data not found, skipped');
    const synth = syntheticDataset({ nCells: nSynth, seed: 33 }).dataset;
    await bench(
      `synth${Math.round(nSynth / 1000)}k`,
      synth.counts,
      synth.cells.barcodes,
      synth.genes.ids,
      dir,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const c = process.cpuUsage(c0);
  console.log(
    `\nwhole run ${fmt((performance.now() - t0) / 1000, 1)} s wall, ${fmt((c.user + c.system) / 1e6, 1)} s CPU, ` +
      `peak RSS ${fmt(process.resourceUsage().maxRSS / 1024, 0)} MB, load average ${loadavg()
        .map((x) => fmt(x))
        .join(' ')}`,
  );
}

await main();
