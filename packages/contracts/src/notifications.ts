import { z } from 'zod';

/**
 * Notifications (docs/product/api.md#notification-calls, under /api/database-api/celeLens/user/notifications). `kind` selects
 * the message template the web shows in the user's language; `params` fill it.
 */
export const notificationKind = z.enum([
  'job.completed',
  'job.failed',
  'download.ready',
  'download.declined',
  'download.expired',
  /** An analysis was shared with the user (issue 35); params owner, jobName, role (viewer | editor). */
  'share.received',
  /** From an administrator to every user (admin console); params titleEn/titleZh/bodyEn/bodyZh. */
  'system',
]);
export type NotificationKind = z.infer<typeof notificationKind>;

export const notificationView = z.object({
  id: z.string(),
  kind: notificationKind,
  params: z.record(z.string(), z.union([z.string(), z.number()])),
  jobId: z.string().nullable(),
  read: z.boolean(),
  createdAt: z.string(),
});
export type NotificationView = z.infer<typeof notificationView>;

export const notificationListQuery = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(10),
  unreadOnly: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});

/** DELETE body: `ids` to delete selected ones; absent/empty = delete all of the user's. */
export const notificationDeleteBody = z.object({ ids: z.array(z.string()).optional() }).strict();

/** PUT /{id} form body: `read` ('true' default). */
export const notificationMarkBody = z.object({ read: z.enum(['true', 'false']).default('true') });
