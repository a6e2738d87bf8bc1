import type { ContentEntry, ContentListQuery, FaqEntry, Locale, UpdateLogPage } from '@cellcloud/contracts';
import type { Db } from '../db/client';
import { contentRepo } from '../db/repos/content';
import { renderBody } from './content-render';

/**
 * Public help content (docs/product/api.md#content-calls): FAQ, documentation/guidebook entries, the update log. Texts
 * authored in Markdown (admin console) are rendered to HTML here, so the pages always get HTML.
 */
export async function listFaq(db: Db): Promise<FaqEntry[]> {
  const rows = await contentRepo.faq(db);
  return rows.map((r) => ({
    id: r.id,
    question: { 'en-US': r.question_en, 'zh-CN': r.question_zh },
    answer: { 'en-US': renderBody(r.answer_en, r.format), 'zh-CN': renderBody(r.answer_zh, r.format) },
    sort: Number(r.sort),
  }));
}

export async function listContent(db: Db, q: ContentListQuery): Promise<ContentEntry[]> {
  const rows = await contentRepo.list(db, q.type, q.docType ?? 'global');
  return rows.map((r) => ({
    id: r.id,
    type: r.type,
    title: { 'en-US': r.title_en, 'zh-CN': r.title_zh },
    body: { 'en-US': renderBody(r.body_en, r.format), 'zh-CN': renderBody(r.body_zh, r.format) },
    sort: Number(r.sort),
    updatedAt: new Date(r.updated_at).toISOString(),
  }));
}

/** Newest first; `info` in the request's language. */
export async function updateLog(
  db: Db,
  page: { pageNum: number; pageSize: number },
  locale: Locale,
): Promise<UpdateLogPage> {
  const r = await contentRepo.updateLog(db, page.pageSize, (page.pageNum - 1) * page.pageSize);
  return {
    total: r.total,
    rows: r.rows.map((x) => ({
      logdate: x.logdate,
      info: renderBody(locale === 'zh-CN' ? x.info_zh : x.info_en, x.format),
    })),
  };
}
