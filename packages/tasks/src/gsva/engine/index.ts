import type { GsvaParams, GsvaSummary } from '../contract';
import { estimateMemoryBytes } from '../memory';
import { TaskError } from '@cellcloud/engine/tasks/kit';
import { indexGeneSets, loadGeneSets } from '../../_shared/engine/gene-sets/library';
import { speciesMap } from '../../_shared/engine/gene-sets/species';
import { groupsOf } from '@cellcloud/engine/tasks/kit';
import type { EngineTask, TableValue } from '@cellcloud/engine/tasks/kit';
import { gsva } from './gsva';
import { gsvaMatrix } from './matrix';

/** GSVA (docs/methods/gsva.md); `../contract.ts` lists the outputs. */
export const engine: EngineTask<GsvaParams, GsvaSummary> = {
  name: 'gsva',
  async run({ result, params, onProgress, sink, resources, uploads }) {
    onProgress({ fraction: 0, step: 'species' });
    const map = await speciesMap(result, resources);
    const groups = groupsOf(result, params.groupBy);
    let columns: { name: string; group: string; cells: number[] }[];
    if (params.mode === 'pseudobulk') {
      columns = [...groups].map(([name, cells]) => ({ name, group: name, cells }));
    } else {
      columns = [];
      for (const [name, cells] of groups)
        for (const c of cells) columns.push({ name: result.barcodes[c]!, group: name, cells: [c] });
      columns.sort((a, b) => a.cells[0]! - b.cells[0]!);
      if (columns.length > params.maxCells) {
        throw new TaskError(
          'enrichment.gsvaTooManyCells',
          `Per-cell GSVA is limited to ${params.maxCells} cells.`,
          {
            max: params.maxCells,
            cells: columns.length,
          },
        );
      }
    }
    if (columns.length < 2)
      throw new TaskError('enrichment.gsvaColumns', `GSVA needs at least 2 columns.`, { n: columns.length });
    const m = gsvaMatrix(result, map.human, columns, params.mode);
    const all = await loadGeneSets(params.library, resources, uploads);
    const chosen = params.sets.length ? all.filter((s) => params.sets.includes(s.id)) : all;
    const lib = indexGeneSets(chosen, map.human, {
      universe: m.genes,
      min: params.minSetSize,
      max: params.maxSetSize,
      source: params.library,
    });
    const rowOf = new Map<number, number>();
    m.genes.forEach((g, i) => rowOf.set(g, i));
    onProgress({ fraction: 0.1, step: 'gsva' });
    const out = gsva(
      {
        x: m.x,
        nGenes: m.genes.length,
        nCols: m.nCols,
        sets: lib.sets.map((s) => Int32Array.from(s.genes, (g) => rowOf.get(g)!)),
        minSize: params.minSetSize,
        maxSize: params.maxSetSize,
      },
      (f) => onProgress({ fraction: 0.1 + 0.85 * f, step: 'gsva' }),
    );
    const nc = m.nCols;
    const rows = out.kept.map((si, r) => {
      const v = out.scores.subarray(r * nc, (r + 1) * nc);
      let mean = 0;
      for (const x of v) mean += x;
      mean /= nc;
      let ss = 0;
      for (const x of v) ss += (x - mean) ** 2;
      return { set: lib.sets[si]!, size: out.sizes[r]!, sd: Math.sqrt(ss / (nc - 1)), mean, v };
    });
    rows.sort((a, b) => b.sd - a.sd);
    await sink.table('gsva', {
      columns: ['ID', 'Description', 'setSize', 'sd', ...columns.map((c) => c.name)],
      rows: rows.map((r) => [r.set.id, r.set.description, r.size, r.sd, ...Array.from(r.v)] as TableValue[]),
    });
    const top = rows.slice(0, params.showSets);
    await sink.data('heatmap', {
      columns: columns.map((c) => c.name),
      columnGroups: columns.map((c) => c.group),
      rows: top.map((r) => r.set.description),
      ids: top.map((r) => r.set.id),
      // row-scaled (pheatmap scale = "row")
      values: top.map((r) =>
        Array.from(r.v, (x) => (r.sd > 0 ? Math.round(((x - r.mean) / r.sd) * 1e4) / 1e4 : 0)),
      ),
      raw: top.map((r) => Array.from(r.v, (x) => Math.round(x * 1e6) / 1e6)),
    });
    onProgress({ fraction: 1, step: 'done' });
    return { mode: params.mode, columns: nc, sets: rows.length, genes: m.genes.length, mapping: map.mapping };
  },
  estimateMemoryBytes,
};
