/**
 * npx tsx scripts/bench/artifacts-writing.ts STORE… [--separate] — the explorer artifacts'
 * expression layers (counts and log1p(CP10k), format 2, from gene blocks) of count stores merged
 * as the samples of one streamed job, as write-streamed.ts writes them (issue 33,
 * docs/benchmarks/h5ad-writing.md, store-passes.md): 98 % of the cells kept, every detected gene,
 * through stream/merge.ts, select.ts and views.ts. `--separate`: each layer decodes its own blocks
 * (no geneLayersSharingBlocks). Prints wall, CPU seconds, peak RSS, the load average and the
 * SHA-256 of every file written (to check that a change keeps the bytes).
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
import { mergeStreamed } from '../../packages/engine/src/stream/merge';
import { countStored, selectCells, selectGenes, selection } from '../../packages/engine/src/stream/select';
import { storeSample } from '../../packages/engine/src/stream/types';
import { geneLayersSharingBlocks, logNormalizedGenes } from '../../packages/engine/src/stream/views';

const files = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (files.length === 0) {
  console.error('usage: artifacts-writing.ts STORE… [--separate]');
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
const sources = files.map((f) => fileRandomAccess(f));
const merged = mergeStreamed(sources.map((s, i) => storeSample(path.basename(files[i]), openCountStore(s))));
const n = merged.cells.nCells;
// 98 % of the cells (one in 50 dropped, as filters and doublets do), every gene with a value
const kept = Uint32Array.from({ length: n - Math.floor(n / 50) }, (_, i) => i + Math.floor(i / 49));
const anyStored = new Uint8Array(merged.cells.nGenes);
for (let i = 0; i < merged.cells.chunkCount; i++)
  for (const g of merged.cells.chunk(i).indices) anyStored[g] = 1;
const sel = selection(kept, anyStored);
const stored = countStored(selectCells(merged.cells, sel));
const countsGenes = selectGenes(merged.genes, sel, stored.geneNnz);
const normalizedGenes = logNormalizedGenes(countsGenes, stored.totals, stored.kind);
const geneLayers = process.argv.includes('--separate')
  ? { counts: countsGenes, normalized: normalizedGenes }
  : geneLayersSharingBlocks(countsGenes, normalizedGenes);
const geneIds = Array.from(sel.genes, (g) => merged.geneIds[g]);
const geneSymbols = Array.from(sel.genes, (g) => merged.geneSymbols[g]);
// the setup's (the cell pass of countStored) peak, apart from the writer's
console.log(`peak RSS after the setup ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
const out = mkdtempSync(path.join(tmpdir(), 'cellcloud-bench-artifacts-'));
const t0 = performance.now();
const c0 = process.cpuUsage();
try {
  await beginArtifacts(
    {
      engineVersion: 'bench',
      species: 'human',
      genes: { ids: geneIds, symbols: geneSymbols },
      nCells: kept.length,
      layers: {},
      geneLayers,
    },
    directorySink(out),
  );
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(c0);
  console.log(
    `artifact layers: ${kept.length} cells, ${countsGenes.geneNnz.reduce((a, b) => a + b, 0)} non-zeros: ${wall.toFixed(1)} s wall, ` +
      `${((cpu.user + cpu.system) / 1e6).toFixed(1)} CPU s, of which the chunk encoder ${encoderCpu.toFixed(1)} CPU s`,
  );
  const listFiles = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? listFiles(path.join(d, e.name)) : [path.join(d, e.name)],
    );
  for (const f of listFiles(out).sort())
    console.log(`${createHash('sha256').update(readFileSync(f)).digest('hex')}  ${path.relative(out, f)}`);
  const load = loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB; load ${load}`);
} finally {
  for (const s of sources) s.close();
  rmSync(out, { recursive: true, force: true });
}
