import type { CellChunks } from '@cellcloud/formats/cell-chunks';
import { CELL_CYCLE_GENES } from '../cell-cycle-genes';
import { scoreCellCycleChunks } from '../methods/cell-cycle';
import { cellCycleGenesFound, type CellCycleResult } from '../steps/cell-cycle';
import { forEachChunk } from './select';

/**
 * CellCycleStep's scores (steps/cell-cycle.ts) on streamed log-normalized values: two passes over
 * the cell chunks (the gene means, then both scores), the same numbers as in memory. None when
 * the data hold no S or no G2M gene, as in memory. The regression of the scores out of the HVGs
 * is not streamed (runAnalysisStreamed refuses it).
 */
export function streamedCellCycle(
  normalized: CellChunks,
  geneSymbols: readonly string[],
  seed: number,
): CellCycleResult['scores'] {
  if (!cellCycleGenesFound(geneSymbols)) return undefined;
  const passes = { nCells: normalized.nCells, forEach: forEachChunk.bind(null, normalized) };
  const cc = scoreCellCycleChunks(passes, geneSymbols, CELL_CYCLE_GENES, { seed });
  return { s: cc.sScore, g2m: cc.g2mScore, phase: cc.phase };
}
