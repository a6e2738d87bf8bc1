import type { AnalysisParams } from '@cellcloud/contracts/analysis-params';
import type { CellChunks } from '@cellcloud/formats/cell-chunks';
import {
  assertCellsLeft,
  cellsBySample,
  indicesWhere,
  MIN_CELLS_PER_GENE,
  summarizeFilter,
  type SampleFilterSummary,
} from '../steps/filter';
import { computeQcMetrics, geneClasses, type QcMetrics } from '../steps/qc-metrics';
import { recommendThresholds } from '../steps/thresholds';
import { forEachChunk } from './select';

/** QC metrics of every cell in one pass over the cell chunks (computeQcMetrics chunk by chunk). */
export function streamedQcMetrics(cells: CellChunks, symbols: string[]): QcMetrics {
  const classes = geneClasses(symbols);
  const n = cells.nCells;
  const out: QcMetrics = {
    nGenes: new Float64Array(n),
    nUmi: new Float64Array(n),
    pctMito: new Float64Array(n),
    pctRibo: new Float64Array(n),
  };
  forEachChunk(cells, (m, c0) => {
    const q = computeQcMetrics(m, symbols, classes);
    out.nGenes.set(q.nGenes, c0);
    out.nUmi.set(q.nUmi, c0);
    out.pctMito.set(q.pctMito, c0);
    out.pctRibo.set(q.pctRibo, c0);
  });
  return out;
}

export interface StreamedFilter {
  /** Kept cells (merged indices, increasing). */
  cellIndex: Int32Array;
  /** Genes expressed in ≥ MIN_CELLS_PER_GENE kept cells of some sample (merged genes). */
  keepGene: Uint8Array;
  summary: SampleFilterSummary[];
}

/**
 * FilterStep's cell and gene filters (steps/filter.ts) on streamed counts: thresholds from the
 * per-cell metrics (the same code), the kept cells as an index, then one pass over the chunks of
 * the kept cells for the genes expressed in ≥ MIN_CELLS_PER_GENE cells of some sample.
 */
export function streamedFilter(
  cells: CellChunks,
  qc: QcMetrics,
  sampleOfCell: Int32Array,
  sampleNames: string[],
  params: Pick<
    AnalysisParams,
    'expressedGeneRange' | 'expressedUmiRange' | 'mitochondrialContent' | 'ribosomalContent'
  >,
): StreamedFilter {
  const bySample = cellsBySample(sampleOfCell, sampleNames.length);
  const thresholds = recommendThresholds(qc, bySample, params);
  const { keep, summary } = summarizeFilter(qc, bySample, sampleNames, thresholds);
  assertCellsLeft(summary);
  const nGenes = cells.nGenes;
  const expressing = new Uint32Array(nGenes * sampleNames.length);
  forEachChunk(cells, (m, c0) => {
    for (let c = 0; c < m.nCells; c++) {
      if (!keep[c0 + c]) continue;
      const base = sampleOfCell[c0 + c] * nGenes;
      for (let k = m.indptr[c]; k < m.indptr[c + 1]; k++)
        if (m.data[k] > 0) expressing[base + m.indices[k]]++;
    }
  });
  const keepGene = new Uint8Array(nGenes);
  for (let s = 0; s < sampleNames.length; s++)
    for (let g = 0; g < nGenes; g++) if (expressing[s * nGenes + g] >= MIN_CELLS_PER_GENE) keepGene[g] = 1;
  return { cellIndex: indicesWhere(keep), keepGene, summary };
}
