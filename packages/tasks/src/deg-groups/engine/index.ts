import { compareTwoGroups, degTable, passesDisplayFilter } from '../../_shared/engine/comparison/compare';
import type { EngineTask } from '@cellcloud/engine/tasks/kit';
import type { DegGroupsParams, DegGroupsSummary } from '../contract';
import { estimateMemoryBytes } from '../memory';
import { pseudobulkTest } from './pseudobulk';

/** Enrichment one-vs-one step 1 (docs/methods/deg-groups.md); `../contract.ts` lists the outputs. */
export const engine: EngineTask<DegGroupsParams, DegGroupsSummary> = {
  name: 'deg-groups',
  async run({ result, params, onProgress, sink }) {
    onProgress({ fraction: 0, step: 'groups' });
    const cmp = compareTwoGroups(result, params.group1, params.group2, params.overlap, (f) =>
      onProgress({ fraction: 0.05 + 0.75 * f, step: 'wilcoxon' }),
    );
    onProgress({ fraction: 0.8, step: 'tables' });
    await sink.table('group1', degTable(cmp.rows[0]));
    await sink.table('group2', degTable(cmp.rows[1]));
    let pseudobulk: DegGroupsSummary['pseudobulk'] = null;
    if (params.pseudobulk) {
      onProgress({ fraction: 0.85, step: 'pseudobulk' });
      const pb = pseudobulkTest(result, cmp.cells, params.sampleKey);
      await sink.table('pseudobulk', pb.table);
      pseudobulk = {
        samples1: pb.samples[0],
        samples2: pb.samples[1],
        genesTested: pb.genesTested,
        significant: pb.significant,
      };
    }
    onProgress({ fraction: 1, step: 'done' });
    return {
      group1: { label: cmp.labels[0], cells: cmp.cells[0].length },
      group2: { label: cmp.labels[1], cells: cmp.cells[1].length },
      droppedOverlap: params.overlap === 'drop' ? cmp.droppedOverlap : 0,
      genesTested: cmp.tested.length,
      shown1: cmp.rows[0].filter((r) => passesDisplayFilter(r)).length,
      shown2: cmp.rows[1].filter((r) => passesDisplayFilter(r)).length,
      pseudobulk,
    };
  },
  estimateMemoryBytes,
};
