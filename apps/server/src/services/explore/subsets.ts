import { artifactManifest, type ArtifactManifest } from '@cellcloud/contracts/artifacts';
import { NOT_IN_SUBSET, type CreateSubsetBody, type SubsetView } from '@cellcloud/contracts/explore';
import { decodeCodes } from '@cellcloud/formats/artifacts-decode';
import type { AppContext, AuthUser } from '../../context';
import { exploreSubsetsRepo, type SubsetRow } from '../../db/repos/explore-subsets';
import { AppError } from '../../errors';
import { artifactPrefix, writableArtifactPrefix } from './results';
import { duplicateColour, relabel, restrict, type Labelled } from './relabel';
import './messages';
import { subsetCodesKey } from '../../storage/keys';
import { taskObsColumns } from '../tasks/explorer-obs';
import { assertVersion, commitChange, recordCreated, versionKeys } from './annotation-history';

/**
 * Use cases of the explorer subsets (docs/product/states.md#subsets, docs/product/validation.md, docs/product/api.md). Metadata in `explore_subsets`; per-cell
 * codes in storage. Every call first checks the dataset is a completed analysis of the user.
 */
const codesKey = subsetCodesKey;
export { subsetCodesKey };
const bytes = (a: Uint32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

export function toView(r: SubsetRow): SubsetView {
  return {
    id: r.id,
    datasetId: r.dataset_id,
    name: r.name,
    sourceKey: r.source_key,
    labels: r.labels,
    colours: r.colours,
    counts: r.counts,
    nCells: r.n_cells,
    clusterGenes: r.cluster_genes,
    hasChildTasks: r.child_tasks > 0,
    version: r.version,
    notes: r.notes ?? {},
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

export async function manifestOf(ctx: AppContext, prefix: string): Promise<ArtifactManifest> {
  return artifactManifest.parse(
    JSON.parse(new TextDecoder().decode(await ctx.storage.getBytes(`${prefix}manifest.json`))),
  );
}

export async function subsetOf(ctx: AppContext, datasetId: string, id: string): Promise<SubsetRow> {
  const row = await exploreSubsetsRepo.get(ctx.db, datasetId, id);
  if (!row) throw new AppError('NOT_FOUND', {}, 'explore.subset.notFound');
  return row;
}

async function subsetCodes(ctx: AppContext, row: SubsetRow): Promise<Labelled> {
  const b = await ctx.storage.getBytes(codesKey(row.dataset_id, row.id));
  const codes = new Uint32Array(b.byteLength / 4);
  new Uint8Array(codes.buffer).set(b);
  return { labels: row.labels, colours: row.colours, codes };
}

/**
 * Codes of an annotation artifact (`cluster`, `annot_full`, …), of a completed task's categorical
 * column (`annot_auto`, `annot_sub`, …) or of a subset (`subset:<id>`).
 */
export async function groupingOf(
  ctx: AppContext,
  prefix: string,
  datasetId: string,
  key: string,
): Promise<Labelled> {
  if (key.startsWith('subset:')) return subsetCodes(ctx, await subsetOf(ctx, datasetId, key.slice(7)));
  const m = await manifestOf(ctx, prefix);
  const own = m.obs.find((x) => x.key === key);
  // a completed task's per-cell column (annot_auto of a run from the tab, …) when the analysis has none
  const task = own ? undefined : (await taskObsColumns(ctx, datasetId)).get(key);
  const o = own ?? task?.obs;
  if (!o) throw new AppError('NOT_FOUND', { key }, 'explore.annotation.notFound');
  if (o.kind !== 'categorical')
    throw new AppError('VALIDATION_FAILED', { key }, 'explore.annotation.notCategorical');
  return {
    labels: o.labels,
    colours: o.labels.map(() => null),
    codes: Uint32Array.from(
      decodeCodes(await ctx.storage.getBytes(task?.fileKey ?? prefix + o.file), o.dtype),
    ),
  };
}

async function assertFreeName(ctx: AppContext, datasetId: string, name: string, exceptId?: string) {
  if (await exploreSubsetsRepo.nameTaken(ctx.db, datasetId, name, exceptId))
    throw new AppError('NAME_EXISTS', { name }, 'explore.subset.nameExists');
}

export async function listSubsets(ctx: AppContext, user: AuthUser, datasetId: string): Promise<SubsetView[]> {
  await artifactPrefix(ctx, user, datasetId);
  return (await exploreSubsetsRepo.list(ctx.db, datasetId)).map(toView);
}

export async function createSubset(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  body: CreateSubsetBody,
): Promise<SubsetView> {
  const prefix = await writableArtifactPrefix(ctx, user, datasetId);
  await assertFreeName(ctx, datasetId, body.name);
  let result: Labelled & { counts: number[] };
  let sourceKey: string | null = null;
  if (body.from === 'cells') {
    const { nCells } = await manifestOf(ctx, prefix);
    const codes = new Uint32Array(nCells).fill(NOT_IN_SUBSET);
    for (const c of body.cells) {
      if (c >= nCells)
        throw new AppError('VALIDATION_FAILED', { cell: c, nCells }, 'explore.cells.outOfRange');
      codes[c] = 0;
    }
    const n = codes.reduce((a, c) => a + (c === 0 ? 1 : 0), 0);
    result = { labels: [body.label], colours: [null], codes, counts: [n] };
  } else {
    sourceKey = body.key;
    const src = await groupingOf(ctx, prefix, datasetId, body.key);
    if (body.from === 'labels') {
      const unknown = body.labels.filter((l) => !src.labels.includes(l));
      if (unknown.length)
        throw new AppError(
          'VALIDATION_FAILED',
          { key: body.key, labels: unknown.join(', ') },
          'explore.labels.unknown',
        );
      result = restrict(src, new Set(body.labels));
    } else {
      result = relabel(src, (l) => l);
    }
  }
  const row = await exploreSubsetsRepo.insert(ctx.db, {
    datasetId,
    userId: user.id,
    name: body.name,
    sourceKey,
    labels: result.labels,
    colours: result.colours,
    counts: result.counts,
    nCells: result.counts.reduce((a, b) => a + b, 0),
  });
  await ctx.storage.put(codesKey(datasetId, row.id), bytes(result.codes));
  await recordCreated(ctx, user, row, result.codes);
  return toView(row);
}

export async function getSubset(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  id: string,
): Promise<SubsetView> {
  await artifactPrefix(ctx, user, datasetId);
  return toView(await subsetOf(ctx, datasetId, id));
}

export async function subsetCodesBytes(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  id: string,
): Promise<Uint8Array> {
  await artifactPrefix(ctx, user, datasetId);
  const row = await subsetOf(ctx, datasetId, id);
  return ctx.storage.getBytes(codesKey(datasetId, row.id));
}

export async function deleteSubset(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  id: string,
): Promise<void> {
  await writableArtifactPrefix(ctx, user, datasetId);
  const row = await subsetOf(ctx, datasetId, id);
  if (row.child_tasks > 0) throw new AppError('CONFLICT', {}, 'explore.subset.hasChildren');
  const versions = await versionKeys(ctx, row);
  await exploreSubsetsRepo.delete(ctx.db, row.id);
  await ctx.storage.delete(codesKey(datasetId, row.id));
  for (const k of versions) await ctx.storage.delete(k).catch(() => {});
}

/**
 * Renames the level and/or its clusters (equal new names merge them; merges make cluster genes
 * stale) as one recorded change at the version the editor saw (docs/product/sharing.md).
 */
export async function editSubset(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  body: { subsetId: string; name?: string; renames?: Record<string, string>; expectedVersion?: number },
): Promise<SubsetView> {
  await writableArtifactPrefix(ctx, user, datasetId);
  const row = await subsetOf(ctx, datasetId, body.subsetId);
  await assertVersion(ctx, row, body.expectedVersion);
  const fields: Parameters<typeof commitChange>[4]['fields'] = {};
  const rename = body.name !== undefined && body.name !== row.name;
  if (rename) {
    if (row.child_tasks > 0) throw new AppError('CONFLICT', {}, 'explore.subset.hasChildren');
    await assertFreeName(ctx, datasetId, body.name!, row.id);
    fields.name = body.name;
  }
  let codes: Uint32Array | undefined;
  if (body.renames && Object.keys(body.renames).length > 0) {
    const unknown = Object.keys(body.renames).filter((l) => !row.labels.includes(l));
    if (unknown.length)
      throw new AppError(
        'VALIDATION_FAILED',
        { key: row.name, labels: unknown.join(', ') },
        'explore.labels.unknown',
      );
    const renames = body.renames;
    const r = relabel(await subsetCodes(ctx, row), (l) => renames[l] ?? l);
    codes = r.codes;
    Object.assign(fields, {
      labels: r.labels,
      colours: r.colours,
      counts: r.counts,
      clusterGenes: r.merged ? 'stale' : row.cluster_genes,
      notes: Object.fromEntries(
        Object.entries(row.notes ?? {}).flatMap(([l, n]) => {
          const to = renames[l] ?? l;
          return r.labels.includes(to) ? [[to, n]] : [];
        }),
      ),
    });
  }
  if (!rename && !codes) return toView(row);
  return toView(
    await commitChange(ctx, user, row, body.expectedVersion ?? row.version, {
      action: codes ? 'relabel' : 'rename',
      fields,
      codes,
    }),
  );
}

/** Merges clusters into one (a new cluster: cluster genes become stale and must be re-run). */
export async function mergeClusters(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  body: { subsetId: string; labels: string[]; into: string; expectedVersion?: number },
): Promise<SubsetView> {
  return editSubset(ctx, user, datasetId, {
    subsetId: body.subsetId,
    renames: Object.fromEntries(body.labels.map((l) => [l, body.into])),
    expectedVersion: body.expectedVersion,
  });
}

export async function setColours(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  body: { subsetId: string; colours: Record<string, string>; expectedVersion?: number },
): Promise<SubsetView> {
  await writableArtifactPrefix(ctx, user, datasetId);
  const row = await subsetOf(ctx, datasetId, body.subsetId);
  const unknown = Object.keys(body.colours).filter((l) => !row.labels.includes(l));
  if (unknown.length)
    throw new AppError(
      'VALIDATION_FAILED',
      { key: row.name, labels: unknown.join(', ') },
      'explore.labels.unknown',
    );
  const colours = row.labels.map((l, i) => body.colours[l]?.toLowerCase() ?? row.colours[i] ?? null);
  const dup = duplicateColour(row.labels, colours);
  if (dup) throw new AppError('VALIDATION_FAILED', dup, 'explore.colour.duplicate');
  return toView(
    await commitChange(ctx, user, row, body.expectedVersion, { action: 'colours', fields: { colours } }),
  );
}
