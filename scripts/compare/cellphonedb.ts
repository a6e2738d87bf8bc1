/**
 * Agreement with the real CellPhoneDB v5 (issue 16): pbmc3k with the Seurat tutorial labels.
 *
 *   CELLPHONEDB_SRC=<checkout of ventolab/CellphoneDB at v5.0.1> npx tsx scripts/compare/cellphonedb.ts
 *
 * 1. runs our `interaction` task (default settings: ≤ 500 cells per type, seed 42, threshold 0.1,
 *    1000 permutations) on pbmc3k.h5ad with pbmc3k_seurat_labels.csv attached as `tutorial_label`;
 * 2. writes the very cells it analysed (after our per-type sampling) as CellPhoneDB input: the
 *    normalized values (float32, exact) of the genes CellPhoneDB knows, and the meta table; and the
 *    v5 input tables from the resources folder (CellPhoneDB builds its database zip from them with
 *    its own `db_utils.create_db`);
 * 3. runs CellPhoneDB's `cpdb_statistical_analysis_method.call` with /usr/bin/python3
 *    (scripts/compare/cellphonedb.py; PyPI is not needed — Debian's python3-pandas,
 *    python3-numpy-groupies, python3-anndata, python3-sklearn, python3-tqdm suffice);
 * 4. prints: interactions and pairs on each side, the largest relative difference of the
 *    unrounded means, the Jaccard index of the significant (interaction, pair) sets, and the overlap
 *    of the top 30 pairs. The permutations differ (numpy's generator vs ours), so p-values near 0.05
 *    can fall on either side; the means are deterministic.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { definition as interactionTask } from '../../packages/tasks/src/interaction/contract';
import { readH5adBytes } from '@cellcloud/formats';
import { nodeResourceReader, defaultResourcesDir } from '../../packages/engine/src/cli/node-resources';
import { runInteraction, selectInteractionCells } from '../../packages/tasks/src/interaction/engine';
import { loadCpdbDatabase } from '../../packages/tasks/src/interaction/engine/database';
import { npRound } from '../../packages/tasks/src/interaction/engine/results';
import { MemorySink } from '../../packages/engine/src/tasks/memory-sink';
import { resultHandleFromDataset } from '../../packages/engine/src/tasks/result-handle';

const resourcesDir = defaultResourcesDir();
const src = process.env.CELLPHONEDB_SRC;
if (!src) {
  console.error('Set CELLPHONEDB_SRC to a checkout of ventolab/CellphoneDB (tag v5.0.1).');
  process.exit(2);
}
const work = process.env.COMPARE_DIR ?? '/tmp/cellcloud-compare-cellphonedb';
mkdirSync(path.join(work, 'db'), { recursive: true });

const ds = await readH5adBytes(
  new Uint8Array(readFileSync(path.join(resourcesDir, 'pbmc3k/pbmc3k.h5ad'))),
  'pbmc3k.h5ad',
);
const labelRows = readFileSync(path.join(resourcesDir, 'pbmc3k/pbmc3k_seurat_labels.csv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1);
const labelOf = new Map(labelRows.map((l) => l.split(',') as [string, string]));
const tutorial = ds.cells.barcodes.map((b) => labelOf.get(b) ?? 'NA');
const result = resultHandleFromDataset(ds, {
  species: 'human',
  extraObs: { tutorial_label: { kind: 'categorical', values: tutorial } },
});
const params = interactionTask.params.parse({ groupBy: 'tutorial_label' });
const resources = nodeResourceReader(resourcesDir);

const t0 = performance.now();
const ours = await runInteraction({
  result,
  params,
  onProgress: () => {},
  sink: new MemorySink(),
  resources,
});
console.log(
  `ours: ${ours.result.interactions.length} interactions × ${ours.result.pairs.length} pairs in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);

// CellPhoneDB input: the same sampled cells, genes CellPhoneDB knows, exact float32 values
const sel = selectInteractionCells(result, params);
const db = await loadCpdbDatabase(resources);
const known = new Set(db.genes.map((g) => g.hgncSymbol));
const norm = result.normalized();
const geneRows = ds.genes.symbols.map((s, g) => [s, g] as const).filter(([s]) => known.has(s));
const dense = new Map<number, Float32Array>(geneRows.map(([, g]) => [g, new Float32Array(sel.cells.length)]));
sel.cells.forEach((c, j) => {
  for (let k = norm.indptr[c]!; k < norm.indptr[c + 1]!; k++)
    dense.get(norm.indices[k]!)?.set([norm.data[k]!], j);
});
const barcodes = Array.from(sel.cells, (c) => ds.cells.barcodes[c]!);
const lines = [['Gene', ...barcodes].join('\t')];
for (const [s, g] of geneRows) lines.push([s, ...Array.from(dense.get(g)!, (v) => String(v))].join('\t'));
writeFileSync(path.join(work, 'counts.tsv'), lines.join('\n') + '\n');
writeFileSync(
  path.join(work, 'meta.tsv'),
  ['Cell\tcell_type', ...barcodes.map((b, j) => `${b}\t${sel.labels[j]}`)].join('\n') + '\n',
);
for (const t of ['gene', 'protein', 'complex', 'interaction', 'transcription_factor']) {
  const gz = readFileSync(path.join(resourcesDir, `cellphonedb_v5/${t}_input.csv.gz`));
  writeFileSync(path.join(work, 'db', `${t}_input.csv`), gunzipSync(gz));
}

const t1 = performance.now();
const py = spawnSync('/usr/bin/python3', [path.join(import.meta.dirname, 'cellphonedb.py'), src, work], {
  stdio: 'inherit',
});
if (py.status !== 0) process.exit(py.status ?? 1);
console.log(`cellphonedb: ${((performance.now() - t1) / 1000).toFixed(1)} s`);
const theirs = JSON.parse(readFileSync(path.join(work, 'cpdb.json'), 'utf8')) as {
  pairs: string[];
  ids: (string | null)[];
  means: number[][];
  pvalues: number[][];
  rankOrder: string[];
};

const r = ours.result;
const nP = r.pairs.length;
const ourRow = new Map(r.interactions.map((it, i) => [it.db.idCp, i]));
const ourPair = new Map(r.pairs.map((p, q) => [p, q]));
let maxRel = 0;
let compared = 0;
let missing = 0;
let roundedDiffer = 0;
const sigOurs = new Set<string>();
const sigTheirs = new Set<string>();
r.interactions.forEach((it, i) => {
  for (let q = 0; q < nP; q++)
    if (r.pvalues[i * nP + q]! <= params.pvalue) sigOurs.add(`${it.db.idCp}@${r.pairs[q]}`);
});
theirs.ids.forEach((id, ti) => {
  const i = id === null ? undefined : ourRow.get(id);
  if (i === undefined) {
    missing++;
    return;
  }
  theirs.pairs.forEach((pair, tq) => {
    const q = ourPair.get(pair)!;
    const a = r.means[i * nP + q]!;
    const b = theirs.means[ti]![tq]!;
    const rel = a === b ? 0 : Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b));
    if (rel > maxRel) maxRel = rel;
    if (npRound(a, 3) !== npRound(b, 3)) roundedDiffer++;
    compared++;
    if (theirs.pvalues[ti]![tq]! <= params.pvalue) sigTheirs.add(`${id}@${pair}`);
  });
});
let inter = 0;
for (const k of sigOurs) if (sigTheirs.has(k)) inter++;
const jaccard = inter / (sigOurs.size + sigTheirs.size - inter);
const ourTop = new Set(ours.summary.top30.map((t) => t.idCpInteraction));
const theirTop = theirs.rankOrder.slice(0, 30);
const topOverlap = theirTop.filter((id) => ourTop.has(id)).length;
console.log(
  `interactions: ours ${r.interactions.length}, CellPhoneDB ${theirs.ids.length} (not in ours: ${missing})`,
);
console.log(
  `means: ${compared} values compared, max relative difference ${maxRel.toExponential(2)}; ${roundedDiffer} differ after rounding to 3 decimals`,
);
console.log(
  `significant: ours ${sigOurs.size}, CellPhoneDB ${sigTheirs.size}, Jaccard ${jaccard.toFixed(4)}`,
);
console.log(`top 30: ${topOverlap} of 30 in common`);
