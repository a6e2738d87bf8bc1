import { z } from 'zod';

/**
 * Content calls of docs/product/api.md#content-calls (public, no token needed) and the notification unread count.
 * Content is stored in the database, bilingual: every text comes in both locales so the web can
 * switch language without refetching.
 */
export { contentPaths } from './paths';

export const bilingualText = z.object({ 'en-US': z.string(), 'zh-CN': z.string() });
export type BilingualText = z.infer<typeof bilingualText>;

/** GET /content/listFaq → FaqEntry[] ordered by `sort`. `answer` is HTML. */
export const faqEntry = z.object({
  id: z.string(),
  question: bilingualText,
  answer: bilingualText,
  sort: z.number().int(),
});
export const faqListResponse = z.array(faqEntry);
export type FaqEntry = z.infer<typeof faqEntry>;

export const contentTypes = ['documentation', 'guidebook'] as const;
/**
 * GET /content/list?type=documentation|guidebook[&docType=CN|global]
 * → ContentEntry[] ordered by `sort`. `body` is HTML. The guidebook page selects one entry by
 * its `id` (query `?id=`), defaulting to the first. `docType` follows the user's display switch;
 * omitted = 'global'.
 */
export const contentListQuery = z
  .object({
    type: z.enum(contentTypes),
    docType: z.enum(['CN', 'global']).optional(),
  })
  .strict();
export type ContentListQuery = z.infer<typeof contentListQuery>;
export const contentEntry = z.object({
  id: z.string(),
  type: z.enum(contentTypes),
  title: bilingualText,
  body: bilingualText,
  sort: z.number().int(),
  updatedAt: z.string(),
});
export const contentListResponse = z.array(contentEntry);
export type ContentEntry = z.infer<typeof contentEntry>;

/** GET /dataset/updateLog?pageNum=&pageSize= (pageQuery) → { total, rows }, newest first. */
export const updateLogRow = z.object({
  /** ISO date (YYYY-MM-DD). */
  logdate: z.string(),
  /** HTML in the request's language (x-lang). */
  info: z.string(),
});
export const updateLogResponse = z.object({
  total: z.number().int().nonnegative(),
  rows: z.array(updateLogRow),
});
export type UpdateLogRow = z.infer<typeof updateLogRow>;
export type UpdateLogPage = z.infer<typeof updateLogResponse>;

/** GET /user/notifications/unread (auth) → the unread count as `data` (docs/product/api.md#notification-calls). */
export const notificationsUnreadResponse = z.number().int().nonnegative();
