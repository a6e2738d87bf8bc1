import type {
  InteractionCategory,
  InteractionMeta,
  InteractionParams,
  InteractionSummary,
} from '../contract';
import { interactionCategories } from '../contract';
import { Random } from '@cellcloud/engine/tasks/kit';
import { TaskError } from '@cellcloud/engine/tasks/kit';
import { categoricalLevel, selectCells } from '@cellcloud/engine/tasks/kit';
import type { EngineTask, ResultHandle, TaskRunContext } from '@cellcloud/engine/tasks/kit';
import { cellphonedbStatistical, compareNames, type CpdbResult } from './analysis';
import categoryData from './categories.json';
import { estimateMemoryBytes } from '../memory';
import { loadCpdbDatabase, type CpdbDatabase } from './database';
import { buildTables, pairCounts, significance } from './results';

/**
 * Engine task `interaction` (issue 16): CellPhoneDB v5 statistical analysis of one annotation
 * level. See README.md in this folder for the outputs and the differences from CellPhoneDB.
 */

const HUMAN = new Set([
  'human',
  'homo sapiens',
  'homo_sapiens',
  'hsapiens',
  'hs',
  'grch38',
  'hg38',
  'hg19',
  'grch37',
]);

export function checkHumanSpecies(species: string): void {
  const s = species.trim().toLowerCase();
  if (s === '' || s === 'unknown' || HUMAN.has(s)) return;
  throw new TaskError(
    'common.speciesHumanOnly',
    `This analysis supports human data only (the dataset is ${species}).`,
    {
      species,
    },
  );
}

export interface SelectedCells {
  cells: Uint32Array;
  labels: string[];
  /** Per cell type (sorted): cells before and after sampling. */
  types: { name: string; cells: number; sampled: number }[];
}

/**
 * Cells of the chosen cell types (after the optional restriction), then at most `cellsPerType`
 * per type: types in name order, each sampled without replacement by a partial Fisher–Yates
 * shuffle from one seeded stream (methods/random, xoshiro128**), kept in cell order.
 */
export function selectInteractionCells(result: ResultHandle, params: InteractionParams): SelectedCells {
  const all = categoricalLevel(result, params.groupBy);
  let pool: Uint32Array = params.restrict
    ? selectCells(result, params.restrict)
    : Uint32Array.from(all.keys());
  if (params.cellTypes) {
    const present = new Set(all);
    for (const v of params.cellTypes) {
      if (!present.has(v)) {
        throw new TaskError('interaction.cellTypeMissing', `"${params.groupBy}" has no cell type "${v}".`, {
          key: params.groupBy,
          value: v,
        });
      }
    }
    const want = new Set(params.cellTypes);
    pool = pool.filter((c) => want.has(all[c]!));
  }
  const byType = new Map<string, number[]>();
  for (const c of pool) {
    const l = all[c]!;
    let list = byType.get(l);
    if (!list) byType.set(l, (list = []));
    list.push(c);
  }
  if (byType.size < 2) {
    throw new TaskError(
      'common.oneGroup',
      `"${params.groupBy}" has only one group in the selected cells; this analysis needs at least two.`,
      {
        key: params.groupBy,
      },
    );
  }
  const rng = new Random(params.seed);
  const names = [...byType.keys()].sort(compareNames);
  const keep: number[] = [];
  const types = names.map((name) => {
    const list = byType.get(name)!;
    const n = list.length;
    if (n > params.cellsPerType) {
      for (let i = 0; i < params.cellsPerType; i++) {
        const j = i + rng.int(n - i);
        const t = list[i]!;
        list[i] = list[j]!;
        list[j] = t;
      }
      list.length = params.cellsPerType;
    }
    keep.push(...list);
    return { name, cells: n, sampled: list.length };
  });
  keep.sort((x, y) => x - y);
  return { cells: Uint32Array.from(keep), labels: keep.map((c) => all[c]!), types };
}

type CategoryFile = Record<string, { patterns?: string[] }>;
const CATEGORY_RES: [InteractionCategory, RegExp][] = interactionCategories.map((c) => [
  c,
  new RegExp(`^(?:${((categoryData as CategoryFile)[c]?.patterns ?? []).join('|')})$`),
]);

