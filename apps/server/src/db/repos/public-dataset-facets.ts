import {
  PUBLIC_FACETS,
  type PublicFacet,
  type PublicSearchQuery,
  type PublicSearchResult,
} from '@cellcloud/contracts/public-datasets';
import type { Queryable } from '../client';

/** Facet counting of the public catalogue search (split from public-datasets.ts). */

/** The table column of each facet. */
const FACET_COLUMN: Record<PublicFacet, string> = {
  species: 'species',
  tissue: 'tissue',
  disease: 'disease',
  developmentStage: 'development_stage',
  assay: 'assay',
};

const emptyFacets = () =>
  Object.fromEntries(
    PUBLIC_FACETS.map((f) => [f, [] as { value: string; count: number }[]]),
  ) as PublicSearchResult['facets'];

/** The filter of one facet on its values' placeholder (`$n`, a text array). */
export const facetCondition = (f: PublicFacet, values: string) =>
  f === 'species' ? `species = ANY(${values}::text[])` : `${FACET_COLUMN[f]} && ${values}::text[]`;

/**
 * The visible datasets matching the words (`tsq`): WHERE parts and their parameters; `p(v)`
 * adds a parameter and returns its placeholder.
 */
export function visibleMatching(tsq: string | undefined) {
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const where = ['withdrawn_at IS NULL'];
  if (tsq) where.push(`search @@ to_tsquery('simple', ${p(tsq)})`);
  return { params, p, where };
}

/** Values listed per facet (the most frequent first). */
const FACET_VALUES = 50;

/**
 * The facet counts of the whole visible catalogue (table public_facet_counts, kept by a trigger,
 * migration 0630) and the number of visible datasets (each has exactly one species).
 */
export async function catalogueCounts(
  q: Queryable,
): Promise<{ facets: PublicSearchResult['facets']; total: number }> {
  const rows = await q.query<{ facet: PublicFacet; value: string; n: number }>(
    `SELECT facet, value, n FROM (
       SELECT facet, value, n, row_number() OVER (PARTITION BY facet ORDER BY n DESC, value) AS rn
       FROM public_facet_counts WHERE n > 0
     ) c WHERE rn <= ${FACET_VALUES} ORDER BY facet, rn`,
  );
  const facets = emptyFacets();
  for (const r of rows) facets[r.facet]?.push({ value: r.value, count: Number(r.n) });
  const total = (
    await q.query<{ n: string }>(
      `SELECT coalesce(sum(n), 0) AS n FROM public_facet_counts WHERE facet = 'species'`,
    )
  )[0]!.n;
  return { facets, total: Number(total) };
}

/**
 * The facet counts of a search: for each facet, the visible datasets passing the words (`tsq`)
 * and every OTHER facet's filter. `catalogue` (the trigger-kept counts, given when there are no
 * words and at most one filter) serves every facet it can without a scan.
 */
export async function facetCounts(
  q: Queryable,
  s: PublicSearchQuery,
  tsq: string | undefined,
  catalogue: Awaited<ReturnType<typeof catalogueCounts>> | undefined,
): Promise<PublicSearchResult['facets']> {
  const filtered = PUBLIC_FACETS.filter((f) => s[f]?.length);
  // All five facet counts in one statement over one materialized scan: each row carries a flag per
  // facet filter, and a facet counts the rows passing every OTHER facet's filter.
  const { params: fp, p: fpush, where: pre } = visibleMatching(tsq);
  const flag: Record<PublicFacet, string> = {} as Record<PublicFacet, string>;
  for (const f of PUBLIC_FACETS) {
    const vals = s[f];
    flag[f] = !vals?.length ? 'true' : facetCondition(f, fpush(vals));
  }
  // A row failing two or more facet filters counts in no facet: with several filters the scan
  // keeps only rows failing at most one (each filter's GIN index serves the OR), not every row.
  if (filtered.length >= 2)
    pre.push(
      `(${filtered
        .map((f) =>
          filtered
            .filter((g) => g !== f)
            .map((g) => flag[g])
            .join(' AND '),
        )
        .join(' OR ')})`,
    );
  const others = (f: PublicFacet) =>
    PUBLIC_FACETS.filter((g) => g !== f)
      .map((g) => `f_${g}`)
      .join(' AND ');
  // A facet counts the rows passing the OTHER facets' filters: with no words and at most one
  // filter, that is the whole catalogue for every facet but the filtered one (summary table).
  const scanned = catalogue ? filtered.flatMap((f) => PUBLIC_FACETS.filter((g) => g !== f)) : PUBLIC_FACETS;
  const counts = scanned.length
    ? await q.query<{ facet: PublicFacet; value: string; count: string }>(
        `WITH base AS MATERIALIZED (
       SELECT species, tissue, disease, development_stage, assay, ${PUBLIC_FACETS.map((f) => `${flag[f]} AS f_${f}`).join(', ')}
       FROM public_datasets WHERE ${pre.join(' AND ')}
     ), v AS (
       ${scanned
         .map(
           (f) =>
             `SELECT '${f}' AS facet, ${f === 'species' ? 'species' : `unnest(${FACET_COLUMN[f]})`} AS value FROM base WHERE ${others(f)}`,
         )
         .join('\n         UNION ALL ')}
     ), c AS (
       SELECT facet, value, count(*) AS count, row_number() OVER (PARTITION BY facet ORDER BY count(*) DESC, value) AS rn
       FROM v GROUP BY facet, value
     )
     SELECT facet, value, count FROM c WHERE rn <= ${FACET_VALUES} ORDER BY facet, rn`,
        fp,
      )
    : [];
  const facets = emptyFacets();
  for (const c of counts) facets[c.facet].push({ value: c.value, count: Number(c.count) });
  if (catalogue) for (const f of PUBLIC_FACETS) if (!scanned.includes(f)) facets[f] = catalogue.facets[f];
  return facets;
}
