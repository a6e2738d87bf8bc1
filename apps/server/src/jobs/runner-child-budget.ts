import { artifactManifest, type ArtifactManifest } from '@cellcloud/contracts/artifacts';
import { isEngineError } from '@cellcloud/engine/errors';
import {
  estimateMemoryBytes,
  estimateStreamedMemoryBytes,
  notStreamable,
  STREAMED_MIN_CELLS,
  type MemoryEstimateInput,
} from '@cellcloud/engine/memory';
import { parseParams } from '@cellcloud/engine/validate';
import type { Config } from '../config';
import '../i18n/job-failures';
import { translate } from '../i18n/translate';
import type { Storage } from '../storage/storage';
import { PermanentJobError } from './runner-tracked';

/**
 * Memory budget of the explorer's child tasks (`analysis.deg`, `analysis.subcluster`), checked in
 * the parent before a child is forked, like `analysis.run` does with the engine's
 * estimateMemoryBytes. The parent never decodes the stored result: sizes come from the explorer
 * manifest (a format-2 layer states its nnz) and storage stats (a format-1 counts layer `expr/counts.bin` is 4 bytes per gene + 8 per
 * non-zero, so it gives the exact non-zero count).
 */
export interface StoredResultSize {
  nCells: number;
  nGenes: number;
  nnz: number;
  /** Size of the stored (gzip-compressed) `analysis.h5ad`. */
  h5adBytes: number;
  manifest: ArtifactManifest;
  /** `results/<id>/artifacts/` */
  artifacts: string;
}

const MiB = 2 ** 20;
/** Node, the WebAssembly module and code (the same fixed share as the engine's estimate). */
const FIXED = 400 * MiB;

/** Sizes of a stored result (`results/<id>/`), or undefined when its h5ad or manifest is gone. */
export async function storedResultSize(
  storage: Storage,
  prefix: string,
): Promise<StoredResultSize | undefined> {
  const h5ad = await storage.stat(`${prefix}analysis.h5ad`);
  const artifacts = `${prefix}artifacts/`;
  if (!h5ad || !(await storage.stat(`${artifacts}manifest.json`))) return undefined;
  const manifest = artifactManifest.parse(
    JSON.parse(new TextDecoder().decode(await storage.getBytes(`${artifacts}manifest.json`))),
  );
  const { nCells, nGenes } = manifest;
  const layer = manifest.layers.find((l) => l.name === 'counts') ?? manifest.layers[0];
  const bin = layer && (await storage.stat(artifacts + layer.data));
  const nnz = layer?.nnz ?? (bin ? Math.max(0, (bin.size - 4 * nGenes) / 8) : nCells * nGenes);
  return { nCells, nGenes, nnz, h5adBytes: h5ad.size, manifest, artifacts };
}

/**
 * Reading the stored h5ad in the child: the file bytes in JS and again in h5wasm's in-memory
 * file, the matrix as stored (≤ 8-byte values + 4-byte indices) and its canonical copy (Float32 +
 * Uint32), obs columns, obsm embeddings and barcodes (~1 KiB per cell).
 */
const loadBytes = (r: StoredResultSize) => 2 * r.h5adBytes + r.nnz * (12 + 8) + r.nCells * 1024;

/** Node + reading the stored result in a child: the share every task on a stored result needs. */
export const storedResultLoadBytes = (r: StoredResultSize) => FIXED + loadBytes(r);

/**
 * `analysis.deg`: load + the log-normalized copy (8 per non-zero) + the Wilcoxon test's sort
 * buffers on 2,048-gene blocks + per result row (group × gene) 7 Float64 statistics, the row object
 * and its JSON text and bytes (~640 bytes).
 */
export function degMemoryBytes(r: StoredResultSize, groups: number): number {
  const blockShare = Math.min(1, 2048 / Math.max(1, r.nGenes));
  return Math.ceil(
    FIXED + loadBytes(r) + r.nnz * (8 + 16 * blockShare) + Math.max(2, groups) * r.nGenes * 640,
  );
}

/**
 * Non-zeros of the chosen cells: the sum of their `n_genes_by_counts` when the result has that QC
 * column (4 bytes per parent cell to read), else the parent's average per cell.
 */
