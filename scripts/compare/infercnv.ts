/**
 * Agreement of our CNV pipeline (packages/tasks/src/cnv/engine/infercnv.ts) with R inferCNV's own
 * step functions on the planted-event data (scripts/synth/cnv-planted.ts): the same input values
 * (log-normalized, as the task feeds them), the same gene order (our hg38 positions) and the same
 * reference groups go through both; prints the kept genes of each and the differences of the final
 * (denoised) values.
 *   INFERCNV_R=<inferCNV checkout>/R npx tsx scripts/compare/infercnv.ts [cellsPerType]
 * Needs Rscript with futile.logger and Matrix (Debian: r-cran-futile.logger, r-cran-matrix).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodeResourceReader } from '@cellcloud/engine/cli/node-resources';
import { runInferCnv } from '../../packages/tasks/src/cnv/engine/infercnv';
import { wardClusters } from '../../packages/tasks/src/cnv/engine/subclones';
import { layoutGenes, loadPositions, POSITION_FILES } from '../../packages/tasks/src/cnv/engine/positions';
import { resultHandleFromDataset } from '@cellcloud/engine/tasks/kit';
import { SHARED_DATA_DIR } from '@cellcloud/testkit';
import { cnvPlantedData, readPlantedGenes } from '../synth/cnv-planted';

const rdir = process.env.INFERCNV_R;
if (!rdir) {
  console.error('Set INFERCNV_R to the R/ folder of an inferCNV checkout.');
  process.exit(2);
}
const per = Number(process.argv[2] ?? 40);
const d = cnvPlantedData(readPlantedGenes(SHARED_DATA_DIR, 'hg38', 8), { cellsPerType: per, seed: 5 });
const result = resultHandleFromDataset(
  { counts: d.counts, genes: d.genes, cells: { barcodes: d.barcodes, columns: {} }, embeddings: {} },
  { species: 'human' },
);
const table = await loadPositions(nodeResourceReader(SHARED_DATA_DIR), POSITION_FILES.hg38.symbols);
const layout = layoutGenes(result, table, null);
const norm = result.normalized();
// cells: references first (normal_T, normal_M), then the tumours
const order = [...d.cellType.keys()].sort(
  (a, b) =>
    Number(!d.cellType[a].startsWith('normal')) - Number(!d.cellType[b].startsWith('normal')) || a - b,
);
const cells = Uint32Array.from(order);
const refGroups = ['normal_T', 'normal_M'].map((t) =>
  Uint32Array.from(order.flatMap((c, i) => (d.cellType[c] === t ? [i] : []))),
);
const opts = {
  cutoff: 0.1,
  minCellsPerGene: 3,
  windowLength: 101,
  maxCenteredThreshold: 3,
  denoise: true,
  sdAmplifier: 1.5,
};
const ours = new Map<number, Float64Array>();
const out = runInferCnv({
  matrix: norm,
  cells,
  refGroups,
  genes: layout.genes,
  chrom: layout.chrom,
  opts,
  emit: (p, v) => ours.set(p, Float64Array.from(v)),
});

const work = mkdtempSync(path.join(os.tmpdir(), 'cellcloud-infercnv-compare-'));
const names = Array.from(layout.genes, (g) => d.genes.symbols[g]);
const lines = [['gene', ...order.map((c) => d.barcodes[c])].join('\t')];
const dense = new Float64Array(d.counts.nGenes);
const cols: Float64Array[] = order.map((c) => {
  dense.fill(0);
  for (let k = norm.indptr[c]; k < norm.indptr[c + 1]; k++) dense[norm.indices[k]] = norm.data[k];
  return Float64Array.from(layout.genes, (g) => dense[g]);
});
names.forEach((n, i) => lines.push([n, ...cols.map((col) => String(col[i]))].join('\t')));
writeFileSync(path.join(work, 'expr.tsv'), lines.join('\n') + '\n');
writeFileSync(
  path.join(work, 'gene_order.tsv'),
  names.map((n, i) => `${n}\tchr${layout.chrom[i]}\t${layout.start[i]}\t${layout.end[i]}`).join('\n') + '\n',
);
writeFileSync(
  path.join(work, 'groups.tsv'),
  'cell\tgroup\treference\n' +
    order.map((c) => `${d.barcodes[c]}\t${d.cellType[c]}\t${d.cellType[c].startsWith('normal')}`).join('\n') +
    '\n',
);
writeFileSync(
  path.join(work, 'params.tsv'),
  'cutoff\tmin_cells\tthreshold\twindow\tsd_amplifier\n0.1\t3\t3\t101\t1.5\n',
);
const t0 = performance.now();
const r = spawnSync('Rscript', [path.join(import.meta.dirname, 'infercnv.R'), work, rdir], {
  stdio: 'inherit',
});
if (r.status !== 0) throw new Error('Rscript failed');
console.log(`R inferCNV steps: ${((performance.now() - t0) / 1000).toFixed(1)} s (work dir ${work})`);

const rText = readFileSync(path.join(work, 'r_values.tsv'), 'utf8').trimEnd().split('\n');
const rCells = rText[0].split('\t').slice(1);
const rGenes = rText.slice(1).map((l) => l.split('\t')[0]);
const keptOurs = Array.from(out.kept, (i) => names[i]);
const same = keptOurs.length === rGenes.length && keptOurs.every((g, i) => g === rGenes[i]);
console.log(`kept genes: ours ${keptOurs.length}, inferCNV ${rGenes.length}, identical order: ${same}`);
console.log(
  `denoise band: ours [${out.denoise.lower.toFixed(6)}, ${out.denoise.upper.toFixed(6)}] fill ${out.denoise.fill.toFixed(6)}`,
);
const col = new Map(rCells.map((c, j) => [c, j]));
let maxAbs = 0;
let sumAbs = 0;
let n = 0;
let sxy = 0;
let sx = 0;
let sy = 0;
let sxx = 0;
let syy = 0;
const rIdx = new Map(rGenes.map((g, i) => [g, i]));
const rVals = rText.slice(1).map((l) => l.split('\t').slice(1).map(Number));
order.forEach((c, p) => {
  const v = ours.get(p)!;
  const j = col.get(d.barcodes[c])!;
  keptOurs.forEach((g, k) => {
    const i = rIdx.get(g);
    if (i === undefined) return;
    const a = v[k];
    const b = rVals[i][j];
    maxAbs = Math.max(maxAbs, Math.abs(a - b));
    sumAbs += Math.abs(a - b);
    sx += a;
    sy += b;
    sxx += a * a;
    syy += b * b;
    sxy += a * b;
    n++;
  });
});
const pr = (n * sxy - sx * sy) / Math.sqrt((n * sxx - sx * sx) * (n * syy - sy * sy));
console.log(
  `final values (${n} cell × gene): max |ours − inferCNV| ${maxAbs.toExponential(3)}, mean ${(sumAbs / n).toExponential(3)}, Pearson r ${pr.toFixed(8)}`,
);

// subclones: our ward.D2 + cut (Float64 values of the observed cells) vs R hclust/cutree, k = 8
const obsPos = order.map((_, p) => p).filter((p) => !d.cellType[order[p]].startsWith('normal'));
const G = keptOurs.length;
const x = new Float64Array(obsPos.length * G);
obsPos.forEach((p, i) => x.set(ours.get(p)!, i * G));
const ourHcl = wardClusters(x, obsPos.length, G, 8);
const rHcl = new Map(
  readFileSync(path.join(work, 'r_hcl.tsv'), 'utf8')
    .trimEnd()
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t') as [string, string]),
);
const agree = obsPos.filter((p, i) => String(ourHcl[i] + 1) === rHcl.get(d.barcodes[order[p]])).length;
console.log(
  `HCL (ward.D2, k = 8) on ${obsPos.length} observed cells: ${agree} identical labels (R cutree numbering)`,
);
