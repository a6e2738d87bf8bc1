import type { NotificationKind, NotificationView } from '@cellcloud/contracts';
import type { Db } from '../db/client';
import { notificationsRepo, type NotificationRow } from '../db/repos/notifications';
import { AppError } from '../errors';
import type { Locale } from '@cellcloud/contracts';
import { renderJobMessage } from './jobs-message';

/**
 * Notifications of a user (docs/product/api.md#notification-calls): created on job completion/failure and download events,
 * listed, marked read, deleted. Made by the composition root as `ctx.notifications`; the accounts area
 * reads `unreadCount` for the account info, the events hub pushes the count live.
 */
export class NotificationsService {
  constructor(private readonly db: Db) {}

  async create(
    userId: string,
    kind: NotificationKind,
    params: Record<string, string | number>,
    jobId?: string,
  ): Promise<NotificationView> {
    return toView(await notificationsRepo.insert(this.db, { userId, kind, params, jobId }));
  }

  unreadCount(userId: string): Promise<number> {
    return notificationsRepo.unreadCount(this.db, userId);
  }

  async list(
    userId: string,
    q: { pageNum: number; pageSize: number; unreadOnly: boolean },
    locale: Locale = 'en-US',
  ) {
    const r = await notificationsRepo.list(
      this.db,
      userId,
      q.unreadOnly,
      q.pageSize,
      (q.pageNum - 1) * q.pageSize,
    );
    return { total: r.total, rows: r.rows.map((row) => toView(row, locale)) };
  }

  async markRead(userId: string, id: string, read: boolean): Promise<void> {
    if (!(await notificationsRepo.markRead(this.db, userId, id, read))) throw new AppError('NOT_FOUND');
  }

  /** Deletes the selected notifications, or all of the user's when `ids` is empty. */
  delete(userId: string, ids?: string[]): Promise<number> {
    return notificationsRepo.delete(this.db, userId, ids);
  }
}

function toView(r: NotificationRow, locale: Locale = 'en-US'): NotificationView {
  // a task's notification names the task in the reader's language (jobName stored like a message)
  const params = Object.fromEntries(
    Object.entries(r.params).map(([k, v]) => [
      k,
      (k === 'message' || k === 'jobName') && typeof v === 'string' ? (renderJobMessage(v, locale) ?? '') : v,
    ]),
  );
  return {
    id: r.id,
    kind: r.kind as NotificationKind,
    params,
    jobId: r.job_id,
    read: r.read,
    createdAt: new Date(r.created_at).toISOString(),
  };
}
