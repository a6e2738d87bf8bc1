import type { VdjParams, VdjSummary } from '@cellcloud/contracts/tasks/vdj';
import { VDJ_UPLOADS } from '@cellcloud/contracts/tasks/vdj';
import { gunzipBytes } from '../bytes';
import { TaskError } from '../errors';
import type { EngineTask, ResultHandle, TableValue } from '../types';
import {
  CHAIN_SLOTS,
  classOf,
  clonotypesOf,
  DEFINITION_COLUMN,
  detectReceptor,
  filterCells,
  slotOf,
  type CellChains,
  type Clonotypes,
  type Receptor,
} from './clonotypes';
import { parseContigs, type Contig } from './contigs';
import { cosineDistance, diversityOf } from './diversity';

/**
 * Immune V(D)J task (contracts `tasks/vdj.ts`, METHODS §9): contig files → cells of the analysis
 * → clonotypes, expansion classes, diversity, usage and overlap tables, per-cell columns.
 */

const SAMPLE_KEY = 'Sample ID';
const strip1 = (b: string) => b.replace(/-1$/, '');

/** The analysis' samples: its "Sample ID" level, or one unnamed sample. */
function samplesOf(result: ResultHandle): { names: string[]; ofCell: (c: number) => string } {
  const col = result.obs(SAMPLE_KEY);
  if (col && col.kind === 'categorical') {
    const names = [...new Set(col.values)];
    return { names, ofCell: (c) => col.values[c]! };
  }
  return { names: ['sample'], ofCell: () => 'sample' };
}

interface FileMatch {
  file: string;
  sample: string;
  /** contig barcode → result cell index */
  cellOf: Map<string, number>;
  cells: number;
  matched: number;
}

/**
 * Matches one file's barcodes to result cells: `<sample>_<barcode>` when the result has several
 * samples (METHODS §9.1 prefixes), the bare barcode otherwise; "-1" stripped on both sides when
 * that matches more (stripSuffix auto) or always (yes).
 */
function matchFile(
  result: ResultHandle,
  samples: { names: string[]; ofCell: (c: number) => string },
  file: string,
  barcodes: string[],
  wanted: string | undefined,
  strip: VdjParams['stripSuffix'],
): FileMatch {
  const multi = samples.names.length > 1;
  const try1 = (sample: string, stripping: boolean) => {
    const index = new Map<string, number>();
    for (let c = 0; c < result.nCells; c++) {
      if (multi && samples.ofCell(c) !== sample) continue;
      let b = result.barcodes[c]!;
      if (multi && b.startsWith(`${sample}_`)) b = b.slice(sample.length + 1);
      index.set(stripping ? strip1(b) : b, c);
    }
    const cellOf = new Map<string, number>();
    for (const b of barcodes) {
      const c = index.get(stripping ? strip1(b) : b);
      if (c !== undefined) cellOf.set(b, c);
    }
    return cellOf;
  };
  const candidates = wanted ? [wanted] : samples.names;
  let best: FileMatch | undefined;
  for (const sample of candidates) {
    const options = strip === 'auto' ? [false, true] : [strip === 'yes'];
    for (const s of options) {
      const cellOf = try1(sample, s);
      if (!best || cellOf.size > best.matched)
        best = { file, sample, cellOf, cells: barcodes.length, matched: cellOf.size };
    }
  }
  return best!;
}

function countBy<T>(items: Iterable<T>, key: (t: T) => string): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of items) {
    const k = key(t);
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  return m;
}

const table = (columns: string[], rows: TableValue[][]) => ({ columns, rows });

