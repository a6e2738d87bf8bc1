/**
 * Agreement of our GRNBoost2-style importances (packages/tasks/src/regulons/engine/gbm.ts, binned
 * split search) with scikit-learn's exact GradientBoostingRegressor at arboreto's GRNBoost2
 * settings (scripts/compare/grnboost2.py, Debian python3-sklearn):
 *
 *   npx tsx scripts/compare/grnboost2.ts [cells=600] [targets=30]
 *
 * Test set: pbmc3k (log-normalized), a seeded sample of cells, TFs = DoRothEA A–C TFs expressed in
 * ≥ 5 % of those cells, targets = the most variable non-TF genes. Prints, over targets, the mean
 * Spearman correlation of the importance vectors, the mean overlap of the top-5 TFs, and the
 * stages used on each side. Both sides are stochastic (subsampling, feature draws), so sklearn is
 * also compared with itself under another seed as the reference level of agreement.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { readH5adBytes } from '@cellcloud/formats';
import { defaultResourcesDir } from '../../packages/engine/src/cli/node-resources';
import { Random } from '../../packages/engine/src/methods/random';
import { binFeatures, GRNBOOST2 } from '../../packages/tasks/src/regulons/engine/binning';
import { boostImportances } from '../../packages/tasks/src/regulons/engine/gbm';
import { resultHandleFromDataset } from '../../packages/engine/src/tasks/result-handle';

const [nCellsArg = '600', nTargetsArg = '30'] = process.argv.slice(2);
const root = defaultResourcesDir();
const work = process.env.COMPARE_DIR ?? '/tmp/cellcloud-compare-grnboost2';
mkdirSync(work, { recursive: true });
const ds = await readH5adBytes(
  new Uint8Array(readFileSync(path.join(root, 'pbmc3k/pbmc3k.h5ad'))),
  'pbmc3k.h5ad',
);
const result = resultHandleFromDataset(ds, { species: 'human' });
const norm = result.normalized();
const rng = new Random(5);
const all = Array.from({ length: result.nCells }, (_, i) => i);
for (let i = all.length - 1; i > 0; i--) {
  const j = rng.int(i + 1);
  [all[i], all[j]] = [all[j]!, all[i]!];
}
const cells = all.slice(0, Number(nCellsArg)).sort((a, b) => a - b);
const dense = (g: number) => {
  const v = new Float32Array(cells.length);
  cells.forEach((c, j) => {
    for (let k = norm.indptr[c]!; k < norm.indptr[c + 1]!; k++)
      if (norm.indices[k] === g) v[j] = norm.data[k]!;
  });
  return v;
};
const rows = gunzipSync(readFileSync(path.join(root, 'tf_regulons/dorothea_hs.tsv.gz')))
  .toString('utf8')
  .trim()
  .split('\n')
  .slice(1);
const tfNames = [
  ...new Set(rows.filter((l) => 'ABC'.includes(l.split('\t')[1]!)).map((l) => l.split('\t')[0]!)),
];
const tfs = tfNames
  .map((name) => ({ name, g: result.geneIndex(name) }))
  .filter((t) => t.g >= 0)
  .map((t) => ({ ...t, v: dense(t.g) }))
  .filter((t) => t.v.filter((x) => x > 0).length >= 0.05 * cells.length);
const tfSet = new Set(tfs.map((t) => t.g));
// most variable non-TF genes (variance of log-normalized values over the sampled cells)
const sums = new Float64Array(norm.nGenes);
const sq = new Float64Array(norm.nGenes);
for (const c of cells) {
  for (let k = norm.indptr[c]!; k < norm.indptr[c + 1]!; k++) {
    sums[norm.indices[k]!]! += norm.data[k]!;
    sq[norm.indices[k]!]! += norm.data[k]! ** 2;
  }
}
const variance = (g: number) => sq[g]! / cells.length - (sums[g]! / cells.length) ** 2;
const targets = Array.from({ length: norm.nGenes }, (_, g) => g)
  .filter((g) => !tfSet.has(g))
  .sort((a, b) => variance(b) - variance(a))
  .slice(0, Number(nTargetsArg))
  .map((g) => ({ name: result.genes.symbols[g]!, v: dense(g) }));
const tsv = (cols: { name: string; v: Float32Array }[]) =>
  [
    cols.map((c) => c.name).join('\t'),
    ...cells.map((_, j) => cols.map((c) => String(c.v[j])).join('\t')),
  ].join('\n') + '\n';
writeFileSync(path.join(work, 'tfs.tsv'), tsv(tfs));
writeFileSync(path.join(work, 'targets.tsv'), tsv(targets));
console.log(`test set: ${cells.length} cells, ${tfs.length} TFs, ${targets.length} targets`);

const t0 = performance.now();
const bins = binFeatures(
  tfs.map((t) => t.v),
  GRNBOOST2.maxBins,
);
const ours = targets.map((t, j) => boostImportances(bins, t.v, GRNBOOST2, 1000 + j));
console.log(`ours: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
const py = spawnSync('/usr/bin/python3', [path.join(import.meta.dirname, 'grnboost2.py'), work], {
  stdio: 'inherit',
});
if (py.status !== 0) process.exit(py.status ?? 1);
const sk = JSON.parse(readFileSync(path.join(work, 'sklearn.json'), 'utf8')) as {
  targets: Record<string, { stages: number; importances: number[]; otherSeed: number[] }>;
};

const ranks = (v: ArrayLike<number>) => {
  const idx = Array.from({ length: v.length }, (_, i) => i).sort((a, b) => v[a]! - v[b]!);
  const r = new Float64Array(v.length);
  for (let i = 0; i < idx.length;) {
    let j = i;
    while (j + 1 < idx.length && v[idx[j + 1]!] === v[idx[i]!]) j++;
    for (let k = i; k <= j; k++) r[idx[k]!] = (i + j) / 2;
    i = j + 1;
  }
  return r;
};
const spearman = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  const ra = ranks(a);
  const rb = ranks(b);
  const n = ra.length;
  const ma = ra.reduce((s, x) => s + x, 0) / n;
  const mb = rb.reduce((s, x) => s + x, 0) / n;
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < n; i++) {
    num += (ra[i]! - ma) * (rb[i]! - mb);
    da += (ra[i]! - ma) ** 2;
    db += (rb[i]! - mb) ** 2;
  }
  return num / Math.sqrt(da * db);
};
const top = (v: ArrayLike<number>, k: number) =>
  new Set(
    Array.from({ length: v.length }, (_, i) => i)
      .sort((a, b) => v[b]! - v[a]!)
      .slice(0, k),
  );
let rho = 0;
let overlap = 0;
let rhoSelf = 0;
let overlapSelf = 0;
targets.forEach((t, j) => {
  const s = sk.targets[t.name]!;
  rho += spearman(ours[j]!.importances, s.importances);
  const a = top(ours[j]!.importances, 5);
  overlap += [...top(s.importances, 5)].filter((i) => a.has(i)).length / 5;
  rhoSelf += spearman(s.otherSeed, s.importances);
  const b = top(s.otherSeed, 5);
  overlapSelf += [...top(s.importances, 5)].filter((i) => b.has(i)).length / 5;
});
const stagesOurs = ours.map((o) => o.stages);
const stagesSk = targets.map((t) => sk.targets[t.name]!.stages);
const med = (x: number[]) => [...x].sort((a, b) => a - b)[Math.floor(x.length / 2)]!;
console.log(
  `importances: mean Spearman ${(rho / targets.length).toFixed(3)}, mean top-5 overlap ${(overlap / targets.length).toFixed(3)}`,
);
console.log(
  `sklearn vs sklearn (other seed): mean Spearman ${(rhoSelf / targets.length).toFixed(3)}, mean top-5 overlap ${(overlapSelf / targets.length).toFixed(3)}`,
);
console.log(`stages: ours median ${med(stagesOurs)}, sklearn median ${med(stagesSk)}`);
