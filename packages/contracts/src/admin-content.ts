import { z } from 'zod';
import { bilingualText } from './content';

/**
 * Content authoring of the admin console (issue 21): FAQ entries, documentation pages, guidebook
 * chapters and update-log entries (one shape for all four kinds), tutorial videos, and system
 * notifications to every user. Admin routes answer 401 without a token and 403 for a non-admin;
 * every change is recorded in the audit log. Bodies are written in Markdown or HTML (`format`); the
 * public calls always answer HTML (Markdown rendered by the server).
 *
 *   GET    /api/admin/content/:kind              → AuthoredItem[] (public order)
 *   POST   /api/admin/content/:kind   AuthoredBody → AuthoredItem (appended last)
 *   PUT    /api/admin/content/:kind/:id AuthoredBody → AuthoredItem
 *   DELETE /api/admin/content/:kind/:id          → null
 *   PUT    /api/admin/content/:kind/order { ids } → AuthoredItem[] (not for the update log: dated)
 *   POST   /api/admin/videos?titleEn=&titleZh=   raw body video/mp4 | video/webm → VideoView
 *   PUT    /api/admin/videos/:id { title }       → VideoView
 *   DELETE /api/admin/videos/:id                 → null (the stored file too)
 *   PUT    /api/admin/videos/order { ids }       → VideoView[]
 *   POST   /api/admin/notifications { title, body } → { recipients }
 *   POST   /api/admin/content/preview { text, format } → { html } (as the public pages get it)
 *
 * Public (no token): GET /api/content/videos → VideoView[]; GET /api/content/videos/:id/file
 * streams the video with HTTP Range.
 */
export const authoredKinds = ['faq', 'documentation', 'guidebook', 'updateLog'] as const;
export const textFormats = ['markdown', 'html'] as const;
export type TextFormat = (typeof textFormats)[number];
export type AuthoredKind = (typeof authoredKinds)[number];

export const CONTENT_ADMIN_API = {
  list: (kind: AuthoredKind) => `/api/admin/content/${kind}`,
  item: (kind: AuthoredKind, id: string) => `/api/admin/content/${kind}/${encodeURIComponent(id)}`,
  order: (kind: AuthoredKind) => `/api/admin/content/${kind}/order`,
  videos: '/api/admin/videos',
  video: (id: string) => `/api/admin/videos/${encodeURIComponent(id)}`,
  videoOrder: '/api/admin/videos/order',
  notify: '/api/admin/notifications',
  preview: '/api/admin/content/preview',
} as const;

export const VIDEOS_API = {
  list: '/api/content/videos',
  file: (id: string) => `/api/content/videos/${encodeURIComponent(id)}/file`,
} as const;

/** Largest tutorial video accepted (bytes). */
export const VIDEO_MAX_BYTES = 500 * 1024 * 1024;
export const videoTypes = ['video/mp4', 'video/webm'] as const;

const text = (max: number) => z.string().trim().max(max);
const bilingual = (max: number) => z.object({ 'en-US': text(max), 'zh-CN': text(max) }).strict();

/**
 * One authored entry. FAQ: title = question, body = answer. Documentation / guidebook: `docType`
 * (which documentation switch shows it). Update log: `date` (YYYY-MM-DD) orders it, `title` unused.
 */
export const authoredItem = z.object({
  id: z.string(),
  title: bilingualText,
  body: bilingualText,
  sort: z.number().int(),
  docType: z.enum(['all', 'CN', 'global']).nullable(),
  date: z.string().nullable(),
  /** How `body` is written (the source as authored). */
  format: z.enum(textFormats),
});
export type AuthoredItem = z.infer<typeof authoredItem>;

export const authoredBody = z
  .object({
    title: bilingual(500).optional(),
    body: bilingual(200_000),
    /** Default 'html'. */
    format: z.enum(textFormats).optional(),
    docType: z.enum(['all', 'CN', 'global']).optional(),
    date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional(),
  })
  .strict();
export type AuthoredBody = z.infer<typeof authoredBody>;

export const previewBody = z.object({ text: z.string().max(200_000), format: z.enum(textFormats) }).strict();

export const orderBody = z.object({ ids: z.array(z.string().min(1).max(200)).min(1).max(1000) }).strict();

export const videoView = z.object({
  id: z.string(),
  title: bilingualText,
  mime: z.enum(videoTypes),
  size: z.number(),
  sort: z.number().int(),
  createdAt: z.string(),
});
export type VideoView = z.infer<typeof videoView>;

export const videoUploadQuery = z.object({ titleEn: text(500).min(1), titleZh: text(500).min(1) }).strict();
export const videoUpdateBody = z.object({ title: bilingual(500) }).strict();

export const systemNotificationBody = z.object({ title: bilingual(200), body: bilingual(5000) }).strict();
export type SystemNotificationBody = z.infer<typeof systemNotificationBody>;
