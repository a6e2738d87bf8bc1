/**
 * Compares the monocle2 task's pseudotime with Debian's r-bioc-monocle 2.26 on the same cells and
 * ordering genes (issue 23). Needs `apt-get install r-bioc-monocle`.
 *   npx tsx scripts/compare/monocle2-r.ts [pbmc3k|synthetic]…   (default: both)
 * pbmc3k: the shared pbmc3k.h5ad (raw counts, Seurat tutorial labels), CD14+ and FCGR3A+
 * monocytes, root CD14+ Mono. synthetic:
 * scripts/synth/branching.ts (300 cells per segment), root 'start'.
 * Prints Spearman of the two pseudotimes, the adjusted Rand index of the States, and both run times.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { monocle2Params } from '../../packages/tasks/src/monocle2/contract';
import { engine as monocle2Engine } from '../../packages/tasks/src/monocle2/engine';
import { MemorySink } from '../../packages/engine/src/tasks/memory-sink';
import { spearman } from '../../packages/tasks/src/_shared/engine/trajectory/common';
import type { ResultHandle } from '../../packages/engine/src/tasks/types';
import { csvToTable } from '../../packages/engine/src/tasks/csv';
import { adjustedRandIndex } from '../../packages/engine/src/stats/ari';
import { branchingData } from '../synth/branching';
import { pbmc3kMonocytes, syntheticHandle } from '../bench/trajectory-data';

const here = path.dirname(fileURLToPath(import.meta.url));
const noResources = {
  readBytes: () => Promise.reject(new Error('none')),
  readText: () => Promise.reject(new Error('none')),
  exists: () => Promise.resolve(false),
  list: () => Promise.resolve([]),
};

async function compare(
  name: string,
  result: ResultHandle,
  groupBy: string,
  groups: string[] | undefined,
  root: string,
): Promise<void> {
  const params = monocle2Params.parse({ groupBy, groups, root });
  const sink = new MemorySink();
  const t0 = performance.now();
  await monocle2Engine.run({ result, params, onProgress: () => {}, sink, resources: noResources });
  const ours = (performance.now() - t0) / 1000;
  const cells = sink.tables.get('cells')!;
  const genes = sink.tables.get('pseudotime_genes')!;
  const barcodes = cells.rows.map((r) => String(r[0]));
  const ordering = genes.rows.filter((r) => r[7] === true).map((r) => String(r[1]));
  // the kept cells' counts, genes × cells MatrixMarket
  const index = new Map(result.barcodes.map((b, i) => [b, i]));
  const m = result.counts();
  const lines: string[] = [];
  barcodes.forEach((b, j) => {
    const c = index.get(b)!;
    for (let k = m.indptr[c]!; k < m.indptr[c + 1]!; k++)
      lines.push(`${m.indices[k]! + 1} ${j + 1} ${m.data[k]}`);
  });
  const dir = mkdtempSync(path.join(tmpdir(), 'monocle2-r-'));
  writeFileSync(
    path.join(dir, 'counts.mtx'),
    `%%MatrixMarket matrix coordinate real general\n${m.nGenes} ${barcodes.length} ${lines.length}\n${lines.join('\n')}\n`,
  );
  writeFileSync(path.join(dir, 'genes.txt'), result.genes.symbols.join('\n') + '\n');
  writeFileSync(path.join(dir, 'barcodes.txt'), barcodes.join('\n') + '\n');
  writeFileSync(path.join(dir, 'ordering.txt'), ordering.join('\n') + '\n');
  writeFileSync(path.join(dir, 'groups.txt'), cells.rows.map((r) => String(r[1])).join('\n') + '\n');
  writeFileSync(path.join(dir, 'root.txt'), root + '\n');
  const r = spawnSync('Rscript', [path.join(here, 'monocle2-r.R'), dir], { encoding: 'utf8' });
  if (r.status !== 0) {
    console.log(`${name}: R failed (${r.status}): ${(r.stderr || '').split('\n').slice(-6).join('\n')}`);
    return;
  }
  process.stdout.write(r.stdout);
  const rt = csvToTable(readFileSync(path.join(dir, 'r_cells.csv'), 'utf8'));
  const rPt = new Map(rt.rows.map((row) => [String(row[0]), Number(row[2])]));
  const rState = new Map(rt.rows.map((row) => [String(row[0]), String(row[1])]));
  const a = cells.rows.map((row) => Number(row[4]));
  const b = barcodes.map((bc) => rPt.get(bc)!);
  const rho = spearman(a, b);
  const ari = adjustedRandIndex(
    cells.rows.map((row) => String(row[3])),
    barcodes.map((bc) => rState.get(bc)!),
  );
  console.log(
    `${name}: ${barcodes.length} cells, ${ordering.length} ordering genes; CellCloud ${ours.toFixed(1)} s (whole task); Spearman(pseudotime) = ${rho.toFixed(3)}; State ARI = ${ari.toFixed(3)}`,
  );
}

const which = process.argv.slice(2);
const run = which.length ? which : ['pbmc3k', 'synthetic'];
if (run.includes('synthetic')) {
  const d = branchingData({ cellsPerSegment: 300, seed: 5 });
  await compare('synthetic', syntheticHandle(d), 'celltype', undefined, 'start');
}
if (run.includes('pbmc3k')) {
  const h = await pbmc3kMonocytes();
  if (h) await compare('pbmc3k monocytes', h, 'label', ['CD14+ Mono', 'FCGR3A+ Mono'], 'CD14+ Mono');
}
