import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type {
  DatasetMappingRelation,
  PublicDatasetMeta,
  PublicSample,
} from '@cellcloud/contracts/public-datasets';
import { writeH5ad, type CellColumn, type Dataset } from '@cellcloud/formats';
import type { Db } from '../../db/client';
import type { PublicCatalogueInput } from '../../db/repos/public-ingests';
import { publicDatasetsRepo } from '../../db/repos/public-datasets';
import type { Storage } from '../../storage/storage';

/**
 * A large file's counts, not held (issue 33): `counts.h5ad` already written streamed into a local
 * scratch file by the ingest (ingest-streamed.ts), with what the catalogue needs of the matrix.
 */
export interface StagedCounts {
  /** Local file of the canonical counts.h5ad; removed once uploaded (or by `discard`). */
  file: string;
  nnz: number;
  /** UMI total per cell. */
  totals: Float64Array;
}

/** A dataset read whole (the matrix in memory) or streamed (the matrix staged in a scratch file). */
export type IngestDataset =
  | Dataset
  | (Pick<Dataset, 'genes' | 'cells' | 'warnings' | 'nonInteger'> & {
      counts: { nCells: number; nGenes: number };
      staged: StagedCounts;
    });

const stagedOf = (d: IngestDataset) => ('staged' in d ? d.staged : undefined);

/** Removes a streamed dataset's scratch file (a refused or abandoned ingest). */
export async function discardStaged(d: IngestDataset | undefined): Promise<void> {
  const st = d && stagedOf(d);
  if (st) await rm(st.file, { force: true });
}

/** Values of a per-cell column as text (categorical values, or numbers written out). */
export function cat(d: Pick<Dataset, 'cells'>, name: string): string[] | undefined {
  const c = d.cells.columns[name];
  if (!c) return undefined;
  return c.kind === 'categorical' ? c.values : Array.from(c.values, (v) => String(v));
}

export const distinct = (xs: string[]) => [...new Set(xs)].sort();

function countValues(xs: string[]): { value: string; count: number }[] {
  const m = new Map<string, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return [...m.entries()]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
}

/** contracts FileProperties of the dataset as one analysable sample. */
function sampleProperties(d: IngestDataset, species: string, warnings: string[]): Record<string, unknown> {
  const n = d.counts.nCells;
  let per = stagedOf(d)?.totals;
  if (!per) {
    const m = (d as Dataset).counts;
    per = new Float64Array(n);
    for (let j = 0; j < n; j++) for (let p = m.indptr[j]!; p < m.indptr[j + 1]!; p++) per[j] += m.data[p]!;
  }
  const sorted = Float64Array.from(per).sort();
  const total = per.reduce((a, b) => a + b, 0);
  const usable = n > 30 && n < 100_000;
  return {
    species,
    ensemblRelease: null,
    ensemblReference: null,
    overlapPercent: 100,
    cells: n,
    genes: d.counts.nGenes,
    umi: {
      total,
      min: sorted[0] ?? 0,
      median: sorted[Math.floor(n / 2)] ?? 0,
      mean: n ? total / n : 0,
      max: sorted[n - 1] ?? 0,
    },
    usable,
    unusableReasonKey: usable ? null : 'files.unusable.cells',
    warnings,
  };
}

export interface IngestResult {
  id: string;
  version: number;
  cells: number;
  genes: number;
  annotationLevels: string[];
  warnings: string[];
}

/** What an ingest path (CELLxGENE h5ad, counts + metadata sheet) standardized. */
export interface StandardizedDataset {
  species: string;
  /** `Sample ID` and the annotation levels present (annot_full, annot_sub, …), per cell. */
  levels: Record<string, CellColumn>;
  facets: { tissue: string[]; disease: string[]; developmentStage: string[]; assay: string[] };
  cellTypes: string[];
  ontologyIds: string[];
  mapping: DatasetMappingRelation['mapping'];
  warnings: string[];
}

/** Per-cell columns whose values, per sample, become the sample's own metadata. */
const SAMPLE_COLUMNS = [
  'tissue',
  'disease',
  'development_stage',
  'assay',
  'sex',
  'self_reported_ethnicity',
  'tissue_ontology_term_id',
  'disease_ontology_term_id',
];

/** A validated file: the dataset, its metadata sheet and what the ingest standardized. */
export interface Standardized {
  d: IngestDataset;
  meta: PublicDatasetMeta;
  s: StandardizedDataset;
}

/** Storage prefix of one version of a public dataset (counts, manifest, analysis, artifacts). */
export const versionPrefix = (id: string, version: number) => `public/${id}/v${version}/`;

