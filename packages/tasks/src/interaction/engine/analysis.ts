import type { CountMatrix } from '@cellcloud/formats/matrix';
import type { CpdbDatabase, DbInteraction, GeneRow, Multidata } from './database';
import { countGreater } from './permutations';
import { interactionMeans, typeMeans, type KernelInput } from './permute-kernel';

/**
 * CellPhoneDB v5 statistical analysis (`cpdb_statistical_analysis_method.call`, docs/methods/interaction.md) on
 * already selected cells. Steps as CellPhoneDB's helper does them:
 *  1. dataset genes → protein multidata by the identifier kind the dataset has (hgnc_symbol or
 *     ensembl), exact match; several genes of one protein averaged per cell (groupby mean);
 *  2. prefilters: proteins with a non-zero value in some selected cell; complexes whose every
 *     subunit is such a protein; interactions (deduplicated on their two partners, first kept)
 *     whose partners are both present;
 *  3. per cell type: mean of each protein and fraction of cells with a value > 0; a complex takes
 *     the minimum over its subunits of both;
 *  4. interaction mean for the ordered pair (A, B): (x > 0)(y > 0)(x + y)/2, x = partner a's mean
 *     in A, y = partner b's mean in B;
 *  5. `iterations` shuffles of the cell-type labels; p = fraction of shuffles whose mean is
 *     strictly greater than the real one; p = 1 where the real mean is 0 or a partner's fraction
 *     is not strictly above `threshold`;
 *  6. significant mean = mean where p ≤ pvalue; rank = (number significant / number of pairs)
 *     rounded to 3 decimals, 0 → max + 1, significant table sorted by rank (stable: ties keep
 *     the database order — CellPhoneDB's pandas quicksort leaves tie order unspecified).
 */

export type GeneIdKind = 'hgnc_symbol' | 'ensembl';

export interface CpdbInput {
  genes: { ids: readonly string[]; symbols: readonly string[] };
  /** Normalized expression, genes × cells, CSC by cell. */
  matrix: CountMatrix;
  /** Cells analysed (indices into the matrix) and their cell-type label. */
  cells: Uint32Array;
  labels: readonly string[];
}

export interface CpdbOptions {
  threshold: number;
  iterations: number;
  pvalue: number;
  seed: number;
  threads?: number;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

export interface ResultInteraction {
  db: DbInteraction;
  a: Multidata;
  b: Multidata;
  /** gene_name of simple partners ('' for complexes). */
  geneA: string;
  geneB: string;
  interactingPair: string;
}

export interface CpdbResult {
  geneIdKind: GeneIdKind;
  /** Dataset genes matched to a CellPhoneDB gene. */
  genesMatched: number;
  typeNames: string[];
  typeSizes: number[];
  /** "A|B" in CellPhoneDB column order (A slowest). */
  pairs: string[];
  pairA: Int32Array;
  pairB: Int32Array;
  interactions: ResultInteraction[];
  /** Interaction-major nInteractions × nPairs, unrounded. */
  means: Float64Array;
  pvalues: Float64Array;
  /** Per multidata id used: mean per cell type (nTypes values) — deconvoluted table. */
  multidataMeans: Map<number, Float64Array>;
  /** For deconvoluted: dataset-matched gene rows per protein, and proteins present in the counts. */
  relations: Map<number, GeneRow[]>;
}

const ENSEMBL = /^ENS[A-Z]*G\d{6,}/;

/** Which identifier the dataset's genes carry: Ensembl ids when most ids are Ensembl, else symbols. */
export function geneIdKind(genes: { ids: readonly string[] }): GeneIdKind {
  let ens = 0;
  for (const id of genes.ids) if (ENSEMBL.test(id)) ens++;
  return ens > genes.ids.length / 2 ? 'ensembl' : 'hgnc_symbol';
}

export const compareNames = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);

