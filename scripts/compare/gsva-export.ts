/**
 * Writes the input of scripts/compare/gsva-r.sh: the pbmc3k GSVA matrices our engine builds (per
 * label pseudobulk, 9 columns; and 400 cells of the normalized matrix, per-cell mode), the Hallmark
 * sets as mapped to the dataset, and our scores — so that R's GSVA runs on exactly the same input.
 * Usage: tsx scripts/compare/gsva-export.ts <out dir>
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readH5adBytes } from '@cellcloud/formats';
import { SHARED_DATA_DIR } from '@cellcloud/testkit';
import { nodeResourceReader } from '@cellcloud/engine/cli/node-resources';
import { groupsOf } from '@cellcloud/engine/tasks/kit';
import { indexGeneSets, loadGeneSets } from '../../packages/tasks/src/_shared/engine/gene-sets/library';
import { gsva } from '../../packages/tasks/src/gsva/engine/gsva';
import { gsvaMatrix } from '../../packages/tasks/src/gsva/engine/matrix';
import { resultHandleFromDataset } from '@cellcloud/engine/tasks/kit';

const out = process.argv[2] ?? '/tmp/gsva-compare';
mkdirSync(out, { recursive: true });
const ds = await readH5adBytes(
  new Uint8Array(readFileSync(path.join(SHARED_DATA_DIR, 'pbmc3k/pbmc3k.h5ad'))),
  'pbmc3k.h5ad',
);
const result = resultHandleFromDataset(ds, { species: 'human' });
const human = result.genes.symbols.map((s) => s.toUpperCase());
const sets = await loadGeneSets('hallmark', nodeResourceReader(SHARED_DATA_DIR), undefined);
const labels = groupsOf(result, 'label');
const pseudo = [...labels].map(([name, cells]) => ({ name, cells }));
// per cell: every 6th cell (≈ 440 cells), to keep R's O(n²) kernel step short
const cellCols = Array.from({ length: result.nCells }, (_, c) => c)
  .filter((c) => c % 6 === 0)
  .map((c) => ({ name: result.barcodes[c]!, cells: [c] }));

for (const [mode, columns] of [
  ['pseudobulk', pseudo],
  ['cells', cellCols],
] as const) {
  const m = gsvaMatrix(result, human, columns, mode);
  const lib = indexGeneSets(sets, human, { universe: m.genes, min: 1, max: 100_000, source: 'hallmark' });
  const rowOf = new Map(m.genes.map((g, i) => [g, i]));
  const t0 = performance.now();
  const res = gsva({
    x: m.x,
    nGenes: m.genes.length,
    nCols: m.nCols,
    sets: lib.sets.map((s) => Int32Array.from(s.genes, (g) => rowOf.get(g)!)),
  });
  const secs = (performance.now() - t0) / 1000;
  const lines = [['gene', ...columns.map((c) => c.name)].join('\t')];
  m.names.forEach((n, r) =>
    lines.push(
      [n, ...Array.from(m.x.subarray(r * m.nCols, (r + 1) * m.nCols), (v) => v.toPrecision(17))].join('\t'),
    ),
  );
  writeFileSync(path.join(out, `${mode}.matrix.tsv`), lines.join('\n') + '\n');
  writeFileSync(
    path.join(out, `${mode}.sets.gmt`),
    lib.sets.map((s) => [s.id, 'na', ...Array.from(s.genes, (g) => human[g])].join('\t')).join('\n') + '\n',
  );
  const ours = [['set', ...columns.map((c) => c.name)].join('\t')];
  res.kept.forEach((si, r) =>
    ours.push(
      [lib.sets[si]!.id, ...Array.from(res.scores.subarray(r * m.nCols, (r + 1) * m.nCols))].join('\t'),
    ),
  );
  writeFileSync(path.join(out, `${mode}.ours.tsv`), ours.join('\n') + '\n');
  console.log(
    `${mode}: ${m.genes.length} genes x ${m.nCols} columns, ${res.kept.length} sets, ours ${secs.toFixed(2)} s`,
  );
}
