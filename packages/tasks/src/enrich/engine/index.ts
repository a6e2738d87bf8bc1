import { ORA_COLUMNS } from '@cellcloud/contracts/tasks/enrichment-common';
import { degTable, type DegGroupRow } from '../../_shared/engine/comparison/compare';
import { comparisonRows } from '../../_shared/engine/comparison/source';
import { indexGeneSets, loadGeneSets } from '../../_shared/engine/gene-sets/library';
import { speciesMap } from '../../_shared/engine/gene-sets/species';
import { TaskError } from '@cellcloud/engine/tasks/kit';
import type { EngineTask, TableValue } from '@cellcloud/engine/tasks/kit';
import type { EnrichParams, EnrichSummary, OraPlotData } from '../contract';
import { estimateMemoryBytes } from '../memory';
import { overRepresentation, reportedTerms } from './ora';
import { oraPlotData } from './plots';

/**
 * The filter of docs/methods/enrich.md: log2FC > t, raw p < t, adjusted p < t (1 = off), pct1 > t. The up-regulated
 * genes of the group (log2FC > threshold ≥ 0) in the table's order (z-score, highest first).
 */
export function filterDegs(
  rows: DegGroupRow[],
  p: Pick<EnrichParams, 'log2fc' | 'pval' | 'padj' | 'pct'>,
): DegGroupRow[] {
  return rows.filter(
    (r) =>
      r.g >= 0 &&
      r.log2fc > p.log2fc &&
      r.pval < p.pval &&
      (p.padj >= 1 || r.padj < p.padj) &&
      r.pct1 > p.pct,
  );
}

/** Enrichment one-vs-one step 2 (docs/methods/enrich.md); `../contract.ts` lists the outputs. */
export const engine: EngineTask<EnrichParams, EnrichSummary> = {
  name: 'enrich',
  async run(ctx) {
    const { result, params, onProgress, sink, resources, uploads } = ctx;
    onProgress({ fraction: 0, step: 'species' });
    const map = await speciesMap(result, resources);
    const cmp = await comparisonRows(ctx, (f) => onProgress({ fraction: 0.6 * f, step: 'wilcoxon' }));
    const groups = ['group1', 'group2'] as const;
    const filtered = cmp.rows.map((rows) => filterDegs(rows, params));
    if (!filtered[0]!.length && !filtered[1]!.length) {
      throw new TaskError('enrichment.noGenes', 'No gene passes the filter.', {
        group: `${cmp.labels[0]} / ${cmp.labels[1]}`,
      });
    }
    for (const [k, name] of groups.entries()) await sink.table(`filtered_${name}`, degTable(filtered[k]!));
    const symbols = result.genes.symbols;
    const results: EnrichSummary['results'] = [];
    const plots: OraPlotData[] = [];
    const libs = [...new Set(params.libraries)];
    for (const [li, library] of libs.entries()) {
      onProgress({ fraction: 0.6 + (0.4 * li) / libs.length, step: `ora:${library}` });
      const sets = await loadGeneSets(library, resources, uploads);
      const lib = indexGeneSets(sets, map.human, {
        universe: cmp.tested,
        min: params.minSetSize,
        max: params.maxSetSize,
        source: library,
      });
      for (const [k, group] of groups.entries()) {
        const genes = filtered[k]!.map((r) => r.g);
        const fc = new Map(cmp.rows[k].map((r) => [r.g, r.log2fc]));
        const { tested } = overRepresentation(genes, lib, symbols);
        const reported = reportedTerms(tested);
        const table = `ora_${group}_${library}`;
        await sink.table(table, {
          columns: [...ORA_COLUMNS],
          rows: reported.map((t) => ORA_COLUMNS.map((c) => t[c] as TableValue)),
        });
        results.push({
          group,
          library,
          table,
          genes: genes.length,
          termsTested: tested.length,
          termsReported: reported.length,
        });
        plots.push(oraPlotData(group, library, reported, params.showTerms, symbols, (g) => fc.get(g) ?? 0));
      }
    }
    await sink.data('plots', plots);
    onProgress({ fraction: 1, step: 'done' });
    return {
      group1: { label: cmp.labels[0], cells: cmp.cells[0] },
      group2: { label: cmp.labels[1], cells: cmp.cells[1] },
      universe: cmp.tested.length,
      results,
      mapping: map.mapping,
    };
  },
  estimateMemoryBytes,
};
