import { randomUUID } from 'node:crypto';
import type {
  AuthoredBody,
  AuthoredItem,
  AuthoredKind,
  SystemNotificationBody,
} from '@cellcloud/contracts/admin-content';
import type { AppContext, AuthUser } from '../../context';
import { adminContentRepo, type AuthoredRow } from '../../db/repos/admin-content';
import { AppError, notFound } from '../../errors';
import { recordAudit } from './audit';
import './content-messages';

/**
 * Content authoring of the admin console: FAQ, documentation, guidebook, update log (the tables
 * the public pages read, so an edit shows at once), and system notifications to every user.
 * Every change is audited in the same transaction.
 */
const ID_PREFIX: Record<Exclude<AuthoredKind, 'updateLog'>, string> = {
  faq: 'faq',
  documentation: 'doc',
  guidebook: 'guide',
};

function toItem(r: AuthoredRow): AuthoredItem {
  return {
    id: String(r.id),
    title: { 'en-US': r.title_en, 'zh-CN': r.title_zh },
    body: { 'en-US': r.body_en, 'zh-CN': r.body_zh },
    sort: Number(r.sort),
    docType: (r.doc_type as AuthoredItem['docType']) ?? null,
    date: r.date,
    format: r.format === 'markdown' ? 'markdown' : 'html',
  };
}

/** Checks the fields a kind needs (both languages) and flattens them for the repo. */
function values(kind: AuthoredKind, b: AuthoredBody) {
  if (!b.body['en-US'] || !b.body['zh-CN'])
    throw new AppError('VALIDATION_FAILED', {}, 'content.bodyRequired');
  if (kind === 'updateLog') {
    if (!b.date || Number.isNaN(Date.parse(b.date)))
      throw new AppError('VALIDATION_FAILED', {}, 'content.dateRequired');
  } else if (!b.title?.['en-US'] || !b.title['zh-CN'])
    throw new AppError('VALIDATION_FAILED', {}, 'content.titleRequired');
  return {
    titleEn: b.title?.['en-US'] ?? '',
    titleZh: b.title?.['zh-CN'] ?? '',
    bodyEn: b.body['en-US'],
    bodyZh: b.body['zh-CN'],
    docType: b.docType ?? 'all',
    date: b.date ?? '',
    format: b.format ?? 'html',
  };
}

export async function listAuthored(ctx: AppContext, kind: AuthoredKind): Promise<AuthoredItem[]> {
  return (await adminContentRepo.list(ctx.db, kind)).map(toItem);
}

export async function createAuthored(
  ctx: AppContext,
  admin: AuthUser,
  kind: AuthoredKind,
  body: AuthoredBody,
): Promise<AuthoredItem> {
  const v = values(kind, body);
  return ctx.db.tx(async (q) => {
    const newId = kind === 'updateLog' ? '' : `${ID_PREFIX[kind]}-${randomUUID().slice(0, 8)}`;
    const id = await adminContentRepo.insert(q, kind, newId, v);
    await recordAudit(q, admin, 'content.create', `${kind}/${id}`, { title: v.titleEn || v.date });
    return toItem((await adminContentRepo.get(q, kind, id))!);
  });
}

export async function updateAuthored(
  ctx: AppContext,
  admin: AuthUser,
  kind: AuthoredKind,
  id: string,
  body: AuthoredBody,
): Promise<AuthoredItem> {
  const v = values(kind, body);
  return ctx.db.tx(async (q) => {
    if (!(await adminContentRepo.get(q, kind, id)) || !(await adminContentRepo.update(q, kind, id, v)))
      throw notFound();
    await recordAudit(q, admin, 'content.update', `${kind}/${id}`, { title: v.titleEn || v.date });
    return toItem((await adminContentRepo.get(q, kind, id))!);
  });
}

export async function deleteAuthored(ctx: AppContext, admin: AuthUser, kind: AuthoredKind, id: string) {
  await ctx.db.tx(async (q) => {
    const row = await adminContentRepo.get(q, kind, id);
    if (!row || !(await adminContentRepo.delete(q, kind, id))) throw notFound();
    await recordAudit(q, admin, 'content.delete', `${kind}/${id}`, { title: row.title_en || row.date });
  });
  return null;
}

export async function reorderAuthored(
  ctx: AppContext,
  admin: AuthUser,
  kind: AuthoredKind,
  ids: string[],
): Promise<AuthoredItem[]> {
  if (kind === 'updateLog') throw new AppError('VALIDATION_FAILED', {}, 'content.notOrderable');
  await ctx.db.tx(async (q) => {
    await adminContentRepo.reorder(q, kind, ids);
    await recordAudit(q, admin, 'content.reorder', kind, { ids });
  });
  return listAuthored(ctx, kind);
}

/** A notification of kind `system` in every enabled user's notification centre. */
export async function notifyAllUsers(
  ctx: AppContext,
  admin: AuthUser,
  b: SystemNotificationBody,
): Promise<{ recipients: number }> {
  if (!b.title['en-US'] || !b.title['zh-CN'])
    throw new AppError('VALIDATION_FAILED', {}, 'content.titleRequired');
  if (!b.body['en-US'] || !b.body['zh-CN'])
    throw new AppError('VALIDATION_FAILED', {}, 'content.bodyRequired');
  return ctx.db.tx(async (q) => {
    const recipients = await adminContentRepo.notifyAll(q, {
      titleEn: b.title['en-US'],
      titleZh: b.title['zh-CN'],
      bodyEn: b.body['en-US'],
      bodyZh: b.body['zh-CN'],
    });
    await recordAudit(q, admin, 'notification.broadcast', 'all', { title: b.title['en-US'], recipients });
    return { recipients };
  });
}
