import type { CellChunks, GeneBlocks } from '@cellcloud/formats/cell-chunks';
import type { CountStore } from '@cellcloud/formats/store';
import type { AnalysisResult } from '../run-analysis';

/**
 * The out-of-core engine's input and result (issue 33, docs/engine-scaling.md): counts are read
 * through cell chunks and gene blocks (a count store on disk, or an in-memory matrix adapted by
 * cellChunksOf / geneBlocksOf) and never held whole.
 */

/** One sample as the streamed engine reads it (e.g. one count store file). */
export interface StreamedSample {
  name: string;
  cells: CellChunks;
  genes: GeneBlocks;
  geneIds: string[];
  geneSymbols: string[];
  /** One per cell, unique within the sample. */
  barcodes: string[];
}

/**
 * What the streamed run returns: the in-memory result's fields, with the matrices replaced by
 * views over the kept cells (after filtering and doublet removal, merged genes):
 * raw counts and log1p(CP10k) values, cell-major and gene-major. Views decode on demand.
 */
export type StreamedAnalysisResult = Omit<AnalysisResult, 'counts' | 'normalized'> & {
  counts: CellChunks;
  countsGenes: GeneBlocks;
  normalized: CellChunks;
  normalizedGenes: GeneBlocks;
};

/** A count store (formats/store) as a streamed sample named `name`. */
export function storeSample(
  name: string,
  store: Pick<CountStore, 'cells' | 'genes' | 'geneIds' | 'geneSymbols' | 'barcodes'>,
): StreamedSample {
  const { cells, genes, geneIds, geneSymbols, barcodes } = store;
  return { name, cells, genes, geneIds, geneSymbols, barcodes };
}