export async function subsetNnz(storage: Storage, r: StoredResultSize, cells: Uint32Array): Promise<number> {
  const col = r.manifest.obs.find((o) => o.kind === 'numeric' && o.key === 'n_genes_by_counts');
  const b =
    col && (await storage.stat(r.artifacts + col.file))
      ? await storage.getBytes(r.artifacts + col.file)
      : undefined;
  if (!b || b.byteLength !== 4 * r.nCells) return Math.ceil((r.nnz * cells.length) / Math.max(1, r.nCells));
  const perCell = new Float32Array(r.nCells);
  new Uint8Array(perCell.buffer).set(b);
  let nnz = 0;
  for (const c of cells) nnz += perCell[c] ?? 0;
  return Math.min(nnz, r.nnz);
}

/**
 * `analysis.subcluster`: the engine's estimate of the pipeline on the chosen cells (with the
 * steps runSubcluster skips turned off) plus loading the parent's stored h5ad.
 */
export function subclusterMemoryBytes(
  r: StoredResultSize,
  cells: number,
  nnz: number,
  parentParams: unknown,
): number {
  let p;
  try {
    p = parseParams(parentParams);
  } catch (e) {
    if (isEngineError(e)) throw new PermanentJobError(e.message, `engine.${e.code}`, e.params);
    throw e;
  }
  const params = {
    ...p,
    doubletDetectionAndRemoval: false,
    ambientRnaRemoval: { ...p.ambientRnaRemoval, enabled: false },
    batchEffectRemoval: { ...p.batchEffectRemoval, enabled: false },
  };
  return estimateMemoryBytes({ cells, genes: r.nGenes, nnz, params }) + loadBytes(r);
}

/** Throws a translated PermanentJobError (`key` with {need, limit} in MiB) when over WORKER_MEMORY_MB. */
export function refuseOverBudget(config: Config, need: number, key: string): void {
  if (need <= config.workerMemoryBytes) return;
  const params = { need: Math.ceil(need / MiB), limit: Math.floor(config.workerMemoryBytes / MiB) };
  throw new PermanentJobError(translate('en-US', key, params), key, params);
}

/**
 * The standard pipeline's budget check (`analysis.run`, `public.ingest`): whether the child writes
 * the outputs' matrices alongside the embeddings (faster; the normalized values are then held to
 * the end) or after the pipeline (the normalized values are let go after the markers and
 * recomputed for writing: ~4 B per non-zero less at the peak — what admits 500k cells in 12 GiB).
 * Alongside when that fits WORKER_MEMORY_MB, else after when that fits, else refused (translated).
 */
export function chooseWriting(config: Config, size: MemoryEstimateInput): boolean {
  if (estimateMemoryBytes({ ...size, writesAlongside: true }) <= config.workerMemoryBytes) return true;
  refuseOverBudget(config, estimateMemoryBytes({ ...size, writesAlongside: false }), 'jobs.failure.memory');
  return false;
}

/** How analysis.run runs a job: out of core, or in memory writing alongside the embeddings or after. */
export type AnalysisPath = { streamed: true } | { streamed: false; writeAlongside: boolean };

/**
 * The analysis job's path and budget check (docs/engine-scaling.md "Out-of-core path"): from
 * `streamedMinCells` input cells (config CELLCLOUD_STREAMED_MIN_CELLS, else the engine's
 * STREAMED_MIN_CELLS) the job runs out of core, checked against estimateStreamedMemoryBytes (the
 * child converts each sample into a count store first); below, or when an option has no streamed
 * version yet (notStreamable), in memory as chooseWriting decides. A large job with such an
 * option that does not fit in memory is refused with a message naming the way out.
 */
export function chooseAnalysisPath(config: Config, size: MemoryEstimateInput): AnalysisPath {
  const min = config.streamedMinCells ?? STREAMED_MIN_CELLS;
  if (size.cells < min) return { streamed: false, writeAlongside: chooseWriting(config, size) };
  if (notStreamable(size.params).length) {
    const need = estimateMemoryBytes({ ...size, writesAlongside: false });
    refuseOverBudget(config, need, 'jobs.failure.memoryNotStreamed');
    return { streamed: false, writeAlongside: chooseWriting(config, size) };
  }
  const { releaseSamples: _, ...streamedSize } = size;
  refuseOverBudget(
    config,
    estimateStreamedMemoryBytes({ ...streamedSize, convertsSamples: true }),
    'jobs.failure.memory',
  );
  return { streamed: true };
}
