import type { Queryable } from '../client';

/** SQL of upload ownership checks (issue 34 probe: a draft naming another user's upload). */
export const uploadOwnersRepo = {
  /** Of `ids`, those that are uploads of a user other than `userId`. */
  async ownedByOthers(q: Queryable, userId: string, ids: string[]): Promise<string[]> {
    if (!ids.length) return [];
    const rows = await q.query<{ id: string }>(
      'SELECT id FROM uploads WHERE id = ANY($1::text[]) AND user_id <> $2',
      [ids, userId],
    );
    return rows.map((r) => r.id);
  },
};