export const vdjEngine: EngineTask<VdjParams, VdjSummary> = {
  name: 'vdj',
  estimateMemoryBytes: (shape) => 200e6 + shape.nCells * 400,
  async run({ result, params, onProgress, sink, uploads }) {
    const files = VDJ_UPLOADS.filter((u) => uploads?.[u]);
    if (files.length === 0) throw new TaskError('vdj.noContigs', 'no contig file was attached');
    const samples = samplesOf(result);
    for (const s of Object.values(params.sampleMap)) {
      if (!samples.names.includes(s)) {
        throw new TaskError('vdj.unknownSample', `no sample "${s}"`, {
          sample: s,
          samples: samples.names.join(', '),
        });
      }
    }
    onProgress({ fraction: 0.05, step: 'read' });
    const parsed: { name: string; contigs: Contig[] }[] = [];
    for (const u of files) {
      const bytes = await gunzipBytes(uploads![u]!, u);
      parsed.push({ name: u, contigs: parseContigs(bytes, u) });
    }
    const all = parsed.flatMap((p) => p.contigs);
    const receptor: Receptor = params.receptor === 'auto' ? detectReceptor(all) : params.receptor;
    const slots = CHAIN_SLOTS[receptor];

    onProgress({ fraction: 0.25, step: 'filter' });
    const chainQc: TableValue[][] = [];
    const pairing: TableValue[][] = [];
    const matching: TableValue[][] = [];
    /** result cell index → kept chains and sample */
    const kept = new Map<number, { sample: string; chains: CellChains; ct: Clonotypes }>();
    let productive = 0;
    let ambiguous = 0;
    let paired = 0;
    let cellsWithContigs = 0;
    let matchedTotal = 0;
    for (const p of parsed) {
      const chainOk = (c: Contig) => slotOf(receptor, c.chain) >= 0;
      const prod = p.contigs.filter((c) => c.productive && chainOk(c));
      productive += prod.length;
      const barcodes = [...new Set(p.contigs.map((c) => c.barcode))];
      cellsWithContigs += barcodes.length;
      const m = matchFile(
        result,
        samples,
        p.name,
        barcodes,
        params.sampleMap[p.name as keyof VdjParams['sampleMap']],
        params.stripSuffix,
      );
      matching.push([p.name, m.sample, p.contigs.length, m.cells, m.matched, m.cells - m.matched]);
      if (m.matched === 0) {
        throw new TaskError('vdj.noMatch', `${p.name}: no barcode matches`, {
          file: p.name,
          cells: m.cells,
          sample: m.sample,
        });
      }
      if (prod.length === 0)
        throw new TaskError('vdj.noProductive', `${p.name}: no productive ${receptor} contigs`, {
          file: p.name,
          receptor,
        });
      matchedTotal += m.matched;
      const f = filterCells(p.contigs, receptor, params.pairedOnly);
      ambiguous += f.ambiguous;
      paired += f.paired;
      pairing.push([m.sample, f.paired, f.single, f.ambiguous]);
      const stage = (name: string, list: Iterable<Contig>) => {
        for (const [chain, n] of countBy(list, (c) => c.chain)) chainQc.push([m.sample, name, chain, n]);
      };
      stage('raw', p.contigs);
      stage('productive', prod);
      const finals: Contig[] = [];
      for (const cell of f.cells) {
        const c = m.cellOf.get(cell.barcode);
        if (c === undefined) continue;
        for (const ch of cell.chains) if (ch) finals.push(ch);
        kept.set(c, { sample: m.sample, chains: cell, ct: clonotypesOf(cell) });
      }
      stage('final', finals);
    }
    if (kept.size === 0) {
      throw new TaskError('vdj.noCellsKept', 'no cell left after filtering', {
        paired: params.pairedOnly ? ', paired chains' : '',
      });
    }

    onProgress({ fraction: 0.5, step: 'clonotypes' });
    const defCol = DEFINITION_COLUMN[params.cloneDefine];
    const cloneOf = (c: number) => kept.get(c)!.ct[defCol];
    // frequency per sample (METHODS §9.4)
    const freq = new Map<string, number>(); // sample \u0000 clonotype → cells
    for (const [c, k] of kept)
      freq.set(`${k.sample}\u0000${cloneOf(c)}`, (freq.get(`${k.sample}\u0000${cloneOf(c)}`) ?? 0) + 1);
    const frequencyOf = (c: number) => freq.get(`${kept.get(c)!.sample}\u0000${cloneOf(c)}`) ?? 0;

    const group = result.obs(params.groupBy);
    const groupOf = group
      ? (c: number) => (group.kind === 'categorical' ? group.values[c]! : String(group.values[c]))
      : null;

    // per-cell table and columns
    const overall = countBy(kept.keys(), cloneOf);
    const top = [...overall.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, params.topN);
    const topSet = new Set(top.map(([k]) => k));
    const cellRows: TableValue[][] = [];
    const clonotypeCol = new Array<string>(result.nCells).fill('None');
    const classCol = new Array<string>(result.nCells).fill('None');
    const freqCol = new Float64Array(result.nCells);
    for (const [c, k] of [...kept.entries()].sort((a, b) => a[0] - b[0])) {
      const f = frequencyOf(c);
      const cls = classOf(f, params.breaks);
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
    await sink.table(
      'cells',
      table(
        [
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
        ],
        cellRows,
      ),
    );
    await sink.cellColumn('vdj_clonotype', { kind: 'categorical', values: clonotypeCol });
    await sink.cellColumn('vdj_class', { kind: 'categorical', values: classCol });
    await sink.cellColumn('vdj_frequency', { kind: 'numeric', values: freqCol });

    onProgress({ fraction: 0.65, step: 'tables' });
    const sampleNames = [...new Set([...kept.values()].map((k) => k.sample))];
    const cellsOfSample = (s: string) => [...kept.keys()].filter((c) => kept.get(c)!.sample === s);
    // clonotypes per sample, classes per sample
    const clonoRows: TableValue[][] = [];
    const classRows: TableValue[][] = [];
    const divRows: TableValue[][] = [];
    const propsOf = new Map<string, Map<string, number>>();
    for (const s of sampleNames) {
      const cells = cellsOfSample(s);
      const counts = countBy(cells, cloneOf);
      const props = new Map<string, number>();
      for (const [k, n] of [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) {
        clonoRows.push([s, k, n, n / cells.length, classOf(n, params.breaks)]);
        props.set(k, n / cells.length);
      }
      propsOf.set(s, props);
      const classes = countBy(cells, (c) => classOf(frequencyOf(c), params.breaks));
      for (const cls of ['Single', 'Medium', 'Large'])
        classRows.push([s, cls, classes.get(cls) ?? 0, (classes.get(cls) ?? 0) / cells.length]);
      const d = diversityOf([...counts.values()]);
      divRows.push([
        s,
        d.clonotypes,
        d.cells,
        d.chao1,
        d.hill_q0,
        d.hill_q1,
        d.hill_q2,
        d.inv_simpson,
        d.d50,
      ]);
    }
    await sink.table('clonotypes', table(['sample', 'clonotype', 'cells', 'proportion', 'class'], clonoRows));
    await sink.table('class_by_sample', table(['Sample', 'Description', 'count', 'Frequency'], classRows));
    await sink.table(
      'diversity',
      table(
        ['sample', 'clonotypes', 'cells', 'chao1', 'hill_q0', 'hill_q1', 'hill_q2', 'inv_simpson', 'd50'],
        divRows,
      ),
    );
    await sink.table('chain_qc', table(['sample', 'stage', 'chain', 'contigs'], chainQc));
    await sink.table('pairing', table(['sample', 'paired', 'single', 'ambiguous'], pairing));
    await sink.table(
      'matching',
      table(['file', 'sample', 'contigs', 'cells', 'matched', 'unmatched'], matching),
    );
    await sink.table(
      'top_clonotypes',
      table(
        ['rank', 'clonotype', 'cells', 'samples'],
        top.map(([k, n], i) => [i + 1, k, n, sampleNames.filter((s) => propsOf.get(s)!.has(k)).join(';')]),
      ),
    );

    // class share per group, including cells without a clonotype (04.sc.HaveOrNot)
    const groupRows: TableValue[][] = [];
    const groupSets = new Map<string, Set<string>>(); // clonotype → groups
    if (groupOf) {
      const byGroup = new Map<string, Map<string, number>>();
      const sizes = new Map<string, number>();
      for (let c = 0; c < result.nCells; c++) {
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
    await sink.table('class_by_group', table(['group', 'class', 'cells', 'fraction'], groupRows));
    const upset = countBy(groupSets.values(), (set) => [...set].sort().join('&'));
    await sink.table(
      'group_overlap',
      table(
        ['group_set', 'shared'],
        [...upset.entries()].sort((a, b) => b[1] - a[1]).map(([k, n]) => [k, n]),
      ),
    );

    // overlap between samples, and cosine distances for > 2 samples
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
    await sink.table('overlap', table(['sample_a', 'sample_b', 'shared'], overlapRows));
    await sink.table('sample_distance', table(['sample_a', 'sample_b', 'cosine_distance'], distRows));

    onProgress({ fraction: 0.85, step: 'usage' });
    // V/D/J usage and V–J pairs per sample and chain slot (cells, one contig per chain)
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
    await sink.table(
      'gene_usage',
      table(
        ['sample', 'chain', 'segment', 'gene', 'cells', 'proportion'],
        [...usage.entries()]
          .map(([key, n]) => {
            const [s, chain, seg, gene] = key.split('\u0000') as [string, string, string, string];
            return [s, chain, seg, gene, n, n / slotCells.get(`${s}\u0000${chain}`)!];
          })
          .sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : (b[4] as number) - (a[4] as number))),
      ),
    );
    await sink.table(
      'vj_pairs',
      table(
        ['sample', 'chain', 'v_gene', 'j_gene', 'cells'],
        [...vj.entries()].map(([key, n]) => [
          ...(key.split('\u0000') as [string, string, string, string]),
          n,
        ]),
      ),
    );

    const classes = Object.fromEntries(countBy(kept.keys(), (c) => classOf(frequencyOf(c), params.breaks)));
    onProgress({ fraction: 1, step: 'done' });
    return {
      receptor,
      cloneDefine: params.cloneDefine,
      chains: slots,
      contigs: all.length,
      productiveContigs: productive,
      cellsWithContigs,
      cellsMatched: matchedTotal,
      cellsKept: kept.size,
      pairedCells: paired,
      ambiguousCells: ambiguous,
      clonotypes: overall.size,
      classes,
      samples: sampleNames,
      groupBy: groupOf ? params.groupBy : null,
      top: top.map(([clonotype, cells]) => ({ clonotype, cells })),
    };
  },
};
