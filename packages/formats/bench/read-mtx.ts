/**
 * Benchmark of the 10x MTX reader on a synthetic ~400 MB matrix.mtx (generated once into the OS
 * temp directory), plain and gzipped, plus the h5ad and explorer-artifact writers on the result.
 * Run: npm run bench -w @cellcloud/formats   (env BENCH_CELLS to change the size; default 25000)
 * Prints one JSON line per measurement: wall seconds and CPU seconds (the machine may be shared,
 * so CPU-based MB/s is the fairer figure).
 */
import { createWriteStream, existsSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createGzip } from 'node:zlib';
import { read10xMtxFiles, writeArtifacts, writeH5ad } from '../src/index';
import { fileSource } from '../src/node-sources';

const nGenes = 20000;
const nCells = Number(process.env.BENCH_CELLS ?? 25000);
const perCell = 1200;
const dir = path.join(tmpdir(), `cellcloud-bench-mtx-${nGenes}x${nCells}`);

let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);

function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
}

async function generate(): Promise<void> {
  if (existsSync(path.join(dir, 'done'))) return;
  const { mkdirSync } = await import('node:fs');
  mkdirSync(dir, { recursive: true });
  const rand = rng(42);
  const cells: Uint32Array[] = [];
  let nnz = 0;
  for (let j = 0; j < nCells; j++) {
    const genes: number[] = [];
    for (
      let g = Math.floor(rand() * 30);
      g < nGenes;
      g += 1 + Math.floor((-Math.log(1 - rand()) * nGenes) / perCell)
    )
      genes.push(g);
    cells.push(Uint32Array.from(genes));
    nnz += genes.length;
  }
  const plain = createWriteStream(path.join(dir, 'matrix.mtx'));
  const gz = createGzip({ level: 6 });
  gz.pipe(createWriteStream(path.join(dir, 'matrix.mtx.gz')));
  const write = async (s: string) => {
    const ok1 = plain.write(s);
    const ok2 = gz.write(s);
    if (!ok1) await once(plain, 'drain');
    if (!ok2) await once(gz, 'drain');
  };
  await write(`%%MatrixMarket matrix coordinate integer general\n%\n${nGenes} ${nCells} ${nnz}\n`);
  for (let j = 0; j < nCells; j++) {
    let s = '';
    for (const g of cells[j]!) s += `${g + 1} ${j + 1} ${1 + Math.floor(rand() ** 3 * 12)}\n`;
    await write(s);
  }
  plain.end();
  gz.end();
  await Promise.all([once(plain, 'finish'), once(gz, 'end')]);
  await new Promise((r) => setTimeout(r, 200));
  writeFileSync(
    path.join(dir, 'features.tsv'),
    Array.from(
      { length: nGenes },
      (_, g) => `ENSG${String(g).padStart(11, '0')}\tGENE${g}\tGene Expression`,
    ).join('\n') + '\n',
  );
  writeFileSync(
    path.join(dir, 'barcodes.tsv'),
    Array.from({ length: nCells }, (_, j) => `CELL${j}-1`).join('\n') + '\n',
  );
  writeFileSync(path.join(dir, 'done'), '');
}

async function main() {
  let t = performance.now();
  await generate();
  console.error(`fixture ready in ${((performance.now() - t) / 1000).toFixed(1)} s: ${dir}`);
  const features = await fileSource(path.join(dir, 'features.tsv'));
  const barcodes = await fileSource(path.join(dir, 'barcodes.tsv'));
  const mtxBytes = statSync(path.join(dir, 'matrix.mtx')).size;
  let ds;
  for (const name of ['matrix.mtx', 'matrix.mtx.gz']) {
    peak = 0;
    t = performance.now();
    const cpu0 = process.cpuUsage();
    ds = await read10xMtxFiles(
      { matrix: await fileSource(path.join(dir, name)), features, barcodes, version: 'v3' },
      'bench',
    );
    const s = (performance.now() - t) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const cpuS = (cpu.user + cpu.system) / 1e6;
    console.log(
      JSON.stringify({
        bench: `read ${name}`,
        mtxMB: Math.round(mtxBytes / 1e6),
        nnz: ds.counts.indptr[nCells],
        seconds: +s.toFixed(2),
        cpuSeconds: +cpuS.toFixed(2),
        MBpsWall: Math.round(mtxBytes / 1e6 / s),
        MBpsCpu: Math.round(mtxBytes / 1e6 / cpuS),
        peakRssMB: Math.round(peak / 2 ** 20),
      }),
    );
  }
  const counts = ds!.counts;
  t = performance.now();
  const h5 = await writeH5ad({ counts, genes: ds!.genes, barcodes: ds!.cells.barcodes, compression: 0 });
  console.log(
    JSON.stringify({
      bench: 'writeH5ad (no compression)',
      seconds: +((performance.now() - t) / 1000).toFixed(2),
      MB: Math.round(h5.length / 1e6),
    }),
  );
  let written = 0;
  t = performance.now();
  await writeArtifacts(
    { engineVersion: 'bench', species: 'Homo sapiens', genes: ds!.genes, nCells, layers: { counts } },
    { write: async (_p, b) => void (written += b.length) },
  );
  console.log(
    JSON.stringify({
      bench: 'writeArtifacts (counts layer)',
      seconds: +((performance.now() - t) / 1000).toFixed(2),
      MB: Math.round(written / 1e6),
    }),
  );
  clearInterval(sampler);
}

void main();