/** The catalogue entry of a standardized dataset: facets, samples, level summary, file properties. */
export function catalogueEntry({ d, meta, s }: Standardized): PublicCatalogueInput {
  const { levels, species, warnings } = s;
  const donor = (levels['Sample ID'] as { values: string[] }).values;
  const bySample = new Map<string, number[]>();
  donor.forEach((x, i) => (bySample.get(x) ?? bySample.set(x, []).get(x)!).push(i));
  const samples: PublicSample[] = [...bySample.entries()].map(([id, idx]) => {
    const metadata: Record<string, string> = {};
    for (const c of SAMPLE_COLUMNS) {
      const vals = cat(d, c);
      if (vals) metadata[c] = distinct(idx.map((i) => vals[i]!)).join('; ');
    }
    return { id, cells: idx.length, metadata };
  });
  const annotationLevels = Object.keys(levels).filter((k) => k !== 'Sample ID');
  return {
    id: meta.id,
    title: meta.title,
    description: meta.description,
    species,
    ...s.facets,
    cells: d.counts.nCells,
    genes: d.counts.nGenes,
    samples,
    article: meta.article,
    sourceUrl: meta.sourceUrl ?? null,
    licence: meta.licence ?? null,
    annotationLevels,
    cellTypes: s.cellTypes,
    ontologyIds: s.ontologyIds,
    properties: sampleProperties(d, species, warnings),
    levelSummary: {
      levels: annotationLevels.map((level) => ({
        level,
        values: countValues((levels[level] as { values: string[] }).values),
      })),
      mapping: s.mapping,
    },
  };
}

/**
 * Writes `counts.h5ad` (the counts with the standardized levels in obs) + `manifest.json` — the
 * canonical dataset layout the analysis job reads — under `prefix`, cleared first.
 */
export async function stagePublicCounts(storage: Storage, prefix: string, { d, meta, s }: Standardized) {
  await storage.delete(prefix);
  const staged = stagedOf(d);
  let nnz: number;
  let sha256: string;
  if (staged) {
    // written streamed by the ingest with the levels in obs: uploaded as a stream, hashed likewise
    try {
      const hash = createHash('sha256');
      for await (const chunk of createReadStream(staged.file)) hash.update(chunk as Buffer);
      sha256 = hash.digest('hex');
      await storage.put(`${prefix}counts.h5ad`, createReadStream(staged.file));
    } finally {
      await rm(staged.file, { force: true });
    }
    nnz = staged.nnz;
  } else {
    const m = (d as Dataset).counts;
    const obs: Record<string, CellColumn> = { ...d.cells.columns, ...s.levels };
    const h5ad = await writeH5ad({ counts: m, genes: d.genes, barcodes: d.cells.barcodes, obs });
    await storage.put(`${prefix}counts.h5ad`, h5ad);
    nnz = m.data.length;
    sha256 = createHash('sha256').update(h5ad).digest('hex');
  }
  const manifest = {
    publicDatasetId: meta.id,
    sampleName: meta.id,
    format: 'h5ad',
    files: [`${prefix}counts.h5ad`],
    shape: { cells: d.counts.nCells, genes: d.counts.nGenes, nnz },
    species: s.species,
    contentSha256: sha256,
    createdAt: new Date().toISOString(),
  };
  await storage.put(`${prefix}manifest.json`, new TextEncoder().encode(JSON.stringify(manifest, null, 2)));
}

/**
 * Swaps the catalogue row to the version stored under `prefix` in one transaction (re-ingest
 * replaces atomically; withdrawal is lifted), recording `analysisId` — the ingest whose standard
 * analysis lies under the same prefix — then deletes the previous version's files.
 */
export async function swapCatalogue(
  deps: { db: Db; storage: Storage },
  entry: PublicCatalogueInput,
  prefix: string,
  analysisId: string | null,
): Promise<number> {
  const r = await deps.db.tx(async (q) => {
    const up = await publicDatasetsRepo.upsert(q, { ...entry, storagePrefix: prefix });
    if (analysisId) await publicDatasetsRepo.setAnalysis(q, entry.id, analysisId);
    return up;
  });
  if (r.previousPrefix && r.previousPrefix !== prefix) await deps.storage.delete(r.previousPrefix);
  return r.version;
}

/** What an ingest reports (the admin tool prints it). */
export function ingestResult(entry: PublicCatalogueInput, version: number, warnings: string[]): IngestResult {
  return {
    id: entry.id,
    version,
    cells: entry.cells,
    genes: entry.genes,
    annotationLevels: entry.annotationLevels,
    warnings,
  };
}

/**
 * Stores a validated, standardized public dataset at once, without the standard analysis: stages
 * its counts under the next version's prefix and swaps the catalogue row (a failed swap removes
 * the staged files). The admin tool queues `public.ingest` instead (queue-ingest.ts).
 */
export async function storePublicDataset(
  deps: { db: Db; storage: Storage },
  std: Standardized,
): Promise<IngestResult> {
  const entry = catalogueEntry(std);
  const prefix = versionPrefix(entry.id, await publicDatasetsRepo.nextVersion(deps.db, entry.id));
  await stagePublicCounts(deps.storage, prefix, std);
  let version: number;
  try {
    version = await swapCatalogue(deps, entry, prefix, null);
  } catch (e) {
    await deps.storage.delete(prefix);
    throw e;
  }
  return ingestResult(entry, version, std.s.warnings);
}
