/**
 * The explorer artifacts' writer (docs/artifacts.md). The code is in ./artifacts/: driver.ts
 * (writeArtifacts, beginArtifacts), obs.ts (per-cell columns), gene-chunks.ts (format-1 expression
 * chunks), compact.ts (format 2: compact chunks, quantised positions) and sink.ts (ArtifactSink).
 */
export type { ArtifactSink } from './artifacts/sink';
export {
  type ArtifactInput,
  type ArtifactRest,
  type ArtifactsInProgress,
  beginArtifacts,
  writeArtifacts,
} from './artifacts/driver';
export { categoryOrder, encodeObsColumn, stems } from './artifacts/obs';
export { geneChunks, writeGeneBlockChunks, writeGeneChunks, writeLayerChunks } from './artifacts/gene-chunks';
export { compactChunkLength, encodeCompactChunk, quantisePositions } from './artifacts/compact';
