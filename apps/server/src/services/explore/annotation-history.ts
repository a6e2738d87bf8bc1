import { NOT_IN_SUBSET } from '@cellcloud/contracts/explore';
import type { HistoryEntryView } from '@cellcloud/contracts/sharing';
import type { AppContext, AuthUser } from '../../context';
import {
  annotationHistoryRepo,
  type HistoryActionName,
  type HistoryRow,
} from '../../db/repos/annotation-history';
import { exploreSubsetsRepo, type SubsetRow } from '../../db/repos/explore-subsets';
import { usersRepo } from '../../db/repos/users';
import { AppError } from '../../errors';
import { subsetCodesKey } from '../../storage/keys';
import '../sharing/messages';
import type { Labelled } from './relabel';

/**
 * Attributed annotation (issue 35, docs/product/sharing.md#annotation-history). A saved level
 * (a subset) has a version; every change goes through `commitChange`: it is applied only while the
 * level is still at the version the editor saw (else 409 `annotation.conflict` naming the other
 * author and the current version — no silent overwrite), and recorded with its author, time, the
 * cells whose label changed and the before → after label pairs, plus the level as it was after
 * the change, so any version can be restored. Per-cell codes of each version are kept in storage
 * beside the level's codes (`<id>.v<version>.u32`; a change that keeps the codes reuses the key).
 */
