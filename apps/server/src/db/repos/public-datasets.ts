import {
  PUBLIC_FACETS,
  type DatasetMappingRelation,
  type PublicArticle,
  type PublicDatasetDetail,
  type PublicDatasetSummary,
  type PublicFacet,
  type PublicSample,
  type PublicSearchQuery,
  type PublicSearchResult,
} from '@cellcloud/contracts/public-datasets';
import type { Queryable } from '../client';
import { catalogueCounts, facetCondition, facetCounts, visibleMatching } from './public-dataset-facets';

interface Row {
  id: string;
  title: string;
  description: string;
  species: string;
  tissue: string[];
  disease: string[];
  development_stage: string[];
  assay: string[];
  cells: number;
  genes: number;
  samples: PublicSample[];
  article: PublicArticle;
  source_url: string | null;
  licence: string | null;
  annotation_levels: string[];
  cell_types: string[];
  ontology_ids: string[];
  storage_prefix: string;
  analysis_job_id: string | null;
  version: number;
  withdrawn_at: Date | null;
  updated_at: Date;
}

export interface PublicDatasetInput {
  id: string;
  title: string;
  description: string;
  species: string;
  tissue: string[];
  disease: string[];
  developmentStage: string[];
  assay: string[];
  cells: number;
  genes: number;
  samples: PublicSample[];
  article: PublicArticle;
  sourceUrl: string | null;
  licence: string | null;
  annotationLevels: string[];
  cellTypes: string[];
  ontologyIds: string[];
  storagePrefix: string;
  levelSummary: Omit<DatasetMappingRelation, 'datasetId'>;
  /** contracts FileProperties of the whole dataset as one analysable sample. */
  properties: Record<string, unknown>;
}

