import type { RegulonsParams, RegulonsSummary } from '../contract';
import { estimateMemoryBytes } from '../memory';
import { Random } from '@cellcloud/engine/methods/random';
import { categoricalLevel, TaskError } from '@cellcloud/engine/tasks/kit';
import type { EngineTask, TaskRunContext } from '@cellcloud/engine/tasks/kit';
import { binFeatures, GRNBOOST2 } from './binning';
import { boostTargets } from './grn';
import { writeStep2 } from './outputs';
import { loadPruner } from './pruning';
import { aucell, type GeneSet } from './stats';

/**
 * Engine task `regulons` (issue 18): pySCENIC-style regulons. See README.md in this folder for
 * each step, its source semantics and the documented differences.
 */

const HUMAN = new Set(['human', 'homo sapiens', 'homo_sapiens', 'hs', 'grch38', 'hg38', 'hg19', 'grch37']);
const MOUSE = new Set(['mouse', 'mus musculus', 'mus_musculus', 'mm', 'mm10', 'mm39', 'grcm38', 'grcm39']);

function speciesOf(species: string, symbols: readonly string[]): 'human' | 'mouse' {
  const s = species.trim().toLowerCase();
  if (HUMAN.has(s)) return 'human';
  if (MOUSE.has(s)) return 'mouse';
  if (s === '' || s === 'unknown') {
    // upper-case symbols are human's convention, capitalised ones mouse's
    let upper = 0;
    let lettered = 0;
    for (const g of symbols) {
      if (!/[a-z]/i.test(g)) continue;
      lettered++;
      if (g === g.toUpperCase()) upper++;
    }
    return upper >= lettered / 2 ? 'human' : 'mouse';
  }
  throw new TaskError(
    'common.speciesHumanMouse',
    `This analysis supports human and mouse data only (the dataset is ${species}).`,
    {
      species,
    },
  );
}

