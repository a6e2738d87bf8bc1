import { cnvParams, type CnvParams, type CnvSummary } from '../contract';
import { categoricalLevel, TaskError } from '@cellcloud/engine/tasks/kit';
import { speciesKey } from '@cellcloud/contracts/tasks/define';
import type { EngineTask } from '@cellcloud/engine/tasks/kit';
import { estimateMemoryBytes } from '../memory';
import { cnvAccumulator } from './accumulate';
import { NA, selectCnvCells } from './cells';
import { cnvPositions } from './genome';
import { cnvHeatmap } from './heatmap';
import { runInferCnv } from './infercnv';
import { layoutArms, layoutGenes } from './positions';
import { cnvIdentities, cnvScoreTests } from './score-tests';
import { cnvSubclones } from './subclones';
import { armGroupsTable, cnvArmsTable, cnvScoresTable, geneFrequencyTable } from './tables';

export { HEATMAP_MAX_ROWS } from './heatmap';

/**
 * CNV task (issue 17, docs/methods/cnv.md). Outputs (docs/cnv.md lists the columns):
 * tables cnv_scores, cnv_arms, arm_groups, gene_frequency, score_tests; obs CNVscore,
 * CNVscore_SS, CNVscore_SD, cnv_subclone; data heatmap.bin + heatmap.json, scores.json.
 *
 * The steps live in their own files: cells.ts (reference / observed selection), genome.ts
 * (gene-position tables), infercnv.ts (the pipeline) reduced by accumulate.ts, subclones.ts,
 * tables.ts, heatmap.ts and score-tests.ts.
 */
export const MIN_MATCHED_GENES = 300;

export const engine: EngineTask<CnvParams, CnvSummary> = {
  name: 'cnv',
  estimateMemoryBytes,
  async run(ctx) {
    const p = cnvParams.parse(ctx.params);
    const { result } = ctx;
    const species = speciesKey(result.species);
    if (species !== 'human' && species !== 'mouse' && species !== 'unknown') {
      throw new TaskError(
        'common.speciesHumanMouse',
        `This analysis supports human and mouse data only (the dataset is ${result.species}).`,
        {
          species: result.species,
        },
      );
    }
    const progress = (fraction: number, step: string) => ctx.onProgress({ fraction, step });
    progress(0.01, 'positions');

    const sel = selectCnvCells(result, p);
    const { cells, nRef } = sel;
    const nA = cells.length;

    // ---- gene positions ---------------------------------------------------------------------
    const pos = await cnvPositions(ctx.resources, result, p, species);
    const layout = layoutGenes(result, pos.table, pos.idTable);
    const minGenes = Math.max(MIN_MATCHED_GENES, 2 * p.windowLength);
    if (layout.matched < minGenes) {
      throw new TaskError(
        'cnv.fewGenesMatched',
        `Only ${layout.matched} of ${result.nGenes} genes matched the ${pos.genome} gene positions (${pos.file}).`,
        { matched: layout.matched, total: result.nGenes, genome: pos.genome, file: pos.file, min: minGenes },
      );
    }
    const armsAll = layoutArms(layout, result.genes.symbols, pos.genome, pos.bands);

    // ---- inferCNV ------------------------------------------------------------------------------
    const matrix = p.input === 'counts' ? result.counts() : result.normalized();
    const { onKept, emit, acc } = cnvAccumulator(nA, nRef, armsAll.armOfGene, p);
    const out = runInferCnv({
      matrix,
      cells,
      refGroups: sel.refGroups,
      genes: layout.genes,
      chrom: layout.chrom,
      opts: p,
      signal: ctx.signal,
      onProgress: (f, step) => progress(0.02 + f * 0.8, step),
      onKept,
      emit,
    });

    // ---- subclones (per sample) ----------------------------------------------------------------
    progress(0.84, 'subclones');
    const subclones = cnvSubclones({ ...sel, binVals: acc.binVals, nBins: acc.nBins }, p);
    const { subcloneOfPos } = subclones;

    // ---- per-cell outputs and tables -------------------------------------------------------------
    progress(0.88, 'writing');
    const fullCol = (vals: Float64Array) => {
      const f = new Float64Array(result.nCells).fill(NaN);
      for (let i = 0; i < nA; i++) f[cells[i]] = vals[i];
      return f;
    };
    await ctx.sink.cellColumn('CNVscore', { kind: 'numeric', values: fullCol(acc.score) });
    await ctx.sink.cellColumn('CNVscore_SS', { kind: 'numeric', values: fullCol(acc.scoreSS) });
    await ctx.sink.cellColumn('CNVscore_SD', { kind: 'numeric', values: fullCol(acc.scoreSD) });
    const subCol = new Array<string>(result.nCells).fill(NA);
    for (let i = 0; i < nA; i++) subCol[cells[i]] = subcloneOfPos[i];
    await ctx.sink.cellColumn('cnv_subclone', { kind: 'categorical', values: subCol });

    const clusterOf = result.obs(p.clusterKey) ? categoricalLevel(result, p.clusterKey) : null;
    const groupOf = p.groupKey ? categoricalLevel(result, p.groupKey) : null;
    await ctx.sink.table('cnv_scores', cnvScoresTable(result, sel, subcloneOfPos, clusterOf, acc));
    await ctx.sink.table('cnv_arms', cnvArmsTable(result, cells, acc));
    await ctx.sink.table('arm_groups', armGroupsTable(sel, subcloneOfPos, acc));
    const nObs = nA - nRef;
    await ctx.sink.table('gene_frequency', geneFrequencyTable(result, layout, acc, nObs, p));

    // ---- heat map ---------------------------------------------------------------------------------
    progress(0.92, 'heatmap');
    const heat = cnvHeatmap(sel, subcloneOfPos, subclones.rowRank, acc, p.seed);
    await ctx.sink.data('heatmap.bin', heat.bytes);
    await ctx.sink.data('heatmap', heat.layout);

    // ---- score violins and tests --------------------------------------------------------------------
    progress(0.96, 'scores');
    const identities = cnvIdentities(sel, subcloneOfPos, groupOf, clusterOf);
    const tests = cnvScoreTests(nA, nRef, identities, acc, p.comparisons);
    await ctx.sink.data('scores', tests.violins);
    await ctx.sink.table('score_tests', tests.table);

    progress(1, 'done');
    return {
      genome: pos.genome,
      positionsFile: pos.file,
      nGenesDataset: result.nGenes,
      nGenesMatched: layout.matched,
      nGenesUsed: acc.G,
      nObserved: nObs,
      nReference: nRef,
      nReferenceAvailable: sel.nRefAvailable,
      referenceTypes: sel.refTypes,
      observedTypes: sel.observedTypes,
      chromosomes: out.segments.map((s) => ({
        name: `chr${s.chrom}`,
        firstGene: s.start,
        nGenes: s.end - s.start,
      })),
      arms: acc.armNames.map((a, i) => ({
        arm: a,
        chromosome: `chr${a.replace(/[pq]$/, '')}`,
        nGenes: acc.armCounts[i],
      })),
      armSource: armsAll.source,
      denoise: out.denoise,
      valueRange: { min: acc.vMin, max: acc.vMax },
      subclones: subclones.list,
      heatmap: {
        rows: heat.layout.rows,
        bins: heat.layout.bins,
        downsampled: heat.layout.downsampled,
        totalCells: nA,
      },
      identities: identities.map((i) => i.name),
    };
  },
};
