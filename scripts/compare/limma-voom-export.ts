/**
 * Writes the input of scripts/compare/limma-voom-r.sh: the pseudobulk count matrix of the pbmc3k
 * CD14+ vs FCGR3A+ monocyte comparison (tutorial labels; pbmc3k is one donor, so cells are dealt
 * into 3 pseudo-samples by cell order, as in the unit test) and our limma-voom table.
 * Usage: tsx scripts/compare/limma-voom-export.ts <out dir>
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readH5adBytes } from '@cellcloud/formats';
import { SHARED_DATA_DIR } from '@cellcloud/testkit';
import { selectTwoGroups } from '../../packages/tasks/src/_shared/engine/comparison/compare';
import { pseudobulkTest } from '../../packages/tasks/src/deg-groups/engine/pseudobulk';
import { resultHandleFromDataset } from '@cellcloud/engine/tasks/kit';

const out = process.argv[2] ?? '/tmp/limma-compare';
mkdirSync(out, { recursive: true });
const ds = await readH5adBytes(
  new Uint8Array(readFileSync(path.join(SHARED_DATA_DIR, 'pbmc3k/pbmc3k.h5ad'))),
  'pbmc3k.h5ad',
);
const samples = Array.from({ length: ds.counts.nCells }, (_, c) => `s${c % 3}`);
const result = resultHandleFromDataset(ds, {
  species: 'human',
  extraObs: { 'Sample ID': { kind: 'categorical', values: samples } },
});
const sel = selectTwoGroups(
  result,
  [{ key: 'label', values: ['CD14+ Mono'] }],
  [{ key: 'label', values: ['FCGR3A+ Mono'] }],
  'refuse',
);
const pb = pseudobulkTest(result, sel.cells, 'Sample ID');
const nCols = pb.columns.length;
const lines = [['gene', ...pb.columns.map((c) => `g${c.group + 1}_${c.sample}`)].join('\t')];
result.genes.symbols.forEach((g, i) =>
  lines.push([`${g}__${i}`, ...Array.from(pb.matrix.subarray(i * nCols, (i + 1) * nCols))].join('\t')),
);
writeFileSync(path.join(out, 'counts.tsv'), lines.join('\n') + '\n');
writeFileSync(
  path.join(out, 'ours.tsv'),
  [pb.table.columns.join('\t'), ...pb.table.rows.map((r) => r.join('\t'))].join('\n') + '\n',
);
console.log(
  `${result.nGenes} genes x ${nCols} pseudobulk columns; ours: ${pb.genesTested} genes tested, ${pb.significant} with adj.P.Val < 0.05`,
);