function quantile(sorted: number[], q: number): number {
  if (!sorted.length) return 0;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

export { loadDorothea } from './pruning';

export async function runRegulons(
  ctx: TaskRunContext<RegulonsParams>,
  opts: { threads?: number } = {},
): Promise<RegulonsSummary> {
  const t0 = performance.now();
  const { result, params } = ctx;
  const species = speciesOf(result.species, result.genes.symbols);
  const labels = categoricalLevel(result, params.groupBy);
  const byType = new Map<string, number[]>();
  labels.forEach((l, c) => {
    let a = byType.get(l);
    if (!a) byType.set(l, (a = []));
    a.push(c);
  });
  if (byType.size < 2)
    throw new TaskError('regulons.oneType', `"${params.groupBy}" has only one cell type.`, {
      key: params.groupBy,
    });
  const typeNames = [...byType.keys()].sort();

  // 1. per-type downsample (seeded, partial Fisher–Yates, cell order kept)
  const rng = new Random(params.seed);
  const sampled: number[] = [];
  for (const t of typeNames) {
    const list = [...byType.get(t)!];
    const k = Math.min(list.length, params.cellsPerType);
    for (let i = 0; i < k; i++) {
      const j = i + rng.int(list.length - i);
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
    sampled.push(...list.slice(0, k));
  }
  sampled.sort((a, b) => a - b);
  const nS = sampled.length;
  ctx.onProgress({ fraction: 0.02, step: 'evidence' });

  // 2. evidence (the pruner), expressed TFs and targets
  const pruner = await loadPruner(ctx.resources, species, params);
  const norm = result.normalized();
  const dense = new Map<number, Float32Array>();
  const expressedIn = new Int32Array(norm.nGenes);
  const sum = new Float64Array(norm.nGenes);
  const sq = new Float64Array(norm.nGenes);
  sampled.forEach((c) => {
    for (let k = norm.indptr[c]!; k < norm.indptr[c + 1]!; k++) {
      const g = norm.indices[k]!;
      const v = norm.data[k]!;
      if (v > 0) expressedIn[g]!++;
      sum[g]! += v;
      sq[g]! += v * v;
    }
  });
  const minCells = Math.max(3, Math.ceil(0.01 * nS));
  const tfGenes: { name: string; g: number }[] = [];
  for (const tf of pruner.tfs) {
    const g = result.geneIndex(tf);
    if (g >= 0 && expressedIn[g]! >= minCells) tfGenes.push({ name: tf, g });
  }
  if (!tfGenes.length)
    throw new TaskError('regulons.noTfs', 'No DoRothEA TF is expressed in the sampled cells.');
  const tfIndex = new Map(tfGenes.map((t, i) => [t.g, i]));
  const variance = (g: number) => sq[g]! / nS - (sum[g]! / nS) ** 2;
  // targets no pruning could keep are not boosted (undefined candidates: every gene)
  let evidenced: Set<number> | undefined = new Set<number>();
  for (const { name } of tfGenes) {
    const candidates = pruner.candidates(name);
    if (!candidates) {
      evidenced = undefined;
      break;
    }
    for (const tg of candidates) {
      const g = result.geneIndex(tg);
      if (g >= 0) evidenced.add(g);
    }
  }
  const targets = Array.from({ length: norm.nGenes }, (_, g) => g)
    .filter((g) => expressedIn[g]! >= minCells)
    .sort((a, b) => variance(b) - variance(a) || a - b)
    .slice(0, params.maxTargets)
    .filter((g) => !evidenced || evidenced.has(g));
  for (const g of [...tfGenes.map((t) => t.g), ...targets]) dense.set(g, new Float32Array(nS));
  sampled.forEach((c, j) => {
    for (let k = norm.indptr[c]!; k < norm.indptr[c + 1]!; k++)
      dense.get(norm.indices[k]!)?.set([norm.data[k]!], j);
  });

  // 3. GRNBoost2-style importances per target
  const features = binFeatures(
    tfGenes.map((t) => dense.get(t.g)!),
    GRNBOOST2.maxBins,
  );
  const adjacencies: { tf: number; target: number; importance: number; rho: number }[] = [];
  // Pearson rho as the dot product of centred, unit-norm profiles (TFs standardised once)
  const standardised = (v: Float32Array) => {
    const u = new Float32Array(nS);
    let m = 0;
    for (let i = 0; i < nS; i++) m += v[i]!;
    m /= nS;
    let ss = 0;
    for (let i = 0; i < nS; i++) ss += (v[i]! - m) ** 2;
    const inv = ss > 0 ? 1 / Math.sqrt(ss) : 0;
    for (let i = 0; i < nS; i++) u[i] = (v[i]! - m) * inv;
    return u;
  };
  const tfUnit = tfGenes.map((t) => standardised(dense.get(t.g)!));
  const targetValues = new Float32Array(targets.length * nS);
  targets.forEach((g, k) => targetValues.set(dense.get(g)!, k * nS));
  const importances = await boostTargets(
    {
      features,
      targets: targetValues,
      exclude: Int32Array.from(targets, (g) => tfIndex.get(g) ?? -1),
      params: GRNBOOST2,
      seed: params.seed,
    },
    targets.length,
    {
      threads: opts.threads,
      signal: ctx.signal,
      onProgress: (done, total) => ctx.onProgress({ fraction: 0.05 + (0.7 * done) / total, step: 'network' }),
    },
  );
  targets.forEach((g, k) => {
    const y = standardised(dense.get(g)!);
    for (let f = 0; f < tfGenes.length; f++) {
      const imp = importances[k * tfGenes.length + f]!;
      if (!(imp > 0)) continue;
      const x = tfUnit[f]!;
      let rho = 0;
      for (let i = 0; i < nS; i++) rho += x[i]! * y[i]!;
      adjacencies.push({ tf: f, target: g, importance: imp, rho });
    }
  });

  // 4. pySCENIC modules (activating links only), pruned (pruning.ts: DoRothEA evidence by default)
  const act = adjacencies.filter((a) => a.rho > 0.03);
  // weight quantiles over every link, as pySCENIC (then applied to the activating ones)
  const weights = adjacencies.map((a) => a.importance).sort((a, b) => a - b);
  const modules = new Map<number, Set<number>[]>();
  const addModule = (tf: number, genes: Iterable<number>) => {
    let l = modules.get(tf);
    if (!l) modules.set(tf, (l = []));
    l.push(new Set(genes));
  };
  const byTf = new Map<number, typeof act>();
  for (const a of act) {
    let l = byTf.get(a.tf);
    if (!l) byTf.set(a.tf, (l = []));
    l.push(a);
  }
  for (const q of [0.75, 0.9]) {
    const cut = quantile(weights, q);
    for (const [tf, links] of byTf)
      addModule(
        tf,
        links.filter((l) => l.importance > cut).map((l) => l.target),
      );
  }
  for (const [tf, links] of byTf)
    addModule(
      tf,
      [...links]
        .sort((a, b) => b.importance - a.importance)
        .slice(0, 50)
        .map((l) => l.target),
    );
  const byTarget = new Map<number, typeof act>();
  for (const a of act) {
    let l = byTarget.get(a.target);
    if (!l) byTarget.set(a.target, (l = []));
    l.push(a);
  }
  for (const n of [5, 10, 50]) {
    const per = new Map<number, number[]>();
    for (const links of byTarget.values()) {
      for (const l of [...links].sort((a, b) => b.importance - a.importance).slice(0, n)) {
        let t = per.get(l.tf);
        if (!t) per.set(l.tf, (t = []));
        t.push(l.target);
      }
    }
    for (const [tf, genes] of per) addModule(tf, genes);
  }
  const regulons: { name: string; tf: string; genes: number[] }[] = [];
  for (const [f, mods] of [...modules].sort((a, b) => a[0] - b[0])) {
    const tf = tfGenes[f]!;
    const genes = new Set<number>([tf.g]);
    for (const m of mods) {
      if (m.size + 1 < params.minRegulonSize) continue; // module too small (pySCENIC min_genes)
      const bySymbol = new Map([...m].map((g) => [result.genes.symbols[g]!, g]));
      for (const s of pruner.prune(tf.name, [...bySymbol.keys()])) genes.add(bySymbol.get(s)!);
    }
    if (genes.size >= params.minRegulonSize)
      regulons.push({ name: `${tf.name}(+)`, tf: tf.name, genes: [...genes].sort((a, b) => a - b) });
  }
  if (!regulons.length) {
    throw new TaskError('regulons.noRegulons', `No regulon with at least ${params.minRegulonSize} genes.`, {
      min: params.minRegulonSize,
    });
  }
  ctx.onProgress({ fraction: 0.8, step: 'aucell' });

  // 5. AUCell on every cell, step-2 statistics
  const sets: GeneSet[] = regulons.map((r) => ({ name: r.name, genes: r.genes, size: r.genes.length }));
  const allCells = Array.from({ length: result.nCells }, (_, i) => i);
  const auc = aucell(norm, allCells, sets, { aucThreshold: params.aucThreshold, seed: params.seed });
  const nR = regulons.length;
  for (let k = 0; k < nR; k++) {
    const v = new Float64Array(result.nCells);
    for (let c = 0; c < result.nCells; c++) v[c] = auc[c * nR + k]!;
    await ctx.sink.cellColumn(`regulon ${regulons[k]!.name}`, { kind: 'numeric', values: v });
  }
  await ctx.sink.table('adjacencies', {
    columns: ['TF', 'target', 'importance', 'rho'],
    rows: adjacencies.map((a) => [tfGenes[a.tf]!.name, result.genes.symbols[a.target]!, a.importance, a.rho]),
  });
  const topByType = await writeStep2(ctx, {
    regulons: regulons.map((r) => ({ ...r, tfGene: result.geneIndex(r.tf) })),
    auc,
    labels,
    typeNames,
    sampled,
  });
  ctx.onProgress({ fraction: 1, step: 'done' });
  return {
    groupBy: params.groupBy,
    species,
    cellsSampled: nS,
    tfs: tfGenes.length,
    pruning: pruner.source,
    targets: targets.length,
    regulons: regulons.map((r) => ({ name: r.name, tf: r.tf, genes: r.genes.length })),
    topByType,
    seconds: Math.round((performance.now() - t0) / 100) / 10,
  };
}

export const engine: EngineTask<RegulonsParams, RegulonsSummary> = {
  name: 'regulons',
  run: (ctx) => runRegulons(ctx),
  estimateMemoryBytes,
};
