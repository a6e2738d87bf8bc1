import type { VdjParams, VdjSummary } from '../contract';
import { VDJ_UPLOADS } from '../contract';
import { estimateMemoryBytes } from '../memory';
import { gunzipBytes, TaskError } from '@cellcloud/engine/tasks/kit';
import type { EngineTask, TableValue } from '@cellcloud/engine/tasks/kit';
import {
  CHAIN_SLOTS,
  classOf,
  clonotypesOf,
  DEFINITION_COLUMN,
  detectReceptor,
  filterCells,
  slotOf,
  type Receptor,
} from './clonotypes';
import { type Contig, parseContigs } from './contigs';
import { matchFile, samplesOf } from './matching';
import {
  cellOutputs,
  countBy,
  groupTables,
  type KeptCell,
  overlapTables,
  sampleTables,
  table,
  topClonotypesTable,
  usageTables,
  type VdjCells,
} from './tables';

/**
 * Immune V(D)J task (`../contract.ts`, docs/methods/vdj.md): contig files → cells of the analysis
 * (matching.ts) → clonotypes, expansion classes, diversity, usage and overlap tables (tables.ts),
 * per-cell columns.
 */

export const engine: EngineTask<VdjParams, VdjSummary> = {
  name: 'vdj',
  estimateMemoryBytes,
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
    const kept = new Map<number, KeptCell>();
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
    // frequency per sample (docs/methods/vdj.md)
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
    const v: VdjCells = { kept, cloneOf, frequencyOf };
    const cellOut = cellOutputs(result, v, new Set(top.map(([k]) => k)), groupOf, params.breaks);
    await sink.table('cells', cellOut.table);
    await sink.cellColumn('vdj_clonotype', { kind: 'categorical', values: cellOut.clonotypeCol });
    await sink.cellColumn('vdj_class', { kind: 'categorical', values: cellOut.classCol });
    await sink.cellColumn('vdj_frequency', { kind: 'numeric', values: cellOut.freqCol });

    onProgress({ fraction: 0.65, step: 'tables' });
    const sampleNames = [...new Set([...kept.values()].map((k) => k.sample))];
    const perSample = sampleTables(v, sampleNames, params.breaks);
    await sink.table('clonotypes', perSample.clonotypes);
    await sink.table('class_by_sample', perSample.classBySample);
    await sink.table('diversity', perSample.diversity);
    await sink.table('chain_qc', table(['sample', 'stage', 'chain', 'contigs'], chainQc));
    await sink.table('pairing', table(['sample', 'paired', 'single', 'ambiguous'], pairing));
    await sink.table(
      'matching',
      table(['file', 'sample', 'contigs', 'cells', 'matched', 'unmatched'], matching),
    );
    await sink.table('top_clonotypes', topClonotypesTable(top, sampleNames, perSample.propsOf));
    const groups = groupTables(result.nCells, v, groupOf, cellOut.classCol);
    await sink.table('class_by_group', groups.classByGroup);
    await sink.table('group_overlap', groups.groupOverlap);
    const overlap = overlapTables(sampleNames, perSample.propsOf);
    await sink.table('overlap', overlap.overlap);
    await sink.table('sample_distance', overlap.sampleDistance);

    onProgress({ fraction: 0.85, step: 'usage' });
    const usage = usageTables(kept, slots);
    await sink.table('gene_usage', usage.geneUsage);
    await sink.table('vj_pairs', usage.vjPairs);

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
