import type { VdjParams } from '../contract';
import type { ResultHandle, TableValue, TaskTable } from '@cellcloud/engine/tasks/kit';
import { type CellChains, classOf, type Clonotypes } from './clonotypes';
import { cosineDistance, diversityOf } from './diversity';

/**
 * The V(D)J output tables (docs list their columns), built from the kept cells of a run. Each
 * function is pure: the task writes what they return.
 */

/** A kept cell: its sample, its one or two chains and its clonotype strings. */
export interface KeptCell {
  sample: string;
  chains: CellChains;
  ct: Clonotypes;
}

/** The kept cells (result cell index → cell) with their clonotype and per-sample frequency. */
export interface VdjCells {
  kept: Map<number, KeptCell>;
  cloneOf: (c: number) => string;
  frequencyOf: (c: number) => number;
}

type Breaks = VdjParams['breaks'];

export const table = (columns: string[], rows: TableValue[][]): TaskTable => ({ columns, rows });

export function countBy<T>(items: Iterable<T>, key: (t: T) => string): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of items) {
    const k = key(t);
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  return m;
}

/**
 * The per-cell table (kept cells in result order) and the explorer's columns: clonotype (the
 * `topSet` ones, else "Other"; "None" without receptor), expansion class and frequency.
 */
export function cellOutputs(
  result: ResultHandle,
  v: VdjCells,
  topSet: ReadonlySet<string>,
  groupOf: ((c: number) => string) | null,
  breaks: Breaks,
): { table: TaskTable; clonotypeCol: string[]; classCol: string[]; freqCol: Float64Array } {
  const { kept, cloneOf, frequencyOf } = v;
  const cellRows: TableValue[][] = [];
  const clonotypeCol = new Array<string>(result.nCells).fill('None');
  const classCol = new Array<string>(result.nCells).fill('None');
  const freqCol = new Float64Array(result.nCells);
  for (const [c, k] of [...kept.entries()].sort((a, b) => a[0] - b[0])) {
    const f = frequencyOf(c);
    const cls = classOf(f, breaks);
    clonotypeCol[c] = topSet.has(cloneOf(c)) ? cloneOf(c) : 'Other';
    classCol[c] = cls;
    freqCol[c] = f;
    const chain = (i: 0 | 1) => k.chains.chains[i]?.chain ?? 'None';
    cellRows.push([
      result.barcodes[c]!,
      k.sample,
      chain(0),
      chain(1),
      k.ct.CTgene,
      k.ct.CTaa,
      k.ct.CTnt,
      k.ct.CTstrict,
      k.ct.CTstrictaa,
      cloneOf(c),
      f,
      cls,
      groupOf ? groupOf(c) : null,
    ]);
  }
  const columns = [
    'barcode',
    'sample',
    'chain1',
    'chain2',
    'CTgene',
    'CTaa',
    'CTnt',
    'CTstrict',
    'CTstrictaa',
    'clonotype',
    'frequency',
    'class',
    'group',
  ];
  return { table: table(columns, cellRows), clonotypeCol, classCol, freqCol };
}

/**
 * Per sample: clonotypes (largest first) with their proportion and class, class counts, diversity
 * indices; `propsOf` keeps each sample's clonotype proportions for the overlap tables.
 */
