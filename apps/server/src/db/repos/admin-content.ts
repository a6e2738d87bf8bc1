import type { Queryable } from '../client';

export type AuthoredTable = 'faq' | 'documentation' | 'guidebook' | 'updateLog';

/** An authored entry in one shape for the four content tables (FAQ: title = question). */
export interface AuthoredRow {
  id: string;
  title_en: string;
  title_zh: string;
  body_en: string;
  body_zh: string;
  sort: number;
  doc_type: string | null;
  date: string | null;
  format: string;
}

export interface AuthoredValues {
  titleEn: string;
  titleZh: string;
  bodyEn: string;
  bodyZh: string;
  docType: string;
  date: string;
  format: string;
}

export interface VideoRow {
  id: string;
  title_en: string;
  title_zh: string;
  mime: string;
  size: string | number;
  sort: number;
  created_at: Date;
}

const SELECT: Record<AuthoredTable, string> = {
  faq: `SELECT id, question_en AS title_en, question_zh AS title_zh, answer_en AS body_en, answer_zh AS body_zh,
          sort, NULL AS doc_type, NULL AS date, format FROM faq_entries`,
  documentation: `SELECT id, title_en, title_zh, body_en, body_zh, sort, doc_type, NULL AS date, format
          FROM content_entries WHERE type = 'documentation'`,
  guidebook: `SELECT id, title_en, title_zh, body_en, body_zh, sort, doc_type, NULL AS date, format
          FROM content_entries WHERE type = 'guidebook'`,
  updateLog: `SELECT id::text AS id, '' AS title_en, '' AS title_zh, info_en AS body_en, info_zh AS body_zh,
          0 AS sort, NULL AS doc_type, to_char(logdate, 'YYYY-MM-DD') AS date, format FROM update_log`,
};
const ORDER: Record<AuthoredTable, string> = {
  faq: 'ORDER BY sort, id',
  documentation: 'ORDER BY sort, id',
  guidebook: 'ORDER BY sort, id',
  updateLog: 'ORDER BY logdate DESC, id DESC',
};
const where = (kind: AuthoredTable) => (kind === 'documentation' || kind === 'guidebook' ? 'AND' : 'WHERE');

