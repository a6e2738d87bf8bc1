import type { CellSample } from '@cellcloud/engine/tasks/kit';
import type { CellColumn, Dataset } from '@cellcloud/formats/matrix';
import type { Storage } from '../storage/storage';
import { extraColumn, type ExtraObsSource } from './extra-obs';
import { withStoredFile } from './stored-file';

/**
 * The downstream tasks' input (issue 33; docs/engine-scaling.md "Downstream tasks on large
 * results"). The stored analysis.h5ad is opened by positional reads (withStoredFile: streamed
 * from storage to a scratch file, never held whole) and its shape read first. Below
 * TASK_SAMPLE_MIN_CELLS the file's bytes are decoded whole as before (the same outputs, byte for
 * byte); from it on, the task runs on a stratified, deterministic sample of TASK_SAMPLE_CELLS
 * cells (formats' stratifiedCellSample) whose counts are read a span of cells at a time.
 */

/** Result cells from which a task runs on a sample of them. */
export const TASK_SAMPLE_MIN_CELLS = 100_000;
/** Cells of the sample (at most). */
export const TASK_SAMPLE_CELLS = 50_000;
/** The sample's seed: the same cells on every rerun of any task on the result. */
export const TASK_SAMPLE_SEED = 20_331;

/**
 * Tasks that never read the matrix (only barcodes, obs, embeddings and their uploads): above the
 * threshold they see every cell, without the matrix (its accessors throw), so their per-cell
 * outputs cover all cells (layout: a layout of every cell from the stored PCs, obsm X_pca /
 * X_pca_<correction>, which `embeddings` holds). Every other task reads the counts and runs on the sample.
 */
export const MATRIX_FREE_TASKS: ReadonlySet<string> = new Set(['vdj', 'layout']);

/** The level the sample is stratified by: the task's grouping when it names one, else `cluster`. */
export function sampleStrataKey(params: unknown): string {
  const p = (params ?? {}) as Record<string, unknown>;
  for (const k of ['groupBy', 'clusterKey', 'groupKey'] as const)
    if (typeof p[k] === 'string' && p[k]) return p[k];
  const g1 = p.group1;
  if (Array.isArray(g1) && typeof (g1[0] as { key?: unknown })?.key === 'string')
    return (g1[0] as { key: string }).key;
  return 'cluster';
}

export interface TaskResultInput {
  ds: Pick<Dataset, 'counts' | 'genes' | 'cells' | 'embeddings'>;
  /** The extra per-cell columns, restricted to the sample when there is one. */
  extraObs: Record<string, CellColumn>;
  sample?: CellSample;
  /** All cells without their matrix (MATRIX_FREE_TASKS above the threshold). */
  matrixFree?: boolean;
}

export interface TaskSampleOptions {
  minCells?: number;
  cells?: number;
}

/** The task's dataset and extra columns: the whole result, or its sample above the threshold. */
export async function readTaskResult(
  storage: Storage,
  key: string,
  task: string,
  params: unknown,
  extra: ExtraObsSource[],
  opts: TaskSampleOptions = {},
): Promise<TaskResultInput> {
  const minCells = opts.minCells ?? TASK_SAMPLE_MIN_CELLS;
  const n = opts.cells ?? TASK_SAMPLE_CELLS;
  const { withH5adCellBlocks } = await import('@cellcloud/formats/h5ad-cell-blocks');
  const { h5adCsrCellCount, sampledColumn, sampledDataset, stratifiedCellSample, stratumFloor } =
    await import('@cellcloud/formats/h5ad-cell-sample');
  const { readH5adBytes } = await import('@cellcloud/formats/read-h5ad');
  const readExtra = async (nCells: number) => {
    const out: Record<string, CellColumn> = {};
    for (const s of extra) {
      const col = await extraColumn(storage, s, nCells);
      if (col) out[s.key] = col;
    }
    return out;
  };
  return withStoredFile(storage, key, async (source) => {
    const count = await h5adCsrCellCount(source, 'analysis.h5ad');
    const sampled = await (count !== undefined && count >= minCells
      ? withH5adCellBlocks(source, 'analysis.h5ad', async (parts) => {
          const nCells = parts.counts.nCells;
          const extraObs = await readExtra(nCells);
          if (MATRIX_FREE_TASKS.has(task)) {
            const counts = {
              nCells,
              nGenes: parts.counts.nGenes,
              indptr: new Float64Array(nCells + 1),
              indices: new Uint32Array(0),
              data: new Float32Array(0),
            };
            const { genes, cells, embeddings } = parts;
            return { ds: { counts, genes, cells, embeddings }, extraObs, matrixFree: true };
          }
          const by = sampleStrataKey(params);
          const level = extraObs[by] ?? parts.cells.columns[by];
          const labels =
            level?.kind === 'categorical'
              ? level.values
              : level
                ? Array.from(level.values, String)
                : undefined;
          const cells = stratifiedCellSample(nCells, n, TASK_SAMPLE_SEED, labels);
          const restricted: Record<string, CellColumn> = {};
          for (const [k, c] of Object.entries(extraObs)) restricted[k] = sampledColumn(c, cells);
          const strata = labels ? new Set(labels).size : 1;
          const describe = {
            nCells,
            sampledCells: cells.length,
            stratifiedBy: labels ? by : null,
            strata,
            // cells each group keeps first (the rest shared in proportion): the web states it
            perGroupFloor: stratumFloor(n, strata),
            seed: TASK_SAMPLE_SEED,
            rule: 'stratified-hash-v1',
            perCellOutputs: 'sampled cells only; the other cells are NA',
          };
          return {
            ds: sampledDataset(parts, cells),
            extraObs: restricted,
            sample: { nCells, cells, describe },
          };
        })
      : undefined);
    if (sampled) return sampled;
    // below the threshold: the file's bytes decoded whole, as before (same outputs)
    // our own result: its counts layer holds the input's values, non-integer ones included (issue 32)
    const bytes = new Uint8Array(source.size);
    source.readInto(bytes, 0);
    const ds = await readH5adBytes(bytes, 'analysis.h5ad', { allowNonInteger: true });
    return { ds, extraObs: await readExtra(ds.counts.nCells) };
  });
}

const MiB = 2 ** 20;

/** The shape a task runs on: the sample's above the threshold (its share of the non-zeros). */
export function taskShape(r: { nCells: number; nGenes: number; nnz: number }) {
  if (r.nCells < TASK_SAMPLE_MIN_CELLS) return { nCells: r.nCells, nGenes: r.nGenes, nnz: r.nnz };
  const nCells = Math.min(r.nCells, TASK_SAMPLE_CELLS);
  return { nCells, nGenes: r.nGenes, nnz: Math.ceil((r.nnz * nCells) / r.nCells) };
}

/**
 * Reading a sampled result in the child: Node and code (400 MiB, as storedResultLoadBytes), every
 * cell's obs, barcode and embeddings (~1 KiB) and indptr, one span of entries as stored and
 * decoded (≤ 4M entries × 2 × 8 bytes), the sample's matrix (8 bytes per non-zero).
 */
export function sampledLoadBytes(r: { nCells: number; nGenes: number; nnz: number }): number {
  const s = taskShape(r);
  return 400 * MiB + r.nCells * (1024 + 8) + 4_000_000 * 16 + s.nnz * 8;
}
