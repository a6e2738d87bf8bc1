import type { Queryable } from '../client';

export type HistoryActionName = 'create' | 'rename' | 'relabel' | 'colours' | 'notes' | 'restore';
export type LabelNotes = Record<string, { note: string; markers: string[] }>;

/** A row of `annotation_history` (migration 0751) with the author's user name. */
export interface HistoryRow {
  id: string;
  subset_id: string;
  dataset_id: string;
  version: number;
  author_id: string | null;
  author_name: string | null;
  action: HistoryActionName;
  cells: number;
  changes: { before: string; after: string; cells: number }[];
  name: string;
  labels: string[];
  colours: (string | null)[];
  counts: number[];
  notes: LabelNotes;
  codes_key: string;
  restored_from: number | null;
  created_at: Date;
}

export interface NewHistoryRow {
  subsetId: string;
  datasetId: string;
  version: number;
  authorId: string | null;
  action: HistoryActionName;
  cells: number;
  changes: HistoryRow['changes'];
  name: string;
  labels: string[];
  colours: (string | null)[];
  counts: number[];
  notes: LabelNotes;
  codesKey: string;
  restoredFrom?: number;
}

const select = `SELECT h.*, u.username AS author_name FROM annotation_history h LEFT JOIN users u ON u.id = h.author_id`;

/** SQL of the change history of saved annotation levels (issue 35). */
export const annotationHistoryRepo = {
  /** Ignored when the version is already recorded (two first changes of an old level racing). */
  async insert(q: Queryable, h: NewHistoryRow): Promise<void> {
    await q.query(
      `INSERT INTO annotation_history
         (subset_id, dataset_id, version, author_id, action, cells, changes, name, labels, colours, counts, notes, codes_key, restored_from)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       ON CONFLICT (subset_id, version) DO NOTHING`,
      [
        h.subsetId,
        h.datasetId,
        h.version,
        h.authorId,
        h.action,
        h.cells,
        JSON.stringify(h.changes),
        h.name,
        JSON.stringify(h.labels),
        JSON.stringify(h.colours),
        JSON.stringify(h.counts),
        JSON.stringify(h.notes),
        h.codesKey,
        h.restoredFrom ?? null,
      ],
    );
  },

  /** Newest first. */
  async list(q: Queryable, datasetId: string, subsetId: string): Promise<HistoryRow[]> {
    return q.query<HistoryRow>(
      `${select} WHERE h.dataset_id = $1 AND h.subset_id = $2 ORDER BY h.version DESC`,
      [datasetId, subsetId],
    );
  },

  async get(q: Queryable, subsetId: string, version: number): Promise<HistoryRow | undefined> {
    return (
      await q.query<HistoryRow>(`${select} WHERE h.subset_id = $1 AND h.version = $2`, [subsetId, version])
    )[0];
  },

  async latest(q: Queryable, subsetId: string): Promise<HistoryRow | undefined> {
    return (
      await q.query<HistoryRow>(`${select} WHERE h.subset_id = $1 ORDER BY h.version DESC LIMIT 1`, [
        subsetId,
      ])
    )[0];
  },

  /** Distinct authors of a dataset's levels by subset, and each level's last change (exports, methods report). */
  async provenance(
    q: Queryable,
    datasetId: string,
  ): Promise<
    {
      subset_id: string;
      authors: string[];
      last_author: string | null;
      last_at: Date;
      last_action: HistoryActionName;
      version: number;
    }[]
  > {
    return q.query(
      `SELECT h.subset_id,
              (SELECT coalesce(json_agg(DISTINCT u2.username), '[]'::json) FROM annotation_history h2
                 JOIN users u2 ON u2.id = h2.author_id WHERE h2.subset_id = h.subset_id) AS authors,
              u.username AS last_author, h.created_at AS last_at, h.action AS last_action, h.version
         FROM annotation_history h LEFT JOIN users u ON u.id = h.author_id
        WHERE h.dataset_id = $1
          AND h.version = (SELECT max(version) FROM annotation_history h3 WHERE h3.subset_id = h.subset_id)`,
      [datasetId],
    );
  },
};