const bytes = (a: Uint32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
export const versionCodesKey = (datasetId: string, id: string, version: number) =>
  subsetCodesKey(datasetId, id).replace(/\.u32$/, `.v${version}.u32`);

export function toHistoryView(h: HistoryRow): HistoryEntryView {
  return {
    version: h.version,
    action: h.action,
    author: h.author_id && h.author_name ? { id: h.author_id, username: h.author_name } : null,
    createdAt: new Date(h.created_at).toISOString(),
    cells: h.cells,
    changes: h.changes,
    name: h.name,
    labels: h.labels,
    notes: h.notes,
    restoredFrom: h.restored_from,
  };
}

/** Cells whose label changed, and the before → after label pairs (most cells first). */
export function labelChanges(
  before: Labelled | undefined,
  after: Labelled,
): { cells: number; changes: HistoryRow['changes'] } {
  const pairs = new Map<string, number>();
  let cells = 0;
  for (let c = 0; c < after.codes.length; c += 1) {
    const a = after.codes[c]!;
    const b = before ? before.codes[c]! : NOT_IN_SUBSET;
    const la = a === NOT_IN_SUBSET ? '' : (after.labels[a] ?? '');
    const lb = !before || b === NOT_IN_SUBSET ? '' : (before.labels[b] ?? '');
    if (la === lb) continue;
    cells += 1;
    const k = `${lb}\u0000${la}`;
    pairs.set(k, (pairs.get(k) ?? 0) + 1);
  }
  const changes = [...pairs.entries()]
    .map(([k, n]) => {
      const [b, a] = k.split('\u0000');
      return { before: b!, after: a!, cells: n };
    })
    .sort((x, y) => y.cells - x.cells)
    .slice(0, 200);
  return { cells, changes };
}

async function conflict(ctx: AppContext, row: SubsetRow): Promise<AppError> {
  const by = row.updated_by ? await usersRepo.byId(ctx.db, row.updated_by) : undefined;
  return new AppError(
    'CONFLICT',
    { version: row.version, author: by?.username ?? '?', subsetId: row.id },
    'annotation.conflict',
  );
}

/** 409 when the editor saw an older version than the level's current one. */
export async function assertVersion(ctx: AppContext, row: SubsetRow, expected: number | undefined) {
  if (expected !== undefined && expected !== row.version) throw await conflict(ctx, row);
}

/**
 * A level saved before history existed gets its current state recorded as its first version
 * (author unknown) before its first change, so that change can be undone.
 */
async function ensureBaseline(ctx: AppContext, row: SubsetRow, codes: Uint32Array | undefined) {
  if (await annotationHistoryRepo.latest(ctx.db, row.id)) return;
  await recordFirst(ctx, row, null, codes ?? (await currentCodes(ctx, row)), 0);
}

/** The level as it is now, recorded as its first version (`create`) with a copy of its codes. */
async function recordFirst(
  ctx: AppContext,
  row: SubsetRow,
  authorId: string | null,
  codes: Uint32Array,
  cells: number,
) {
  const key = versionCodesKey(row.dataset_id, row.id, row.version);
  await ctx.storage.put(key, bytes(codes));
  const d = authorId
    ? labelChanges(undefined, { labels: row.labels, colours: row.colours, codes })
    : undefined;
  await annotationHistoryRepo.insert(ctx.db, {
    subsetId: row.id,
    datasetId: row.dataset_id,
    version: row.version,
    authorId,
    action: 'create',
    cells,
    changes: d?.changes ?? [],
    name: row.name,
    labels: row.labels,
    colours: row.colours,
    counts: row.counts,
    notes: row.notes,
    codesKey: key,
  });
}

async function currentCodes(ctx: AppContext, row: SubsetRow): Promise<Uint32Array> {
  const b = await ctx.storage.getBytes(subsetCodesKey(row.dataset_id, row.id));
  const codes = new Uint32Array(b.byteLength / 4);
  new Uint8Array(codes.buffer).set(b);
  return codes;
}

export async function codesAt(ctx: AppContext, h: HistoryRow): Promise<Uint32Array> {
  const b = await ctx.storage.getBytes(h.codes_key);
  const codes = new Uint32Array(b.byteLength / 4);
  new Uint8Array(codes.buffer).set(b);
  return codes;
}

/** Records the first version of a new level (created by `user`). */
export async function recordCreated(ctx: AppContext, user: AuthUser, row: SubsetRow, codes: Uint32Array) {
  await recordFirst(ctx, row, user.id, codes, row.n_cells);
}

/**
 * Applies one change of a level at the version the editor saw (`expected`, else the version read
 * at the start of the call): the row update is conditional on that version, so of two concurrent
 * saves exactly one wins and the other gets 409. New per-cell codes (`after`) are written only by
 * the winner. Returns the updated row.
 */
export async function commitChange(
  ctx: AppContext,
  user: AuthUser,
  row: SubsetRow,
  expected: number | undefined,
  change: {
    action: HistoryActionName;
    fields: Parameters<typeof exploreSubsetsRepo.commit>[4];
    /** new per-cell codes (labels changed); absent when only names, colours or notes change */
    codes?: Uint32Array;
    /** the version's codes are another version's (restore) */
    codesKey?: string;
    restoredFrom?: number;
  },
): Promise<SubsetRow> {
  await assertVersion(ctx, row, expected);
  const before = change.codes || change.codesKey ? await currentCodes(ctx, row) : undefined;
  await ensureBaseline(ctx, row, before);
  const next = await exploreSubsetsRepo.commit(ctx.db, row.id, row.version, user.id, change.fields);
  if (!next) {
    const fresh = await exploreSubsetsRepo.get(ctx.db, row.dataset_id, row.id);
    if (!fresh) throw new AppError('NOT_FOUND', {}, 'explore.subset.notFound');
    throw await conflict(ctx, fresh);
  }
  let codesKey = change.codesKey;
  let after: Uint32Array | undefined = change.codes;
  if (change.codesKey) after = await codesAt(ctx, { codes_key: change.codesKey } as HistoryRow);
  if (after) await ctx.storage.put(subsetCodesKey(row.dataset_id, row.id), bytes(after));
  if (change.codes) {
    codesKey = versionCodesKey(row.dataset_id, row.id, next.version);
    await ctx.storage.put(codesKey, bytes(change.codes));
  }
  if (!codesKey) codesKey = (await annotationHistoryRepo.latest(ctx.db, row.id))!.codes_key;
  const d =
    before && after
      ? labelChanges(
          { labels: row.labels, colours: row.colours, codes: before },
          { labels: next.labels, colours: next.colours, codes: after },
        )
      : { cells: 0, changes: [] };
  await annotationHistoryRepo.insert(ctx.db, {
    subsetId: row.id,
    datasetId: row.dataset_id,
    version: next.version,
    authorId: user.id,
    action: change.action,
    cells: d.cells,
    changes: d.changes,
    name: next.name,
    labels: next.labels,
    colours: next.colours,
    counts: next.counts,
    notes: next.notes,
    codesKey,
    restoredFrom: change.restoredFrom,
  });
  return next;
}

/** Storage keys of every version's codes (deleted with the level). */
export async function versionKeys(ctx: AppContext, row: SubsetRow): Promise<string[]> {
  return [
    ...new Set((await annotationHistoryRepo.list(ctx.db, row.dataset_id, row.id)).map((h) => h.codes_key)),
  ];
}
