import type { ArtifactManifest } from '@cellcloud/contracts/artifacts';
import { beginH5adRanges } from '@cellcloud/formats';
import {
  H5AD_DEFLATE_LEVEL,
  type OutputSink,
  type OutputsInProgress,
  startOutputsWith,
} from '../write-outputs';
import type { StreamedAnalysisResult } from './types';
import { geneLayersSharingBlocks } from './views';
import { csrOfChunks } from './write-cells';

/**
 * writeOutputs (write-outputs.ts) of a streamed result (issue 33, docs/engine-scaling.md):
 * analysis.h5ad with X from the normalized cell chunks and layers/counts from the counts' (each
 * array read chunk by chunk, the counts decoded once for X's indices and their own values; the
 * counts' indices and indptr written once and linked), markers.csv,
 * and the explorer artifacts with the expression layers from the gene blocks (a block of ≤ 4M
 * values at a time). Memory is bounded by the chunk and block sizes, not the non-zeros. The files
 * are those writeOutputs writes for the same matrices held in memory, byte for byte
 * (test/stream/write.test.ts).
 */
export async function writeStreamedOutputs(
  result: StreamedAnalysisResult,
  sink: OutputSink,
): Promise<ArtifactManifest> {
  const outputs = await startStreamedOutputs(result, sink);
  return outputs.finish(result);
}

/** startOutputs of a streamed result: the matrices now, the rest with `finish` (e.g. after the layouts). */
export async function startStreamedOutputs(
  early: StreamedAnalysisResult,
  sink: OutputSink,
): Promise<OutputsInProgress> {
  const { counts, normalized } = early;
  if (normalized.nCells !== counts.nCells || normalized.nGenes !== counts.nGenes)
    throw new Error('the normalized chunks have another shape than the counts');
  return startOutputsWith(early, sink, {
    nCells: counts.nCells,
    h5ad: (target) =>
      beginH5adRanges(
        {
          // one pass over the counts for X's indices and the counts' values (the writer
          // interleaves their chunks), one over the normalized values for X's
          counts: csrOfChunks(counts),
          normalized: csrOfChunks(normalized),
          genes: { ids: early.geneIds, symbols: early.geneSymbols },
          barcodes: early.barcodes,
          compression: H5AD_DEFLATE_LEVEL,
        },
        target,
      ),
    // each gene block decoded once for both expression layers (the normalized from the counts')
    layers: { layers: {}, geneLayers: geneLayersSharingBlocks(early.countsGenes, early.normalizedGenes) },
  });
}
