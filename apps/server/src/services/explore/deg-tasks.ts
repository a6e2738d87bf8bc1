import type { CalculateDegBody, DegGroup, DegTaskView } from '@cellcloud/contracts/explore-deg';
import { LIMITS } from '@cellcloud/contracts/constants';
import type { AppContext, AuthUser } from '../../context';
import { finishDegTask } from '../../completion/deg-task';
import {
  exploreDegTasksRepo,
  setSubsetClusterGenes,
  type DegTaskRow,
} from '../../db/repos/explore-deg-tasks';
import { AppError } from '../../errors';
import { artifactPrefix, writableArtifactPrefix } from './results';
import { groupingOf, manifestOf } from './subsets';
import './deg-messages';

/**
 * Use cases of the job-backed DE (docs/product/states.md#jobs, docs/product/validation.md, docs/product/api.md#dataset-calls calculate_deg_task). The request resolves the
 * groups to per-cell codes (stored beside the task), refuses groups under LIMITS.degMinCells
 * cells and a second running calculation of the user, then queues `analysis.deg`.
 */
import { degCodesKey, degResultKey } from '../../storage/keys';

export function toDegView(r: DegTaskRow): DegTaskView {
  return {
    id: r.id,
    datasetId: r.dataset_id,
    mode: r.mode,
    grouping: r.grouping,
    groupA: r.mode === 'compare' ? (r.labels[0] ?? null) : null,
    groupB: r.mode === 'compare' ? (r.labels[1] ?? null) : null,
    cellsA: r.cells_a,
    cellsB: r.cells_b,
    status: r.status,
    message: r.message,
    createdAt: new Date(r.created_at).toISOString(),
    finishedAt: r.finished_at ? new Date(r.finished_at).toISOString() : null,
  };
}

interface Resolved {
  grouping: string | null;
  labels: string[];
  codes: Int32Array;
  cellsA: number | null;
  cellsB: number | null;
}

/** Cells of one compare group as a membership mask. */
async function groupMask(
  ctx: AppContext,
  prefix: string,
  datasetId: string,
  nCells: number,
  g: DegGroup,
  other?: Uint8Array,
): Promise<Uint8Array> {
  const mask = new Uint8Array(nCells);
  if (g.from === 'rest') {
    if (!other) throw new AppError('VALIDATION_FAILED', {}, 'explore.deg.restFirst');
    for (let c = 0; c < nCells; c++) mask[c] = other[c] ? 0 : 1;
  } else if (g.from === 'cells') {
    for (const c of g.cells) {
      if (c >= nCells)
        throw new AppError('VALIDATION_FAILED', { cell: c, nCells }, 'explore.cells.outOfRange');
      mask[c] = 1;
    }
  } else {
    const src = await groupingOf(ctx, prefix, datasetId, g.key);
    const unknown = g.labels.filter((l) => !src.labels.includes(l));
    if (unknown.length)
      throw new AppError(
        'VALIDATION_FAILED',
        { key: g.key, labels: unknown.join(', ') },
        'explore.labels.unknown',
      );
    const want = new Set(g.labels.map((l) => src.labels.indexOf(l)));
    for (let c = 0; c < nCells; c++) mask[c] = want.has(src.codes[c]!) ? 1 : 0;
  }
  return mask;
}

function groupName(g: DegGroup, fallback: string): string {
  if (g.name) return g.name;
  if (g.from === 'labels') return g.labels.join('+');
  return fallback;
}