function summary(r: Row): PublicDatasetSummary {
  return {
    id: r.id,
    title: r.title,
    species: r.species,
    tissue: r.tissue,
    disease: r.disease,
    developmentStage: r.development_stage,
    assay: r.assay,
    cells: r.cells,
    genes: r.genes,
    sampleCount: Array.isArray(r.samples) ? r.samples.length : 0,
    article: r.article ?? {},
    annotationLevels: r.annotation_levels,
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

function detail(r: Row): PublicDatasetDetail {
  return {
    ...summary(r),
    description: r.description,
    samples: r.samples,
    sourceUrl: r.source_url,
    licence: r.licence,
    cellTypes: r.cell_types,
    ontologyIds: r.ontology_ids,
    analysisId: r.analysis_job_id,
    version: r.version,
  };
}

/** Words of the query as a prefix tsquery (`t & cel:*`), or undefined when it has none. */
export function prefixQuery(q: string | undefined): string | undefined {
  const words = (q ?? '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 12);
  return words.length ? words.map((w) => `${w}:*`).join(' & ') : undefined;
}

/** The searchable text: title (A), tissue/disease/cell types (B), the rest (C). */
const SEARCH_SQL = `setweight(to_tsvector('simple', coalesce(title, '')), 'A') ||
  setweight(to_tsvector('simple', array_to_string(tissue || disease || cell_types || species, ' ')), 'B') ||
  setweight(to_tsvector('simple', coalesce(description, '') || ' ' || array_to_string(assay || development_stage || ontology_ids, ' ') || ' ' ||
    coalesce(article->>'title', '') || ' ' || coalesce(article->>'journal', '') || ' ' || coalesce(article->>'doi', '') || ' ' || coalesce(article->>'pmid', '') || ' ' || id), 'C')`;

export const publicDatasetsRepo = {
  /** Insert or replace (re-ingest: version + 1, withdrawal lifted); returns the new version. */
  async upsert(
    q: Queryable,
    d: PublicDatasetInput,
  ): Promise<{ version: number; previousPrefix: string | null }> {
    const prev = (
      await q.query<{ storage_prefix: string }>(
        'SELECT storage_prefix FROM public_datasets WHERE id = $1 FOR UPDATE',
        [d.id],
      )
    )[0];
    const args = [
      d.id,
      d.title,
      d.description,
      d.species,
      // facet values once per dataset (the facet counts count datasets)
      [...new Set(d.tissue)],
      [...new Set(d.disease)],
      [...new Set(d.developmentStage)],
      [...new Set(d.assay)],
      d.cells,
      d.genes,
      JSON.stringify(d.samples),
      JSON.stringify(d.article),
      d.sourceUrl,
      d.licence,
      d.annotationLevels,
      d.cellTypes,
      d.ontologyIds,
      d.storagePrefix,
      JSON.stringify(d.levelSummary),
      JSON.stringify(d.properties),
    ];
    const [row] = await q.query<{ version: number }>(
      `INSERT INTO public_datasets (id, title, description, species, tissue, disease, development_stage, assay, cells, genes,
         samples, article, source_url, licence, annotation_levels, cell_types, ontology_ids, storage_prefix, level_summary, properties)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20)
       ON CONFLICT (id) DO UPDATE SET title = EXCLUDED.title, description = EXCLUDED.description, species = EXCLUDED.species,
         tissue = EXCLUDED.tissue, disease = EXCLUDED.disease, development_stage = EXCLUDED.development_stage, assay = EXCLUDED.assay,
         cells = EXCLUDED.cells, genes = EXCLUDED.genes, samples = EXCLUDED.samples, article = EXCLUDED.article,
         source_url = EXCLUDED.source_url, licence = EXCLUDED.licence, annotation_levels = EXCLUDED.annotation_levels,
         cell_types = EXCLUDED.cell_types, ontology_ids = EXCLUDED.ontology_ids, storage_prefix = EXCLUDED.storage_prefix, level_summary = EXCLUDED.level_summary, properties = EXCLUDED.properties,
         analysis_job_id = NULL, version = public_datasets.version + 1, withdrawn_at = NULL, updated_at = now()
       RETURNING version`,
      args,
    );
    await q.query(`UPDATE public_datasets SET search = ${SEARCH_SQL} WHERE id = $1`, [d.id]);
    return { version: row!.version, previousPrefix: prev?.storage_prefix ?? null };
  },

  async nextVersion(q: Queryable, id: string): Promise<number> {
    const r = (
      await q.query<{ version: number }>('SELECT version FROM public_datasets WHERE id = $1', [id])
    )[0];
    return (r?.version ?? 0) + 1;
  },

  async setAnalysis(q: Queryable, id: string, jobId: string | null): Promise<void> {
    await q.query('UPDATE public_datasets SET analysis_job_id = $2 WHERE id = $1', [id, jobId]);
  },

  async withdraw(q: Queryable, id: string): Promise<boolean> {
    return (
      (
        await q.query(
          'UPDATE public_datasets SET withdrawn_at = now() WHERE id = $1 AND withdrawn_at IS NULL RETURNING id',
          [id],
        )
      ).length === 1
    );
  },

  async get(
    q: Queryable,
    id: string,
    opts: { includeWithdrawn?: boolean } = {},
  ): Promise<PublicDatasetDetail | undefined> {
    const r = (
      await q.query<Row>(
        `SELECT * FROM public_datasets WHERE id = $1${opts.includeWithdrawn ? '' : ' AND withdrawn_at IS NULL'}`,
        [id],
      )
    )[0];
    return r && detail(r);
  },

  async mappingRelation(q: Queryable, id: string): Promise<DatasetMappingRelation | undefined> {
    const r = (
      await q.query<{ level_summary: Omit<DatasetMappingRelation, 'datasetId'> }>(
        'SELECT level_summary FROM public_datasets WHERE id = $1 AND withdrawn_at IS NULL',
        [id],
      )
    )[0];
    return (
      r && { datasetId: id, levels: r.level_summary.levels ?? [], mapping: r.level_summary.mapping ?? [] }
    );
  },

  /** The user's analyses whose samples include public datasets (`public:<id>` sample ids). */
  async relations(
    q: Queryable,
    userId: string,
  ): Promise<{ analysisId: string; analysisName: string; publicDatasetIds: string[] }[]> {
    const rows = await q.query<{ analysis_id: string; job_name: string; ids: string[] }>(
      `SELECT j.analysis_id, j.job_name, array_agg(substr(e.sid, 8)) AS ids
       FROM analysis_jobs j CROSS JOIN LATERAL jsonb_array_elements_text(j.sample_ids) AS e(sid)
       WHERE j.user_id = $1 AND e.sid LIKE 'public:%'
       GROUP BY j.analysis_id, j.job_name, j.submitted_at ORDER BY j.submitted_at DESC LIMIT 500`,
      [userId],
    );
    return rows.map((r) => ({
      analysisId: r.analysis_id,
      analysisName: r.job_name,
      publicDatasetIds: r.ids,
    }));
  },

  /** Visible datasets as analysable samples (the wizard's public list, the analysis job). */
  async listSamples(
    q: Queryable,
  ): Promise<{ id: string; title: string; storagePrefix: string; properties: Record<string, unknown> }[]> {
    const rows = await q.query<{
      id: string;
      title: string;
      storage_prefix: string;
      properties: Record<string, unknown>;
    }>(
      'SELECT id, title, storage_prefix, properties FROM public_datasets WHERE withdrawn_at IS NULL ORDER BY title, id LIMIT 10000',
    );
    return rows.map((r) => ({
      id: r.id,
      title: r.title,
      storagePrefix: r.storage_prefix,
      properties: r.properties,
    }));
  },

  async storagePrefix(q: Queryable, id: string): Promise<string | undefined> {
    return (
      await q.query<{ storage_prefix: string }>(
        'SELECT storage_prefix FROM public_datasets WHERE id = $1 AND withdrawn_at IS NULL',
        [id],
      )
    )[0]?.storage_prefix;
  },

  /** Full-text search (tsvector prefix match, ranked) + facet filters + facet counts. */
  async search(q: Queryable, s: PublicSearchQuery): Promise<PublicSearchResult> {
    const tsq = prefixQuery(s.q);
    /** WHERE clause and its parameters; `except` leaves one facet's filter out (its counts). */
    const build = (except?: PublicFacet) => {
      const { params, p, where: parts } = visibleMatching(tsq);
      for (const f of PUBLIC_FACETS) {
        const vals = s[f];
        if (!vals?.length || f === except) continue;
        parts.push(facetCondition(f, p(vals)));
      }
      return { where: parts.join(' AND '), params };
    };
    const dir = s.order === 'asc' ? 'ASC' : 'DESC';
    const order =
      s.sort === 'title'
        ? `title ${dir}`
        : s.sort === 'cells'
          ? `cells ${dir}`
          : s.sort === 'year'
            ? `(article->>'year')::int ${dir} NULLS LAST`
            : tsq
              ? `ts_rank(search, to_tsquery('simple', $1)) DESC, updated_at DESC`
              : `updated_at ${dir}`;
    const offset = (s.page - 1) * s.pageSize;
    const all = build();
    const filtered = PUBLIC_FACETS.filter((f) => s[f]?.length);
    // Unfiltered (no words, no facet): the trigger-kept catalogue counts (migration 0630) give the
    // facets and the total, and the page is read in index order without counting every row.
    const catalogue = !tsq && filtered.length <= 1 ? await catalogueCounts(q) : undefined;
    const unfiltered = catalogue && !filtered.length;
    const rows = await q.query<Row & { total: string; sample_count: number }>(
      `SELECT id, title, species, tissue, disease, development_stage, assay, cells, genes, jsonb_array_length(samples) AS sample_count,
              article, annotation_levels, updated_at${unfiltered ? '' : ', count(*) OVER () AS total'}
       FROM public_datasets WHERE ${all.where} ORDER BY ${order}, id LIMIT ${s.pageSize} OFFSET ${offset}`,
      all.params,
    );
    const facets = await facetCounts(q, s, tsq, catalogue);
    let total = unfiltered ? catalogue.total : rows.length ? Number(rows[0]!.total) : 0;
    if (!rows.length && offset > 0 && !unfiltered) {
      total = Number(
        (
          await q.query<{ n: string }>(
            `SELECT count(*) AS n FROM public_datasets WHERE ${all.where}`,
            all.params,
          )
        )[0]!.n,
      );
    }
    return {
      total,
      items: rows.map((r) => ({ ...summary(r), sampleCount: Number(r.sample_count) })),
      facets,
    };
  },
};
