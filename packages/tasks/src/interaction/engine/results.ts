import type { TableValue, TaskTable } from '@cellcloud/engine/tasks/kit';
import type { CpdbResult, ResultInteraction } from './analysis';
import type { CpdbDatabase } from './database';

/**
 * CellPhoneDB's output tables from a CpdbResult (`build_results` of
 * cpdb_statistical_analysis_complex_method), plus the long table of docs/product/entities.md#cell-interaction-table, the count network and
 * the top 30 pairs. Booleans are written as CellPhoneDB (pandas) writes them: True / False.
 */

export const INTERACTION_COLUMNS = [
  'id_cp_interaction',
  'interacting_pair',
  'partner_a',
  'partner_b',
  'gene_a',
  'gene_b',
  'secreted',
  'receptor_a',
  'receptor_b',
  'annotation_strategy',
  'is_integrin',
  'directionality',
  'classification',
] as const;

/** docs/product/entities.md#cell-interaction-table: the columns of the cell interaction table. */
export const LONG_TABLE_COLUMNS = [
  'interacting cell',
  'interacting pair',
  'secreted',
  'receptor_a',
  'receptor_b',
  'means',
  'pvalues',
  'rankValue',
] as const;

const py = (b: boolean) => (b ? 'True' : 'False');

/** numpy.round(x, decimals): x · 10^d rounded half to even, divided back. */
export function npRound(x: number, decimals: number): number {
  const f = 10 ** decimals;
  const y = x * f;
  let r = Math.round(y);
  if (Math.abs(y - Math.trunc(y)) === 0.5) r = 2 * Math.round(y / 2);
  return r / f;
}

function interactionCells(it: ResultInteraction): TableValue[] {
  return [
    it.db.idCp,
    it.interactingPair,
    `${it.a.isComplex ? 'complex' : 'simple'}:${it.a.name}`,
    `${it.b.isComplex ? 'complex' : 'simple'}:${it.b.name}`,
    it.geneA || null,
    it.geneB || null,
    py(it.a.secreted || it.b.secreted),
    py(it.a.receptor),
    py(it.b.receptor),
    it.db.annotationStrategy,
    py(it.a.integrin || it.b.integrin),
    it.db.directionality || null,
    it.db.classification || null,
  ];
}

export interface SignificantInfo {
  /** rank per interaction (after 0 → max + 1). */
  rank: Float64Array;
  /** Interaction indices sorted by rank (stable). */
  order: number[];
  /** Significant (p ≤ pvalue) count per pair. */
  significant: Uint8Array;
}

export function significance(r: CpdbResult, pvalue: number): SignificantInfo {
  const nI = r.interactions.length;
  const nP = r.pairs.length;
  const significant = new Uint8Array(nI * nP);
  const rank = new Float64Array(nI);
  let max = 0;
  for (let i = 0; i < nI; i++) {
    let n = 0;
    for (let q = 0; q < nP; q++) {
      const o = i * nP + q;
      // get_significant_means: NaN where p > pvalue (the real mean is kept otherwise)
      if (!(r.pvalues[o]! > pvalue)) {
        significant[o] = 1;
        n++;
      }
    }
    rank[i] = npRound(n / nP, 3);
    if (rank[i]! > max) max = rank[i]!;
  }
  for (let i = 0; i < nI; i++) if (rank[i] === 0) rank[i] = 1 + max;
  const order = Array.from({ length: nI }, (_, i) => i).sort((x, y) => rank[x]! - rank[y]! || x - y);
  return { rank, order, significant };
}

export interface InteractionTables {
  means: TaskTable;
  pvalues: TaskTable;
  significant_means: TaskTable;
  deconvoluted: TaskTable;
  interactions: TaskTable;
  count_network: TaskTable;
  interaction_count: TaskTable;
  top30: TaskTable;
}

