import { pickDefaults, type AnalysisParams } from '@cellcloud/contracts/analysis-params';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { EngineError } from '../errors';
import { selectCellsAndGenes } from '../sparse';
import type { InputsStep } from './inputs';
import type { QcMetrics } from './qc-metrics';
import type { QcStep } from './qc';
import { Step } from './step';
import { passesThresholds, recommendThresholds, type SampleThresholds } from './thresholds';

export type FilterParams = Pick<
  AnalysisParams,
  'expressedGeneRange' | 'expressedUmiRange' | 'mitochondrialContent' | 'ribosomalContent'
>;

export interface SampleFilterSummary {
  sample: string;
  cellsBefore: number;
  cellsAfter: number;
  thresholds: SampleThresholds;
  /** Cells failing each criterion (a cell may fail several). */
  failed: { genes: number; umi: number; mito: number; ribo: number };
}

/** The filtered data every later step starts from. */
export interface FilteredData {
  counts: CountMatrix;
  geneIds: string[];
  geneSymbols: string[];
  barcodes: string[];
  sampleOfCell: Int32Array;
  /** Index of each kept cell in the merged input. */
  cellIndex: Int32Array;
  qc: QcMetrics;
  summary: SampleFilterSummary[];
}

/** A gene is kept when at least this many cells of some sample express it (docs/methods/pipeline.md#qc-filters). */
export const MIN_CELLS_PER_GENE = 5;

export function cellsBySample(sampleOfCell: Int32Array, nSamples: number): number[][] {
  const out: number[][] = Array.from({ length: nSamples }, () => []);
  sampleOfCell.forEach((s, c) => out[s].push(c));
  return out;
}

export function summarizeFilter(
  qc: QcMetrics,
  bySample: number[][],
  names: string[],
  thresholds: SampleThresholds[],
): { keep: Uint8Array; summary: SampleFilterSummary[] } {
  const keep = new Uint8Array(qc.nGenes.length);
  const summary = bySample.map((cells, s) => {
    const t = thresholds[s];
    const failed = { genes: 0, umi: 0, mito: 0, ribo: 0 };
    let after = 0;
    for (const c of cells) {
      if (qc.nGenes[c] < t.minGenes || qc.nGenes[c] > t.maxGenes) failed.genes++;
      if (qc.nUmi[c] < t.minUmi || qc.nUmi[c] > t.maxUmi) failed.umi++;
      if (!(qc.pctMito[c] < t.maxMito)) failed.mito++;
      if (!(qc.pctRibo[c] < t.maxRibo)) failed.ribo++;
      if (passesThresholds(qc, c, t)) {
        keep[c] = 1;
        after++;
      }
    }
    return { sample: names[s], cellsBefore: cells.length, cellsAfter: after, thresholds: t, failed };
  });
  return { keep, summary };
}

/** Every sample keeps at least one cell, or the run stops with NO_CELLS_AFTER_FILTER. */
export function assertCellsLeft(summary: SampleFilterSummary[]): void {
  for (const s of summary) {
    if (s.cellsAfter === 0) {
      throw new EngineError(
        'NO_CELLS_AFTER_FILTER',
        `No cell of sample "${s.sample}" passes the cell filters; widen the gene, UMI or mitochondrial thresholds.`,
        { sample: s.sample },
      );
    }
  }
}

export class FilterStep extends Step<FilterParams, FilteredData> {
  readonly name = 'filter' as const;
  /** One-shot runs: compact the merged input in place and release it (no re-run with other filters). */
  inPlace = false;

  constructor(
    private readonly inputs: InputsStep,
    private readonly qcStep: QcStep,
  ) {
    super([inputs, qcStep]);
  }

  static defaults(): FilterParams {
    return pickDefaults(
      'expressedGeneRange',
      'expressedUmiRange',
      'mitochondrialContent',
      'ribosomalContent',
    );
  }

  protected run(params: FilterParams): FilteredData {
    const input = this.inputs.value;
    const qc = this.qcStep.value;
    const bySample = cellsBySample(input.sampleOfCell, input.sampleNames.length);
    const thresholds = recommendThresholds(qc, bySample, params);
    const { keep, summary } = summarizeFilter(qc, bySample, input.sampleNames, thresholds);
    assertCellsLeft(summary);
    const cellIndex = indicesWhere(keep);
    const sampleOfCell = Int32Array.from(cellIndex, (c) => input.sampleOfCell[c]);
    const keptGenes = genesExpressedInSomeSample(
      input.counts,
      cellIndex,
      sampleOfCell,
      input.sampleNames.length,
    );
    const pick = (a: Float64Array) => Float64Array.from(cellIndex, (c) => a[c]);
    // cells and genes in one pass; in place (no copy) when the runner hands over the merged input
    const counts = selectCellsAndGenes(input.counts, cellIndex, keptGenes, this.inPlace);
    if (this.inPlace) this.inputs.releaseCounts();
    return {
      counts,
      geneIds: input.geneIds.filter((_, g) => keptGenes[g]),
      geneSymbols: input.geneSymbols.filter((_, g) => keptGenes[g]),
      barcodes: Array.from(cellIndex, (c) => input.barcodes[c]),
      sampleOfCell,
      cellIndex,
      qc: {
        nGenes: pick(qc.nGenes),
        nUmi: pick(qc.nUmi),
        pctMito: pick(qc.pctMito),
        pctRibo: pick(qc.pctRibo),
      },
      summary,
    };
  }
}

/** Genes with ≥ MIN_CELLS_PER_GENE expressing cells (of those listed) in some sample; sampleOfCell follows `cells`. */
function genesExpressedInSomeSample(
  m: CountMatrix,
  cells: Int32Array,
  sampleOfCell: Int32Array,
  nSamples: number,
): Uint8Array {
  const counts = new Uint32Array(m.nGenes * nSamples);
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i];
    const base = sampleOfCell[i] * m.nGenes;
    for (let k = m.indptr[c]; k < m.indptr[c + 1]; k++) if (m.data[k] > 0) counts[base + m.indices[k]]++;
  }
  const keep = new Uint8Array(m.nGenes);
  for (let s = 0; s < nSamples; s++) {
    for (let g = 0; g < m.nGenes; g++) if (counts[s * m.nGenes + g] >= MIN_CELLS_PER_GENE) keep[g] = 1;
  }
  return keep;
}

export function indicesWhere(flags: Uint8Array): Int32Array {
  let n = 0;
  for (let i = 0; i < flags.length; i++) if (flags[i]) n++;
  const out = new Int32Array(n);
  for (let i = 0, j = 0; i < flags.length; i++) if (flags[i]) out[j++] = i;
  return out;
}
