/**
 * npx tsx scripts/bench/artifacts-writing.ts STORE — the explorer artifacts' expression layers
 * (counts and log1p(CP10k), format 2, from gene blocks) of a count store as the streamed job
 * writes them (issue 33, docs/benchmarks/h5ad-writing.md): 98 % of the cells kept, as
 * write-streamed.ts. Prints wall, CPU seconds, peak RSS, the load average and the SHA-256 of
 * every file written (to check that a change keeps the bytes).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { beginArtifacts } from '@cellcloud/formats/write-artifacts';
import { fileRandomAccess } from '@cellcloud/formats/node-sources';
import { openCountStore } from '@cellcloud/formats/store';
import { CompactWriter } from '../../packages/formats/src/artifacts/compact';
import { directorySink } from '@cellcloud/engine/cli/fs-sink';
import { keepCellsGenes, logNormalizedGenes } from '../../packages/engine/src/stream/views';

const storePath = process.argv[2];
if (!storePath) {
  console.error('usage: artifacts-writing.ts STORE');
  process.exit(2);
}
// the CPU seconds of the compact chunk encoder alone (this thread, summed over its calls)
let encoderCpu = 0;
const add = CompactWriter.prototype.add;
CompactWriter.prototype.add = function (this: CompactWriter, cells, values) {
  const t = process.threadCpuUsage();
  add.call(this, cells, values);
  const u = process.threadCpuUsage(t);
  encoderCpu += (u.user + u.system) / 1e6;
};
console.log('modules loaded');
const source = fileRandomAccess(storePath);
const store = openCountStore(source);
const all = store.cells;
const kept = Uint32Array.from(
  { length: all.nCells - Math.floor(all.nCells / 50) },
  (_, i) => i + Math.floor(i / 49),
);
const countsGenes = keepCellsGenes(store.genes, kept);
// each kept cell's total count (integer sums: exact in any order), a block of genes at a time
const totals = new Float64Array(kept.length);
for (let g0 = 0; g0 < store.genes.nGenes; g0 += 2000) {
  const { indices, data } = countsGenes.genes(g0, Math.min(store.genes.nGenes, g0 + 2000));
  for (let k = 0; k < indices.length; k++) totals[indices[k]!]! += data[k]!;
}
const out = mkdtempSync(path.join(tmpdir(), 'cellcloud-bench-artifacts-'));
const t0 = performance.now();
const c0 = process.cpuUsage();
try {
  await beginArtifacts(
    {
      engineVersion: 'bench',
      species: 'human',
      genes: { ids: store.geneIds, symbols: store.geneSymbols },
      nCells: kept.length,
      layers: {},
      geneLayers: { counts: countsGenes, normalized: logNormalizedGenes(countsGenes, totals) },
    },
    directorySink(out),
  );
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(c0);
  console.log(
    `artifact layers: ${kept.length} cells, ${countsGenes.geneNnz.reduce((a, b) => a + b, 0)} non-zeros: ${wall.toFixed(1)} s wall, ` +
      `${((cpu.user + cpu.system) / 1e6).toFixed(1)} CPU s, of which the chunk encoder ${encoderCpu.toFixed(1)} CPU s`,
  );
  const files = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(path.join(d, e.name)) : [path.join(d, e.name)],
    );
  for (const f of files(out).sort())
    console.log(`${createHash('sha256').update(readFileSync(f)).digest('hex')}  ${path.relative(out, f)}`);
  const load = loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB; load ${load}`);
} finally {
  source.close();
  rmSync(out, { recursive: true, force: true });
}