export function sampleTables(
  v: VdjCells,
  sampleNames: readonly string[],
  breaks: Breaks,
): {
  clonotypes: TaskTable;
  classBySample: TaskTable;
  diversity: TaskTable;
  propsOf: Map<string, Map<string, number>>;
} {
  const { kept, cloneOf, frequencyOf } = v;
  const cellsOfSample = (s: string) => [...kept.keys()].filter((c) => kept.get(c)!.sample === s);
  const clonoRows: TableValue[][] = [];
  const classRows: TableValue[][] = [];
  const divRows: TableValue[][] = [];
  const propsOf = new Map<string, Map<string, number>>();
  for (const s of sampleNames) {
    const cells = cellsOfSample(s);
    const counts = countBy(cells, cloneOf);
    const props = new Map<string, number>();
    for (const [k, n] of [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) {
      clonoRows.push([s, k, n, n / cells.length, classOf(n, breaks)]);
      props.set(k, n / cells.length);
    }
    propsOf.set(s, props);
    const classes = countBy(cells, (c) => classOf(frequencyOf(c), breaks));
    for (const cls of ['Single', 'Medium', 'Large'])
      classRows.push([s, cls, classes.get(cls) ?? 0, (classes.get(cls) ?? 0) / cells.length]);
    const d = diversityOf([...counts.values()]);
    divRows.push([s, d.clonotypes, d.cells, d.chao1, d.hill_q0, d.hill_q1, d.hill_q2, d.inv_simpson, d.d50]);
  }
  return {
    clonotypes: table(['sample', 'clonotype', 'cells', 'proportion', 'class'], clonoRows),
    classBySample: table(['Sample', 'Description', 'count', 'Frequency'], classRows),
    diversity: table(
      ['sample', 'clonotypes', 'cells', 'chao1', 'hill_q0', 'hill_q1', 'hill_q2', 'inv_simpson', 'd50'],
      divRows,
    ),
    propsOf,
  };
}

/** The overall top clonotypes with the samples they occur in. */
export function topClonotypesTable(
  top: readonly [string, number][],
  sampleNames: readonly string[],
  propsOf: ReadonlyMap<string, ReadonlyMap<string, number>>,
): TaskTable {
  return table(
    ['rank', 'clonotype', 'cells', 'samples'],
    top.map(([k, n], i) => [i + 1, k, n, sampleNames.filter((s) => propsOf.get(s)!.has(k)).join(';')]),
  );
}

/**
 * Class share per group, including cells without a clonotype (04.sc.HaveOrNot), and the sets of
 * groups sharing a clonotype (upset counts). Both empty without a group column.
 */
export function groupTables(
  nCells: number,
  v: VdjCells,
  groupOf: ((c: number) => string) | null,
  classCol: readonly string[],
): { classByGroup: TaskTable; groupOverlap: TaskTable } {
  const { kept, cloneOf } = v;
  const groupRows: TableValue[][] = [];
  const groupSets = new Map<string, Set<string>>(); // clonotype → groups
  if (groupOf) {
    const byGroup = new Map<string, Map<string, number>>();
    const sizes = new Map<string, number>();
    for (let c = 0; c < nCells; c++) {
      const g = groupOf(c);
      sizes.set(g, (sizes.get(g) ?? 0) + 1);
      let m = byGroup.get(g);
      if (!m) byGroup.set(g, (m = new Map()));
      const cls = classCol[c]!;
      m.set(cls, (m.get(cls) ?? 0) + 1);
      if (kept.has(c)) {
        const k = cloneOf(c);
        let set = groupSets.get(k);
        if (!set) groupSets.set(k, (set = new Set()));
        set.add(g);
      }
    }
    for (const [g, m] of [...byGroup.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      for (const cls of ['Single', 'Medium', 'Large', 'None'])
        groupRows.push([g, cls, m.get(cls) ?? 0, (m.get(cls) ?? 0) / sizes.get(g)!]);
    }
  }
  const upset = countBy(groupSets.values(), (set) => [...set].sort().join('&'));
  return {
    classByGroup: table(['group', 'class', 'cells', 'fraction'], groupRows),
    groupOverlap: table(
      ['group_set', 'shared'],
      [...upset.entries()].sort((a, b) => b[1] - a[1]).map(([k, n]) => [k, n]),
    ),
  };
}

/** Shared clonotypes between samples, and cosine distances of their proportions for > 2 samples. */
export function overlapTables(
  sampleNames: readonly string[],
  propsOf: ReadonlyMap<string, ReadonlyMap<string, number>>,
): { overlap: TaskTable; sampleDistance: TaskTable } {
  const overlapRows: TableValue[][] = [];
  const distRows: TableValue[][] = [];
  for (let i = 0; i < sampleNames.length; i++) {
    for (let j = i + 1; j < sampleNames.length; j++) {
      const a = propsOf.get(sampleNames[i]!)!;
      const b = propsOf.get(sampleNames[j]!)!;
      let shared = 0;
      for (const k of a.keys()) if (b.has(k)) shared++;
      overlapRows.push([sampleNames[i]!, sampleNames[j]!, shared]);
      if (sampleNames.length > 2) distRows.push([sampleNames[i]!, sampleNames[j]!, cosineDistance(a, b)]);
    }
  }
  return {
    overlap: table(['sample_a', 'sample_b', 'shared'], overlapRows),
    sampleDistance: table(['sample_a', 'sample_b', 'cosine_distance'], distRows),
  };
}

/** V/D/J usage and V–J pairs per sample and chain slot (cells, one contig per chain). */
export function usageTables(
  kept: ReadonlyMap<number, KeptCell>,
  slots: readonly string[],
): { geneUsage: TaskTable; vjPairs: TaskTable } {
  const usage = new Map<string, number>();
  const vj = new Map<string, number>();
  const slotCells = new Map<string, number>();
  for (const k of kept.values()) {
    k.chains.chains.forEach((ch, i) => {
      if (!ch) return;
      const chain = slots[i]!;
      slotCells.set(`${k.sample}\u0000${chain}`, (slotCells.get(`${k.sample}\u0000${chain}`) ?? 0) + 1);
      for (const [seg, gene] of [
        ['V', ch.v],
        ['D', ch.d],
        ['J', ch.j],
      ] as const) {
        if (gene === 'None') continue;
        const key = [k.sample, chain, seg, gene].join('\u0000');
        usage.set(key, (usage.get(key) ?? 0) + 1);
      }
      const key = [k.sample, chain, ch.v, ch.j].join('\u0000');
      vj.set(key, (vj.get(key) ?? 0) + 1);
    });
  }
  return {
    geneUsage: table(
      ['sample', 'chain', 'segment', 'gene', 'cells', 'proportion'],
      [...usage.entries()]
        .map(([key, n]) => {
          const [s, chain, seg, gene] = key.split('\u0000') as [string, string, string, string];
          return [s, chain, seg, gene, n, n / slotCells.get(`${s}\u0000${chain}`)!];
        })
        .sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : (b[4] as number) - (a[4] as number))),
    ),
    vjPairs: table(
      ['sample', 'chain', 'v_gene', 'j_gene', 'cells'],
      [...vj.entries()].map(([key, n]) => [...(key.split('\u0000') as [string, string, string, string]), n]),
    ),
  };
}