async function resolve(
  ctx: AppContext,
  prefix: string,
  datasetId: string,
  body: CalculateDegBody,
): Promise<Resolved> {
  const { nCells } = await manifestOf(ctx, prefix);
  if (body.mode === 'cluster-markers') {
    const src = await groupingOf(ctx, prefix, datasetId, body.grouping);
    const codes = new Int32Array(nCells).fill(-1);
    const counts = new Array<number>(src.labels.length).fill(0);
    for (let c = 0; c < nCells; c++) {
      const k = src.codes[c]!;
      if (k < src.labels.length) {
        codes[c] = k;
        counts[k]!++;
      }
    }
    const small = src.labels.findIndex((_, k) => counts[k]! < LIMITS.degMinCells);
    if (small >= 0)
      throw new AppError(
        'VALIDATION_FAILED',
        { group: src.labels[small], cells: counts[small], min: LIMITS.degMinCells },
        'explore.deg.tooFewCells',
      );
    if (src.labels.length < 2)
      throw new AppError('VALIDATION_FAILED', { key: body.grouping }, 'explore.deg.oneGroup');
    return { grouping: body.grouping, labels: src.labels, codes, cellsA: null, cellsB: null };
  }
  if (body.groupA.from === 'rest') throw new AppError('VALIDATION_FAILED', {}, 'explore.deg.restFirst');
  const a = await groupMask(ctx, prefix, datasetId, nCells, body.groupA);
  const b = await groupMask(ctx, prefix, datasetId, nCells, body.groupB, a);
  const codes = new Int32Array(nCells).fill(-1);
  let nA = 0;
  let nB = 0;
  for (let c = 0; c < nCells; c++) {
    if (a[c] && b[c]) throw new AppError('VALIDATION_FAILED', {}, 'explore.deg.overlap');
    if (a[c]) {
      codes[c] = 0;
      nA++;
    } else if (b[c]) {
      codes[c] = 1;
      nB++;
    }
  }
  const names = [
    groupName(body.groupA, 'A'),
    groupName(body.groupB, body.groupB.from === 'rest' ? 'rest' : 'B'),
  ];
  for (const [i, n] of [nA, nB].entries()) {
    if (n < LIMITS.degMinCells)
      throw new AppError(
        'VALIDATION_FAILED',
        { group: names[i], cells: n, min: LIMITS.degMinCells },
        'explore.deg.tooFewCells',
      );
  }
  return { grouping: null, labels: names, codes, cellsA: nA, cellsB: nB };
}

export async function calculateDeg(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  body: CalculateDegBody,
): Promise<DegTaskView> {
  const prefix = await writableArtifactPrefix(ctx, user, datasetId);
  const r = await resolve(ctx, prefix, datasetId, body);
  await exploreDegTasksRepo.expireStale(ctx.db, user.id, ctx.config.jobTimeoutSeconds + 60);
  const row = await exploreDegTasksRepo.insertRunning(ctx.db, {
    datasetId,
    userId: user.id,
    mode: body.mode,
    grouping: r.grouping,
    labels: r.labels,
    cellsA: r.cellsA,
    cellsB: r.cellsB,
  });
  if (!row) throw new AppError('CONFLICT', {}, 'explore.deg.busy');
  await ctx.storage.put(degCodesKey(datasetId, row.id), new Uint8Array(r.codes.buffer));
  if (r.grouping?.startsWith('subset:'))
    await setSubsetClusterGenes(ctx.db, datasetId, r.grouping.slice(7), 'running');
  try {
    await ctx.queue.send('analysis.deg', {
      taskId: row.id,
      datasetId,
      mode: row.mode,
      grouping: row.grouping,
    });
  } catch (e) {
    await finishDegTask(ctx, row, 'failed', `could not queue: ${e instanceof Error ? e.message : String(e)}`);
    throw e;
  }
  return toDegView(row);
}

export async function listDegTasks(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
): Promise<DegTaskView[]> {
  await artifactPrefix(ctx, user, datasetId);
  return (await exploreDegTasksRepo.list(ctx.db, datasetId)).map(toDegView);
}

/** The DEG rows of a completed task as stored JSON bytes. */
export async function degTaskResult(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  taskId: string,
): Promise<Uint8Array> {
  await artifactPrefix(ctx, user, datasetId);
  const row = await exploreDegTasksRepo.get(ctx.db, datasetId, taskId);
  if (!row) throw new AppError('NOT_FOUND', {}, 'explore.deg.notFound');
  if (row.status === 'failed') throw new AppError('CONFLICT', {}, 'explore.deg.failed');
  if (row.status !== 'completed') throw new AppError('CONFLICT', {}, 'explore.deg.running');
  return ctx.storage.getBytes(degResultKey(datasetId, taskId));
}