export async function cellphonedbStatistical(
  db: CpdbDatabase,
  input: CpdbInput,
  opts: CpdbOptions,
): Promise<CpdbResult> {
  const kind = geneIdKind(input.genes);
  const keys =
    kind === 'ensembl' ? input.genes.ids.map((id) => id.replace(/\.\d+$/, '')) : input.genes.symbols;
  // 1. dataset gene → protein rows (with multiplicity, as pandas merge + groupby mean)
  const dbByKey = new Map<string, GeneRow[]>();
  for (const g of db.genes) {
    const k = kind === 'ensembl' ? g.ensembl : g.hgncSymbol;
    let list = dbByKey.get(k);
    if (!list) dbByKey.set(k, (list = []));
    list.push(g);
  }
  const proteinGenes = new Map<number, number[]>(); // protein → dataset gene rows (repeated per match)
  const relations = new Map<number, GeneRow[]>();
  let genesMatched = 0;
  keys.forEach((k, g) => {
    const rows = dbByKey.get(k);
    if (!rows) return;
    genesMatched++;
    for (const r of rows) {
      let l = proteinGenes.get(r.protein);
      if (!l) proteinGenes.set(r.protein, (l = []));
      l.push(g);
      let rel = relations.get(r.protein);
      if (!rel) relations.set(r.protein, (rel = []));
      rel.push(r);
    }
  });

  // cell types (pandas categories: sorted names) and label codes
  const typeNames = [...new Set(input.labels)].sort(compareNames);
  const typeIndex = new Map(typeNames.map((t, i) => [t, i]));
  const nCells = input.cells.length;
  const nTypes = typeNames.length;
  const labels = Int32Array.from(input.labels, (l) => typeIndex.get(l)!);
  const typeSize = new Int32Array(nTypes);
  for (const t of labels) typeSize[t]!++;

  // 2. expressed proteins (non-zero in some selected cell)
  const geneToProteins = new Map<number, { protein: number; w: number }[]>();
  const proteinWeight = new Map<number, number>();
  for (const [p, gs] of proteinGenes) {
    proteinWeight.set(p, gs.length);
    const mult = new Map<number, number>();
    for (const g of gs) mult.set(g, (mult.get(g) ?? 0) + 1);
    for (const [g, w] of mult) {
      let l = geneToProteins.get(g);
      if (!l) geneToProteins.set(g, (l = []));
      l.push({ protein: p, w });
    }
  }
  const expressed = new Set<number>();
  const m = input.matrix;
  for (const c of input.cells) {
    for (let k = m.indptr[c]!; k < m.indptr[c + 1]!; k++) {
      if (m.data[k] === 0) continue;
      const ps = geneToProteins.get(m.indices[k]!);
      if (ps) for (const { protein } of ps) expressed.add(protein);
    }
  }
  const completeComplex = new Set<number>();
  for (const [cx, parts] of db.complexes)
    if (parts.length > 0 && parts.every((p) => expressed.has(p))) completeComplex.add(cx);
  const present = (id: number) => (db.multidata[id]!.isComplex ? completeComplex.has(id) : expressed.has(id));
  const seenPair = new Set<string>();
  const kept: DbInteraction[] = [];
  for (const it of db.interactions) {
    const key = `${it.a},${it.b}`;
    if (seenPair.has(key)) continue;
    seenPair.add(key);
    if (present(it.a) && present(it.b)) kept.push(it);
  }

  // rows: proteins used (directly or as subunits), then complexes used
  const rowOf = new Map<number, number>();
  const proteinRows: number[] = [];
  const complexIds: number[] = [];
  const addProtein = (p: number) => {
    if (!rowOf.has(p)) {
      rowOf.set(p, proteinRows.length);
      proteinRows.push(p);
    }
  };
  for (const it of kept) {
    for (const id of [it.a, it.b]) {
      if (db.multidata[id]!.isComplex) {
        if (!complexIds.includes(id)) complexIds.push(id);
        for (const p of db.complexes.get(id)!) addProtein(p);
      } else addProtein(id);
    }
  }
  const nRows = proteinRows.length;
  complexIds.forEach((cx, x) => rowOf.set(cx, nRows + x));
  const complexPtr = new Int32Array(complexIds.length + 1);
  const complexRowList: number[] = [];
  complexIds.forEach((cx, x) => {
    for (const p of db.complexes.get(cx)!) complexRowList.push(rowOf.get(p)!);
    complexPtr[x + 1] = complexRowList.length;
  });

  // per-cell sparse rows of the used proteins (weighted mean of their genes), float32 as CellPhoneDB
  const rowGenes = new Map<number, { row: number; w: number }[]>();
  proteinRows.forEach((p, row) => {
    const total = proteinWeight.get(p)!;
    for (const [g, list] of geneToProteins) {
      for (const e of list) {
        if (e.protein !== p) continue;
        let l = rowGenes.get(g);
        if (!l) rowGenes.set(g, (l = []));
        l.push({ row, w: e.w / total });
      }
    }
  });
  const cellPtr = new Int32Array(nCells + 1);
  const rowsOut: number[] = [];
  const valsOut: number[] = [];
  const acc = new Float64Array(nRows);
  const touched: number[] = [];
  for (let ci = 0; ci < nCells; ci++) {
    const c = input.cells[ci]!;
    for (let k = m.indptr[c]!; k < m.indptr[c + 1]!; k++) {
      const v = m.data[k]!;
      if (v === 0) continue;
      const rs = rowGenes.get(m.indices[k]!);
      if (!rs) continue;
      for (const { row, w } of rs) {
        if (acc[row] === 0) touched.push(row);
        acc[row] += w === 1 ? v : w * v;
      }
    }
    touched.sort((x, y) => x - y);
    for (const row of touched) {
      if (acc[row] !== 0) {
        rowsOut.push(row);
        valsOut.push(acc[row]!);
      }
      acc[row] = 0;
    }
    touched.length = 0;
    cellPtr[ci + 1] = rowsOut.length;
  }

  // cell-type pairs in CellPhoneDB order
  const nPairs = nTypes * nTypes;
  const pairA = new Int32Array(nPairs);
  const pairB = new Int32Array(nPairs);
  const pairs: string[] = [];
  for (let a = 0; a < nTypes; a++) {
    for (let b = 0; b < nTypes; b++) {
      pairA[a * nTypes + b] = a;
      pairB[a * nTypes + b] = b;
      pairs.push(`${typeNames[a]}|${typeNames[b]}`);
    }
  }

  const kernel: KernelInput = {
    nCells,
    nRows,
    nTypes,
    cellPtr,
    cellRow: Int32Array.from(rowsOut),
    cellVal: Float32Array.from(valsOut),
    labels,
    typeSize,
    complexPtr,
    complexRows: Int32Array.from(complexRowList),
    ia: Int32Array.from(kept, (it) => rowOf.get(it.a)!),
    ib: Int32Array.from(kept, (it) => rowOf.get(it.b)!),
    pa: pairA,
    pb: pairB,
    real: new Float64Array(kept.length * nPairs),
    activePtr: new Int32Array(kept.length + 1),
    activePairs: new Int32Array(0),
    seed: opts.seed,
  };
  // 3–4. real means and expressing fractions
  const nMulti = nRows + complexIds.length;
  const means = new Float64Array(nMulti * nTypes);
  typeMeans(kernel, labels, new Float64Array(nRows * nTypes), means);
  interactionMeans(kernel, means, kernel.real);
  const pct = expressingFractions(kernel, nMulti);
  const decides = (i: number, q: number) =>
    kernel.real[i * nPairs + q]! !== 0 &&
    pct[kernel.ia[i]! * nTypes + pairA[q]!]! > opts.threshold &&
    pct[kernel.ib[i]! * nTypes + pairB[q]!]! > opts.threshold;
  const active: number[] = [];
  for (let i = 0; i < kept.length; i++) {
    for (let q = 0; q < nPairs; q++) if (decides(i, q)) active.push(q);
    kernel.activePtr[i + 1] = active.length;
  }
  kernel.activePairs = Int32Array.from(active);

  // 5. permutations
  opts.onProgress?.(0, opts.iterations);
  const greater = await countGreater(kernel, {
    iterations: opts.iterations,
    threads: opts.threads,
    signal: opts.signal,
    onProgress: opts.onProgress,
  });
  const pvalues = new Float64Array(kept.length * nPairs);
  for (let i = 0; i < kept.length; i++) {
    for (let q = 0; q < nPairs; q++) {
      const o = i * nPairs + q;
      pvalues[o] = decides(i, q) ? greater[o]! / opts.iterations : 1;
    }
  }

  const multidataMeans = new Map<number, Float64Array>();
  for (const [id, row] of rowOf) multidataMeans.set(id, means.slice(row * nTypes, (row + 1) * nTypes));
  const nameOf = (md: Multidata) =>
    md.isComplex ? md.name : (relations.get(md.id)?.[0]?.geneName ?? md.name);
  const interactions: ResultInteraction[] = kept.map((it) => {
    const a = db.multidata[it.a]!;
    const b = db.multidata[it.b]!;
    return {
      db: it,
      a,
      b,
      geneA: a.isComplex ? '' : nameOf(a),
      geneB: b.isComplex ? '' : nameOf(b),
      interactingPair: `${nameOf(a)}_${nameOf(b)}`,
    };
  });
  return {
    geneIdKind: kind,
    genesMatched,
    typeNames,
    typeSizes: Array.from(typeSize),
    pairs,
    pairA,
    pairB,
    interactions,
    means: kernel.real,
    pvalues,
    multidataMeans,
    relations,
  };
}

/** Fraction of cells of each type with a value > 0, per row; complexes the minimum over subunits. */
function expressingFractions(s: KernelInput, nMulti: number): Float64Array {
  const { nCells, nRows, nTypes, cellPtr, cellRow, cellVal, labels, typeSize, complexPtr, complexRows } = s;
  const out = new Float64Array(nMulti * nTypes);
  for (let c = 0; c < nCells; c++) {
    const t = labels[c]!;
    for (let k = cellPtr[c]!; k < cellPtr[c + 1]!; k++) if (cellVal[k]! > 0) out[cellRow[k]! * nTypes + t]!++;
  }
  for (let r = 0; r < nRows; r++) for (let t = 0; t < nTypes; t++) out[r * nTypes + t]! /= typeSize[t]!;
  for (let x = 0; x < complexPtr.length - 1; x++) {
    for (let t = 0; t < nTypes; t++) {
      let mn = Infinity;
      for (let k = complexPtr[x]!; k < complexPtr[x + 1]!; k++)
        mn = Math.min(mn, out[complexRows[k]! * nTypes + t]!);
      out[(nRows + x) * nTypes + t] = mn;
    }
  }
  return out;
}
