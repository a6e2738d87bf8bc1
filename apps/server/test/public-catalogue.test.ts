import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_FACETS, publicSearchQuery, type PublicFacet } from '@cellcloud/contracts/public-datasets';
import { openDb, type Db } from '../src/db/client';
import { migrate } from '../src/db/migrate';
import { publicDatasetsRepo, type PublicDatasetInput } from '../src/db/repos/public-datasets';

/**
 * The catalogue facet counts kept by the trigger of migration 0630 (public_facet_counts), read by
 * the unfiltered and single-filter searches: after inserts, re-ingests that change facets,
 * withdrawals and re-ingests of withdrawn rows, they equal the counts recomputed from the rows.
 */
const TISSUES = ['blood', 'lung', 'liver', 'bone marrow'];
const DISEASES = ['normal', 'COVID-19', 'melanoma'];
const ASSAYS = ["10x 3' v2", "10x 3' v3", 'Smart-seq2'];

function row(i: number, variant = 0): PublicDatasetInput {
  const k = i + variant;
  return {
    id: `ds${i}`,
    title: `dataset ${i}`,
    description: '',
    species: k % 3 ? 'Homo sapiens' : 'Mus musculus',
    // some rows carry two values of a facet (or the same value twice: counted once)
    tissue: k % 5 === 0 ? [TISSUES[k % 4]!, TISSUES[(k + 1) % 4]!] : [TISSUES[k % 4]!, TISSUES[k % 4]!],
    disease: [DISEASES[k % 3]!],
    developmentStage: k % 4 ? ['adult stage'] : [],
    assay: [ASSAYS[(k * 7) % 3]!],
    cells: 100 + i,
    genes: 1000,
    samples: [],
    article: {},
    sourceUrl: null,
    licence: null,
    annotationLevels: [],
    cellTypes: [],
    ontologyIds: [],
    storagePrefix: `public/ds${i}/v1/`,
    levelSummary: { levels: [], mapping: [] },
    properties: {},
  };
}

const FIELD: Record<PublicFacet, keyof PublicDatasetInput> = {
  species: 'species',
  tissue: 'tissue',
  disease: 'disease',
  developmentStage: 'developmentStage',
  assay: 'assay',
};

/** Facet counts recomputed from the visible rows (each facet under the other facets' filters). */
/** The query string form of facet filters (comma-separated values). */
const asQuery = (filter: Partial<Record<PublicFacet, string[]>>) =>
  Object.fromEntries(Object.entries(filter).map(([k, v]) => [k, v.join(',')]));

function expected(rows: PublicDatasetInput[], filter: Partial<Record<PublicFacet, string[]>>) {
  const values = (r: PublicDatasetInput, f: PublicFacet) => {
    const v = r[FIELD[f]];
    return [...new Set(Array.isArray(v) ? (v as string[]) : [v as string])];
  };
  const pass = (r: PublicDatasetInput, f: PublicFacet) =>
    !filter[f]?.length || values(r, f).some((v) => filter[f]!.includes(v));
  const out: Record<string, Record<string, number>> = {};
  for (const f of PUBLIC_FACETS) {
    out[f] = {};
    for (const r of rows.filter((r) => PUBLIC_FACETS.every((g) => g === f || pass(r, g))))
      for (const v of values(r, f)) out[f]![v] = (out[f]![v] ?? 0) + 1;
  }
  return { facets: out, total: rows.filter((r) => PUBLIC_FACETS.every((g) => pass(r, g))).length };
}

describe('public catalogue facet counts (migration 0630 trigger)', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openDb({});
    await migrate(db);
  }, 60_000);
  afterAll(() => db?.close());

  it('match the rows after inserts, facet changes, withdrawals and re-ingests', async () => {
    const visible = new Map<string, PublicDatasetInput>();
    for (let i = 0; i < 40; i++) {
      await db.tx((q) => publicDatasetsRepo.upsert(q, row(i)));
      visible.set(`ds${i}`, row(i));
    }
    for (let i = 0; i < 40; i += 3) {
      await db.tx((q) => publicDatasetsRepo.upsert(q, row(i, 1))); // re-ingest with other facets
      visible.set(`ds${i}`, row(i, 1));
    }
    for (let i = 1; i < 40; i += 4) {
      await publicDatasetsRepo.withdraw(db, `ds${i}`);
      visible.delete(`ds${i}`);
    }
    await db.tx((q) => publicDatasetsRepo.upsert(q, row(5, 2))); // a withdrawn dataset re-ingested
    visible.set('ds5', row(5, 2));

    const rows = [...visible.values()];
    for (const filter of [
      {},
      { tissue: ['lung'] },
      { species: ['Mus musculus'] },
      { assay: ["10x 3' v3"] },
    ]) {
      const want = expected(rows, filter);
      const got = await publicDatasetsRepo.search(
        db,
        publicSearchQuery.parse({ ...asQuery(filter), pageSize: 5 }),
      );
      expect(got.total).toBe(want.total);
      expect(got.items.length).toBe(Math.min(5, want.total));
      for (const f of PUBLIC_FACETS)
        expect(
          Object.fromEntries(got.facets[f].map((c) => [c.value, c.count])),
          `${f} ${JSON.stringify(filter)}`,
        ).toEqual(want.facets[f]);
    }
    // two or three filters take the scanning path (rows failing at most one filter): same answers
    for (const several of [
      { tissue: ['blood', 'liver'], disease: ['normal'] },
      { tissue: ['lung'], disease: ['normal'], species: ['Mus musculus'] },
    ]) {
      const want = expected(rows, several);
      const got = await publicDatasetsRepo.search(db, publicSearchQuery.parse(asQuery(several)));
      expect(got.total).toBe(want.total);
      for (const f of PUBLIC_FACETS)
        expect(
          Object.fromEntries(got.facets[f].map((c) => [c.value, c.count])),
          `${f} ${JSON.stringify(several)}`,
        ).toEqual(want.facets[f]);
    }
    // newest first in index order
    const page = await publicDatasetsRepo.search(db, publicSearchQuery.parse({ pageSize: 3 }));
    expect(page.items[0]!.id).toBe('ds5');
  }, 60_000);
});
