import type { CnvParams } from '../contract';
import type { ResultHandle, TableValue, TaskTable } from '@cellcloud/engine/tasks/kit';
import type { CnvAccumulation } from './accumulate';
import type { CnvCells } from './cells';
import type { GeneLayout } from './positions';

/** The CNV output tables (docs/cnv.md lists their columns). Positions < nRef are reference cells. */

/** cnv_scores: one row per analysed cell. */
export function cnvScoresTable(
  result: ResultHandle,
  c: CnvCells,
  subcloneOfPos: readonly string[],
  clusterOf: readonly string[] | null,
  acc: CnvAccumulation,
): TaskTable {
  const { cells, types, sampleOf, nRef } = c;
  return {
    columns: [
      'cell',
      'type',
      'sample',
      'cluster',
      'subclone',
      'reference',
      'CNVscore',
      'CNVscore_SS',
      'CNVscore_SD',
    ],
    rows: Array.from({ length: cells.length }, (_, i) => {
      const cell = cells[i];
      return [
        result.barcodes[cell],
        types[cell],
        sampleOf[cell],
        clusterOf ? clusterOf[cell] : null,
        subcloneOfPos[i],
        i < nRef,
        acc.score[i],
        acc.scoreSS[i],
        acc.scoreSD[i],
      ];
    }),
  };
}

/** cnv_arms: one row per analysed cell × arm (the arm's mean value). */
export function cnvArmsTable(result: ResultHandle, cells: Uint32Array, acc: CnvAccumulation): TaskTable {
  const { armNames, armVals } = acc;
  const nArms = armNames.length;
  const nA = cells.length;
  const armRows: TableValue[][] = new Array(nA * nArms);
  for (let i = 0; i < nA; i++) {
    const bc = result.barcodes[cells[i]];
    for (let a = 0; a < nArms; a++) armRows[i * nArms + a] = [bc, armNames[a], armVals[i * nArms + a]];
  }
  return { columns: ['cell', 'arm', 'value'], rows: armRows };
}

/** arm_groups: group × arm means, by cell type and by subclone. */
export function armGroupsTable(
  c: CnvCells,
  subcloneOfPos: readonly string[],
  acc: CnvAccumulation,
): TaskTable {
  const { armNames, armVals } = acc;
  const { cells, types, nRef } = c;
  const nArms = armNames.length;
  const nA = cells.length;
  const groupRows: TableValue[][] = [];
  const addGroups = (kind: string, labelOf: (i: number) => string) => {
    const idx = new Map<string, number[]>();
    for (let i = 0; i < nA; i++) {
      const l = labelOf(i);
      let a = idx.get(l);
      if (!a) idx.set(l, (a = []));
      a.push(i);
    }
    for (const [l, rows] of idx) {
      for (let a = 0; a < nArms; a++) {
        let s = 0;
        for (const i of rows) s += armVals[i * nArms + a];
        groupRows.push([l, kind, rows[0] < nRef, armNames[a], s / rows.length, rows.length]);
      }
    }
  };
  addGroups('type', (i) => types[cells[i]]);
  addGroups('subclone', (i) => subcloneOfPos[i]);
  return { columns: ['group', 'kind', 'reference', 'arm', 'mean', 'cells'], rows: groupRows };
}

/** gene_frequency: per kept gene, the observed cells' mean value, loss / gain fractions and call. */
export function geneFrequencyTable(
  result: ResultHandle,
  layout: GeneLayout,
  acc: CnvAccumulation,
  nObs: number,
  p: Pick<CnvParams, 'minFraction'>,
): TaskTable {
  const { G, keptLayout, loss, gain, geneSum, armNames, armIdx } = acc;
  const geneRows: TableValue[][] = [];
  for (let k = 0; k < G; k++) {
    const li = keptLayout[k];
    const g = layout.genes[li];
    const lf = loss[k] / nObs;
    const gf = gain[k] / nObs;
    const call = lf >= p.minFraction && lf >= gf ? 'loss' : gf >= p.minFraction ? 'gain' : 'neutral';
    geneRows.push([
      result.genes.symbols[g] || result.genes.ids[g],
      `chr${layout.chrom[li]}`,
      armNames[armIdx[k]],
      layout.start[li],
      layout.end[li],
      geneSum[k] / nObs,
      lf,
      gf,
      call,
    ]);
  }
  return {
    columns: ['gene', 'chromosome', 'arm', 'start', 'end', 'mean', 'loss_fraction', 'gain_fraction', 'call'],
    rows: geneRows,
  };
}
