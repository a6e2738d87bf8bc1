import type { ArtifactManifest } from '@cellcloud/contracts/artifacts';
import type { FirstFrame, FirstFrameImage } from '../viewer/firstFrame';
import type { DenseGene, GeneCatalog, NormalizedEmbedding } from './decode';

/** Messages between the page (ArtifactClient) and the artifact Web Worker. */
export type WorkerRequest =
  | { op: 'init'; baseUrl: string; token: string | null }
  | { op: 'manifest'; refresh?: true }
  /** frame: also splat the first frame of a canvas of this size as the positions arrive (2-D only) */
  | { op: 'embedding'; name: string; frame?: FirstFrame }
  | { op: 'obs'; key: string }
  | { op: 'genes' }
  /** exact: the exact values (format 2 also downloads them); else colour precision may do. */
  | { op: 'gene'; layer: 'counts' | 'normalized'; gene: number; exact: boolean }
  | { op: 'json'; path: string };

/** An embedding and, when asked for, its first frame (firstFrame.ts). */
export type EmbeddingResult = NormalizedEmbedding & { firstFrame: FirstFrameImage | null };

export type ObsColumn =
  | { kind: 'categorical'; key: string; labels: string[]; codes: Uint32Array }
  | { kind: 'numeric'; key: string; values: Float32Array; min: number; max: number };

export interface WorkerResults {
  init: null;
  manifest: ArtifactManifest;
  embedding: EmbeddingResult;
  obs: ObsColumn;
  genes: Omit<GeneCatalog, 'lookup'>;
  gene: DenseGene & { bytes: number };
  json: unknown;
}

export type WorkerEnvelope = { id: number; req: WorkerRequest };
export type WorkerReply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string; status?: number };