/** SQL of content authoring (admin console): FAQ, documentation, guidebook, update log, videos. */
export const adminContentRepo = {
  async list(q: Queryable, kind: AuthoredTable): Promise<AuthoredRow[]> {
    return q.query<AuthoredRow>(`${SELECT[kind]} ${ORDER[kind]}`);
  },

  async get(q: Queryable, kind: AuthoredTable, id: string): Promise<AuthoredRow | undefined> {
    if (kind === 'updateLog' && !/^\d{1,18}$/.test(id)) return undefined;
    const idCol = kind === 'updateLog' ? 'id::text' : 'id';
    const [row] = await q.query<AuthoredRow>(`${SELECT[kind]} ${where(kind)} ${idCol} = $1`, [id]);
    return row;
  },

  /** Inserts at the end of the public order; returns the new id. */
  async insert(q: Queryable, kind: AuthoredTable, id: string, v: AuthoredValues): Promise<string> {
    if (kind === 'updateLog') {
      const [r] = await q.query<{ id: string }>(
        'INSERT INTO update_log (logdate, info_en, info_zh, format) VALUES ($1::date, $2, $3, $4) RETURNING id::text AS id',
        [v.date, v.bodyEn, v.bodyZh, v.format],
      );
      return r!.id;
    }
    if (kind === 'faq') {
      await q.query(
        `INSERT INTO faq_entries (id, question_en, question_zh, answer_en, answer_zh, format, sort)
         VALUES ($1, $2, $3, $4, $5, $6, (SELECT coalesce(max(sort), 0) + 10 FROM faq_entries))`,
        [id, v.titleEn, v.titleZh, v.bodyEn, v.bodyZh, v.format],
      );
      return id;
    }
    await q.query(
      `INSERT INTO content_entries (id, type, doc_type, title_en, title_zh, body_en, body_zh, format, sort)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, (SELECT coalesce(max(sort), 0) + 10 FROM content_entries WHERE type = $2))`,
      [id, kind, v.docType, v.titleEn, v.titleZh, v.bodyEn, v.bodyZh, v.format],
    );
    return id;
  },

  async update(q: Queryable, kind: AuthoredTable, id: string, v: AuthoredValues): Promise<boolean> {
    let rows: unknown[];
    if (kind === 'updateLog')
      rows = await q.query(
        'UPDATE update_log SET logdate = $2::date, info_en = $3, info_zh = $4, format = $5 WHERE id::text = $1 RETURNING id',
        [id, v.date, v.bodyEn, v.bodyZh, v.format],
      );
    else if (kind === 'faq')
      rows = await q.query(
        `UPDATE faq_entries SET question_en = $2, question_zh = $3, answer_en = $4, answer_zh = $5, format = $6
          WHERE id = $1 RETURNING id`,
        [id, v.titleEn, v.titleZh, v.bodyEn, v.bodyZh, v.format],
      );
    else
      rows = await q.query(
        `UPDATE content_entries SET doc_type = $3, title_en = $4, title_zh = $5, body_en = $6, body_zh = $7,
            format = $8, updated_at = now() WHERE id = $1 AND type = $2 RETURNING id`,
        [id, kind, v.docType, v.titleEn, v.titleZh, v.bodyEn, v.bodyZh, v.format],
      );
    return rows.length === 1;
  },

  async delete(q: Queryable, kind: AuthoredTable, id: string): Promise<boolean> {
    const sql = {
      faq: 'DELETE FROM faq_entries WHERE id = $1 RETURNING id',
      documentation: `DELETE FROM content_entries WHERE id = $1 AND type = 'documentation' RETURNING id`,
      guidebook: `DELETE FROM content_entries WHERE id = $1 AND type = 'guidebook' RETURNING id`,
      updateLog: 'DELETE FROM update_log WHERE id::text = $1 RETURNING id',
    }[kind];
    return (await q.query(sql, [id])).length === 1;
  },

  /** Sort = 10, 20, … in the given order (ids of other kinds are ignored by the WHERE). */
  async reorder(q: Queryable, kind: Exclude<AuthoredTable, 'updateLog'>, ids: string[]): Promise<void> {
    const table = kind === 'faq' ? 'faq_entries' : 'content_entries';
    const typeCheck = kind === 'faq' ? '' : `AND t.type = '${kind}'`;
    await q.query(
      `UPDATE ${table} t SET sort = o.ord * 10 FROM unnest($1::text[]) WITH ORDINALITY AS o(id, ord)
        WHERE t.id = o.id ${typeCheck}`,
      [ids],
    );
  },

  async videos(q: Queryable): Promise<VideoRow[]> {
    return q.query<VideoRow>('SELECT * FROM tutorial_videos ORDER BY sort, created_at');
  },

  async video(q: Queryable, id: string): Promise<VideoRow | undefined> {
    const [row] = await q.query<VideoRow>('SELECT * FROM tutorial_videos WHERE id = $1', [id]);
    return row;
  },

  async insertVideo(
    q: Queryable,
    v: { id: string; titleEn: string; titleZh: string; mime: string; size: number },
  ): Promise<VideoRow> {
    const [row] = await q.query<VideoRow>(
      `INSERT INTO tutorial_videos (id, title_en, title_zh, mime, size, sort)
       VALUES ($1, $2, $3, $4, $5, (SELECT coalesce(max(sort), 0) + 10 FROM tutorial_videos)) RETURNING *`,
      [v.id, v.titleEn, v.titleZh, v.mime, v.size],
    );
    return row!;
  },

  async updateVideo(
    q: Queryable,
    id: string,
    titleEn: string,
    titleZh: string,
  ): Promise<VideoRow | undefined> {
    const [row] = await q.query<VideoRow>(
      'UPDATE tutorial_videos SET title_en = $2, title_zh = $3 WHERE id = $1 RETURNING *',
      [id, titleEn, titleZh],
    );
    return row;
  },

  async deleteVideo(q: Queryable, id: string): Promise<boolean> {
    return (await q.query('DELETE FROM tutorial_videos WHERE id = $1 RETURNING id', [id])).length === 1;
  },

  async reorderVideos(q: Queryable, ids: string[]): Promise<void> {
    await q.query(
      `UPDATE tutorial_videos t SET sort = o.ord * 10 FROM unnest($1::text[]) WITH ORDINALITY AS o(id, ord)
        WHERE t.id = o.id`,
      [ids],
    );
  },

  /** One system notification for every enabled user; returns how many were written. */
  async notifyAll(q: Queryable, params: Record<string, string>): Promise<number> {
    const rows = await q.query(
      `INSERT INTO notifications (user_id, kind, params)
       SELECT id, 'system', $1::text::jsonb FROM users WHERE disabled_at IS NULL RETURNING id`,
      [JSON.stringify(params)],
    );
    return rows.length;
  },
};