export function buildTables(
  db: CpdbDatabase,
  r: CpdbResult,
  sig: SignificantInfo,
  precision: number,
  geneKey: string,
): InteractionTables {
  const nP = r.pairs.length;
  const cols = [...INTERACTION_COLUMNS, ...r.pairs];
  const round = (x: number) => npRound(x, precision);
  const means: TableValue[][] = [];
  const pvalues: TableValue[][] = [];
  r.interactions.forEach((it, i) => {
    const head = interactionCells(it);
    means.push([...head, ...Array.from(r.means.subarray(i * nP, (i + 1) * nP), round)]);
    pvalues.push([...head, ...Array.from(r.pvalues.subarray(i * nP, (i + 1) * nP))]);
  });
  const significantRows = sig.order.map((i) => {
    const it = r.interactions[i]!;
    const vals: TableValue[] = [];
    for (let q = 0; q < nP; q++) vals.push(sig.significant[i * nP + q] ? round(r.means[i * nP + q]!) : null);
    return [...interactionCells(it), sig.rank[i]!, ...vals];
  });

  // long table (docs/product/entities.md#cell-interaction-table): one row per significant (interaction, cell-type pair), rank order
  const long: TableValue[][] = [];
  for (const i of sig.order) {
    const it = r.interactions[i]!;
    for (let q = 0; q < nP; q++) {
      const o = i * nP + q;
      if (!sig.significant[o]) continue;
      long.push([
        r.pairs[q]!,
        it.interactingPair,
        py(it.a.secreted || it.b.secreted),
        py(it.a.receptor),
        py(it.b.receptor),
        round(r.means[o]!),
        r.pvalues[o]!,
        sig.rank[i]!,
      ]);
    }
  }

  // count network: significant interactions per ordered pair; interaction_count per type
  const nT = r.typeNames.length;
  const counts = pairCounts(r, sig);
  const network: TableValue[][] = [];
  for (let a = 0; a < nT; a++)
    for (let b = 0; b < nT; b++) network.push([r.typeNames[a]!, r.typeNames[b]!, counts[a * nT + b]!]);
  const perType: TableValue[][] = r.typeNames.map((t, a) => {
    let sum = 0;
    for (let b = 0; b < nT; b++) sum += counts[a * nT + b]! + (a === b ? 0 : counts[b * nT + a]!);
    return [t, sum];
  });

  const top = sig.order.slice(0, 30).map((i, k) => {
    const it = r.interactions[i]!;
    return [k + 1, it.interactingPair, it.db.idCp, sig.rank[i]!];
  });

  return {
    means: { columns: cols, rows: means },
    pvalues: { columns: cols, rows: pvalues },
    significant_means: { columns: [...INTERACTION_COLUMNS, 'rank', ...r.pairs], rows: significantRows },
    deconvoluted: deconvoluted(db, r, precision, geneKey),
    interactions: { columns: [...LONG_TABLE_COLUMNS], rows: long },
    count_network: { columns: ['SOURCE', 'TARGET', 'count'], rows: network },
    interaction_count: { columns: ['cell_type', 'all_sum'], rows: perType },
    top30: { columns: ['order', 'interacting_pair', 'id_cp_interaction', 'rank'], rows: top },
  };
}

/** Significant interactions per ordered cell-type pair, nTypes × nTypes (source-major). */
export function pairCounts(r: CpdbResult, sig: SignificantInfo): Int32Array {
  const nP = r.pairs.length;
  const out = new Int32Array(nP);
  for (let i = 0; i < r.interactions.length; i++)
    for (let q = 0; q < nP; q++) out[q]! += sig.significant[i * nP + q]!;
  return out;
}

/**
 * CellPhoneDB's `deconvoluted` table: one row per gene of each partner (complex subunits
 * expanded), complex partners rows first then simple ones, side a before side b; columns
 * gene_name, uniprot, is_complex, protein_name, complex_name, id_cp_interaction, gene, then the
 * partner's mean per cell type (a complex's rows carry the complex's mean, as CellPhoneDB);
 * exact duplicate rows dropped.
 */
function deconvoluted(db: CpdbDatabase, r: CpdbResult, precision: number, geneKey: string): TaskTable {
  const rows: TableValue[][] = [];
  const seen = new Set<string>();
  const push = (row: TableValue[]) => {
    const k = JSON.stringify(row);
    if (seen.has(k)) return;
    seen.add(k);
    rows.push(row);
  };
  const meansOf = (id: number) => Array.from(r.multidataMeans.get(id) ?? [], (x) => npRound(x, precision));
  const geneId = (g: { ensembl: string; hgncSymbol: string }) =>
    geneKey === 'ensembl' ? g.ensembl : g.hgncSymbol;
  for (const side of ['a', 'b'] as const) {
    for (const complexPass of [true, false]) {
      for (const it of r.interactions) {
        const md = it[side];
        if (md.isComplex !== complexPass) continue;
        if (md.isComplex) {
          for (const p of db.complexes.get(md.id) ?? []) {
            const prot = db.multidata[p]!;
            if (!r.relations.has(p)) continue;
            for (const g of db.genes.filter((x) => x.protein === p)) {
              push([
                g.geneName,
                prot.name,
                'True',
                prot.proteinName,
                md.name,
                it.db.idCp,
                geneId(g),
                ...meansOf(md.id),
              ]);
            }
          }
        } else {
          for (const g of r.relations.get(md.id) ?? []) {
            push([
              g.geneName,
              md.name,
              'False',
              md.proteinName,
              null,
              it.db.idCp,
              geneId(g),
              ...meansOf(md.id),
            ]);
          }
        }
      }
    }
  }
  return {
    columns: [
      'gene_name',
      'uniprot',
      'is_complex',
      'protein_name',
      'complex_name',
      'id_cp_interaction',
      'gene',
      ...r.typeNames,
    ],
    rows,
  };
}
