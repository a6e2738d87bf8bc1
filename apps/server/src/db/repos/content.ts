import type { Queryable } from '../client';

export interface ContentRow {
  id: string;
  type: 'documentation' | 'guidebook';
  title_en: string;
  title_zh: string;
  body_en: string;
  body_zh: string;
  sort: number;
  updated_at: Date;
  /** 'html' or 'markdown' (authored in the admin console). */
  format: string;
}

export interface FaqRow {
  id: string;
  question_en: string;
  question_zh: string;
  answer_en: string;
  answer_zh: string;
  sort: number;
  format: string;
}

/** SQL of the help content tables. */
export const contentRepo = {
  async list(q: Queryable, type: string, docType: 'CN' | 'global'): Promise<ContentRow[]> {
    return q.query<ContentRow>(
      `SELECT id, type, title_en, title_zh, body_en, body_zh, sort, updated_at, format FROM content_entries
        WHERE type = $1 AND doc_type IN ('all', $2) ORDER BY sort, id`,
      [type, docType],
    );
  },
  async faq(q: Queryable): Promise<FaqRow[]> {
    return q.query<FaqRow>('SELECT * FROM faq_entries ORDER BY sort, id');
  },
  async updateLog(
    q: Queryable,
    limit: number,
    offset: number,
  ): Promise<{
    total: number;
    rows: { logdate: string; info_en: string; info_zh: string; format: string }[];
  }> {
    const [c] = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM update_log');
    const rows = await q.query<{ logdate: string; info_en: string; info_zh: string; format: string }>(
      `SELECT to_char(logdate, 'YYYY-MM-DD') AS logdate, info_en, info_zh, format FROM update_log ORDER BY logdate DESC, id DESC LIMIT $1 OFFSET $2`,
      [limit, offset],
    );
    return { total: Number(c!.n), rows };
  },
};