/** Curated categories of an interaction (categories.json): a gene of either partner matches. */
export function interactionCategoriesOf(db: CpdbDatabase, r: CpdbResult, i: number): InteractionCategory[] {
  const it = r.interactions[i]!;
  const genes = new Set<string>();
  for (const md of [it.a, it.b]) {
    const prots = md.isComplex ? (db.complexes.get(md.id) ?? []) : [md.id];
    for (const p of prots) for (const g of db.genes) if (g.protein === p) genes.add(g.hgncSymbol);
  }
  return CATEGORY_RES.filter(([, re]) => [...genes].some((g) => re.test(g))).map(([c]) => c);
}

export interface InteractionRun {
  result: CpdbResult;
  summary: InteractionSummary;
}

/** The whole task body, with an injectable thread count (tests, benchmarks). */
export async function runInteraction(
  ctx: TaskRunContext<InteractionParams>,
  opts: { threads?: number } = {},
): Promise<InteractionRun> {
  const t0 = performance.now();
  const { params, result } = ctx;
  checkHumanSpecies(result.species);
  const sel = selectInteractionCells(result, params);
  ctx.onProgress({ fraction: 0.02, step: 'database' });
  const db = await loadCpdbDatabase(ctx.resources);
  ctx.onProgress({ fraction: 0.05, step: 'means' });
  const r = await cellphonedbStatistical(
    db,
    { genes: result.genes, matrix: result.normalized(), cells: sel.cells, labels: sel.labels },
    {
      threshold: params.threshold,
      iterations: params.iterations,
      pvalue: params.pvalue,
      seed: params.seed,
      threads: opts.threads,
      signal: ctx.signal,
      onProgress: (done, total) =>
        ctx.onProgress({ fraction: 0.05 + (0.85 * done) / total, step: 'permutations' }),
    },
  );
  if (r.genesMatched === 0) {
    throw new TaskError('interaction.noGenes', 'No dataset gene matches a CellPhoneDB gene.', {
      kind: r.geneIdKind,
    });
  }
  if (r.interactions.length === 0) {
    throw new TaskError(
      'interaction.noInteractions',
      'No CellPhoneDB interaction has both partners expressed.',
    );
  }
  ctx.onProgress({ fraction: 0.92, step: 'tables' });
  const sig = significance(r, params.pvalue);
  const tables = buildTables(db, r, sig, params.precision, r.geneIdKind);
  for (const [name, t] of Object.entries(tables)) await ctx.sink.table(name, t);

  const meta: InteractionMeta = {
    pairs: r.pairs,
    interactions: r.interactions.map((it, i) => ({
      id: it.db.idCp,
      pair: it.interactingPair,
      partnerA: `${it.a.isComplex ? 'complex' : 'simple'}:${it.a.name}`,
      partnerB: `${it.b.isComplex ? 'complex' : 'simple'}:${it.b.name}`,
      secreted: it.a.secreted || it.b.secreted,
      receptorA: it.a.receptor,
      receptorB: it.b.receptor,
      integrin: it.a.integrin || it.b.integrin,
      classification: it.db.classification,
      rank: sig.rank[i]!,
      categories: interactionCategoriesOf(db, r, i),
    })),
  };
  await ctx.sink.data('interactions.json', meta);
  await ctx.sink.data('means.bin', new Uint8Array(Float32Array.from(r.means).buffer));
  await ctx.sink.data('pvalues.bin', new Uint8Array(Float32Array.from(r.pvalues).buffer));

  const counts = pairCounts(r, sig);
  const nT = r.typeNames.length;
  let nSignificant = 0;
  for (const c of counts) nSignificant += c;
  const summary: InteractionSummary = {
    groupBy: params.groupBy,
    geneIdKind: r.geneIdKind,
    genesMatched: r.genesMatched,
    cellTypes: sel.types,
    pairs: r.pairs,
    nInteractions: r.interactions.length,
    nSignificant,
    counts: Array.from({ length: nT }, (_, a) => Array.from(counts.subarray(a * nT, (a + 1) * nT))),
    top30: sig.order.slice(0, 30).map((i) => ({
      index: i,
      interactingPair: r.interactions[i]!.interactingPair,
      idCpInteraction: r.interactions[i]!.db.idCp,
      rank: sig.rank[i]!,
    })),
    iterations: params.iterations,
    threshold: params.threshold,
    pvalue: params.pvalue,
    seed: params.seed,
    cellsPerType: params.cellsPerType,
    seconds: Math.round((performance.now() - t0) / 100) / 10,
  };
  ctx.onProgress({ fraction: 1, step: 'done' });
  return { result: r, summary };
}

export const engine: EngineTask<InteractionParams, InteractionSummary> = {
  name: 'interaction',
  async run(ctx) {
    return (await runInteraction(ctx)).summary;
  },
  estimateMemoryBytes,
};
