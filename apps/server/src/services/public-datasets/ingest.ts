import { createHash } from 'node:crypto';
import {
  publicDatasetMeta,
  type PublicDatasetMeta,
  type PublicSample,
  type SchemaViolation,
} from '@cellcloud/contracts/public-datasets';
import { FormatError, readH5adBytes, writeH5ad, type CellColumn, type Dataset } from '@cellcloud/formats';
import type { Db } from '../../db/client';
import { publicDatasetsRepo } from '../../db/repos/public-datasets';
import type { Storage } from '../../storage/storage';
import { lineageOf } from './cell-ontology';

/**
 * Curation ingest of a CELLxGENE-schema h5ad into the public database (issue 20):
 *  1. validate the file against the schema rules below — ANY violation refuses the file with a
 *     report naming each rule, and nothing is stored;
 *  2. standardize: obs `cell_type` → `annot_sub`, its Cell Ontology lineage (cell-ontology.ts) →
 *     `annot_full`, `donor_id` (else `sample`) → `Sample ID`; raw counts from raw.X or X (the
 *     formats reader takes the first holding non-negative integers); var ids are the Ensembl ids
 *     (`feature_name` gives the symbols);
 *  3. store `public/<id>/v<version>/counts.h5ad` + `manifest.json` (the canonical dataset layout
 *     the analysis job reads), then swap the catalogue row in one transaction (re-ingest replaces
 *     atomically) and delete the previous version's files.
 */
export class PublicIngestError extends Error {
  constructor(readonly violations: SchemaViolation[]) {
    super(
      `the file violates the CELLxGENE schema:\n${violations.map((v) => `  - [${v.rule}] ${v.message}`).join('\n')}`,
    );
  }
}

const TERM: Record<string, RegExp> = {
  cell_type_ontology_term_id: /^(CL:\d{7}|unknown)$/,
  tissue_ontology_term_id: /^(UBERON:\d{7}|CL:\d{7})$/,
  disease_ontology_term_id: /^(MONDO:\d{7}|PATO:0000461)$/,
  assay_ontology_term_id: /^EFO:\d{7}$/,
  development_stage_ontology_term_id: /^(HsapDv:\d{7}|MmusDv:\d{7}|unknown)$/,
  organism_ontology_term_id: /^NCBITaxon:(9606|10090)$/,
};
const REQUIRED_TERMS = [
  'cell_type_ontology_term_id',
  'tissue_ontology_term_id',
  'disease_ontology_term_id',
  'assay_ontology_term_id',
];
const ORGANISM: Record<string, 'Homo sapiens' | 'Mus musculus'> = {
  'NCBITaxon:9606': 'Homo sapiens',
  'NCBITaxon:10090': 'Mus musculus',
};
const ENSEMBL = /^ENS(MUS)?G\d{11}(\.\d+)?$/;

function cat(d: Dataset, name: string): string[] | undefined {
  const c = d.cells.columns[name];
  if (!c) return undefined;
  return c.kind === 'categorical' ? c.values : Array.from(c.values, (v) => String(v));
}

const distinct = (xs: string[]) => [...new Set(xs)].sort();

function countValues(xs: string[]): { value: string; count: number }[] {
  const m = new Map<string, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return [...m.entries()]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
}

/** contracts FileProperties of the dataset as one analysable sample. */
function sampleProperties(d: Dataset, species: string, warnings: string[]): Record<string, unknown> {
  const n = d.counts.nCells;
  const per = new Float64Array(n);
  for (let j = 0; j < n; j++)
    for (let p = d.counts.indptr[j]!; p < d.counts.indptr[j + 1]!; p++) per[j] += d.counts.data[p]!;
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

/** The schema check; returns every violated rule (empty = valid). */
export function validateCellxgene(d: Dataset, meta: PublicDatasetMeta): SchemaViolation[] {
  const v: SchemaViolation[] = [];
  if (d.counts.nCells === 0) v.push({ rule: 'X.nonEmpty', message: 'the matrix has no cells' });
  if (!cat(d, 'cell_type'))
    v.push({ rule: 'obs.cell_type.required', message: 'obs has no `cell_type` column' });
  if (!cat(d, 'donor_id') && !cat(d, 'sample'))
    v.push({ rule: 'obs.donor_id.required', message: 'obs has neither `donor_id` nor `sample`' });
  for (const col of [...REQUIRED_TERMS, 'development_stage_ontology_term_id', 'organism_ontology_term_id']) {
    const vals = cat(d, col);
    if (!vals) {
      if (REQUIRED_TERMS.includes(col))
        v.push({ rule: `obs.${col}.required`, message: `obs has no \`${col}\` column` });
      continue;
    }
    const bad = distinct(vals).filter((x) => !TERM[col]!.test(x));
    if (bad.length)
      v.push({
        rule: `obs.${col}.format`,
        message: `values not matching ${TERM[col]!.source}: ${bad.slice(0, 5).join(', ')}`,
      });
  }
  const organism = cat(d, 'organism_ontology_term_id');
  if (!organism && !meta.species)
    v.push({
      rule: 'organism.required',
      message: 'no `organism_ontology_term_id` in obs and no `species` in the metadata sheet',
    });
  if (organism && distinct(organism).length > 1)
    v.push({ rule: 'organism.single', message: `several organisms: ${distinct(organism).join(', ')}` });
  const badIds = d.genes.ids.filter((id) => !ENSEMBL.test(id));
  if (badIds.length)
    v.push({
      rule: 'var.index.ensembl',
      message: `${badIds.length} feature ids are not Ensembl gene ids (e.g. ${badIds.slice(0, 3).join(', ')})`,
    });
  if (d.nonInteger) v.push({ rule: 'counts.integer', message: 'raw counts (raw.X or X) are not integers' });
  return v;
}

export interface IngestResult {
  id: string;
  version: number;
  cells: number;
  genes: number;
  annotationLevels: string[];
  warnings: string[];
}

export function parseMeta(raw: unknown): PublicDatasetMeta {
  const r = publicDatasetMeta.safeParse(raw);
  if (!r.success)
    throw new PublicIngestError(
      r.error.issues.map((i) => ({ rule: `meta.${i.path.join('.') || 'sheet'}`, message: i.message })),
    );
  return r.data;
}

export async function ingestPublicH5ad(
  deps: { db: Db; storage: Storage },
  bytes: Uint8Array,
  fileName: string,
  rawMeta: unknown,
): Promise<IngestResult> {
  const meta = parseMeta(rawMeta);
  let d: Dataset;
  try {
    d = await readH5adBytes(bytes, fileName);
  } catch (e) {
    if (e instanceof FormatError) {
      const rule = e.code === 'h5ad.normalized_only' ? 'counts.integer' : `file.${e.code}`;
      throw new PublicIngestError([{ rule, message: e.message }]);
    }
    throw e;
  }
  const violations = validateCellxgene(d, meta);
  if (violations.length) throw new PublicIngestError(violations);

  const warnings = [...d.warnings];
  const cellType = cat(d, 'cell_type')!;
  const cellTypeIds = cat(d, 'cell_type_ontology_term_id')!;
  const donor = cat(d, 'donor_id') ?? cat(d, 'sample')!;
  const full = new Map<string, string>();
  const unmapped = new Set<string>();
  const annotFull = cellType.map((ct, i) => {
    const id = cellTypeIds[i]!;
    const lineage = lineageOf(id);
    if (!lineage) unmapped.add(`${ct} (${id})`);
    const v = lineage ?? ct;
    full.set(ct, v);
    return v;
  });
  if (unmapped.size)
    warnings.push(
      `no Cell Ontology lineage known for: ${[...unmapped].join(', ')}; annot_full keeps the cell type`,
    );

  const label = (name: string, idCol: string) => distinct(cat(d, name) ?? cat(d, idCol) ?? []);
  const organism = cat(d, 'organism_ontology_term_id');
  const species = meta.species ?? ORGANISM[organism![0]!]!;
  const levels: Record<string, CellColumn> = {
    'Sample ID': { kind: 'categorical', values: donor },
    annot_full: { kind: 'categorical', values: annotFull },
    annot_sub: { kind: 'categorical', values: cellType },
  };
  for (const extra of ['annot_sub2', 'annot_article', 'cluster']) {
    const c = cat(d, extra);
    if (c) levels[extra] = { kind: 'categorical', values: c };
  }
  const obs: Record<string, CellColumn> = { ...d.cells.columns, ...levels };

  // Samples with their own metadata (the first value of each per-cell column constant in the sample).
  const sampleCols = [
    'tissue',
    'disease',
    'development_stage',
    'assay',
    'sex',
    'self_reported_ethnicity',
    'tissue_ontology_term_id',
    'disease_ontology_term_id',
  ];
  const bySample = new Map<string, number[]>();
  donor.forEach((s, i) => (bySample.get(s) ?? bySample.set(s, []).get(s)!).push(i));
  const samples: PublicSample[] = [...bySample.entries()].map(([id, idx]) => {
    const metadata: Record<string, string> = {};
    for (const c of sampleCols) {
      const vals = cat(d, c);
      if (vals) metadata[c] = distinct(idx.map((i) => vals[i]!)).join('; ');
    }
    return { id, cells: idx.length, metadata };
  });

  const ontologyIds = distinct([
    ...cellTypeIds.filter((x) => x !== 'unknown'),
    ...[
      'tissue_ontology_term_id',
      'disease_ontology_term_id',
      'assay_ontology_term_id',
      'development_stage_ontology_term_id',
    ].flatMap((c) => cat(d, c) ?? []),
  ]).filter((x) => x !== 'unknown');

  const version = await publicDatasetsRepo.nextVersion(deps.db, meta.id);
  const prefix = `public/${meta.id}/v${version}/`;
  const h5ad = await writeH5ad({ counts: d.counts, genes: d.genes, barcodes: d.cells.barcodes, obs });
  await deps.storage.put(`${prefix}counts.h5ad`, h5ad);
  const manifest = {
    publicDatasetId: meta.id,
    sampleName: meta.id,
    format: 'h5ad',
    files: [`${prefix}counts.h5ad`],
    shape: { cells: d.counts.nCells, genes: d.counts.nGenes, nnz: d.counts.data.length },
    species,
    contentSha256: createHash('sha256').update(h5ad).digest('hex'),
    createdAt: new Date().toISOString(),
  };
  await deps.storage.put(
    `${prefix}manifest.json`,
    new TextEncoder().encode(JSON.stringify(manifest, null, 2)),
  );

  const annotationLevels = Object.keys(levels).filter((k) => k !== 'Sample ID');
  let previous: string | null = null;
  try {
    const r = await deps.db.tx((q) =>
      publicDatasetsRepo.upsert(q, {
        id: meta.id,
        title: meta.title,
        description: meta.description,
        species,
        tissue: meta.tissue ?? label('tissue', 'tissue_ontology_term_id'),
        disease: meta.disease ?? label('disease', 'disease_ontology_term_id'),
        developmentStage:
          meta.developmentStage ?? label('development_stage', 'development_stage_ontology_term_id'),
        assay: meta.assay ?? label('assay', 'assay_ontology_term_id'),
        cells: d.counts.nCells,
        genes: d.counts.nGenes,
        samples,
        article: meta.article,
        sourceUrl: meta.sourceUrl ?? null,
        licence: meta.licence ?? null,
        annotationLevels,
        cellTypes: distinct([...cellType, ...full.values()]),
        ontologyIds,
        storagePrefix: prefix,
        properties: sampleProperties(d, species, warnings),
        levelSummary: {
          levels: annotationLevels.map((level) => ({
            level,
            values: countValues((levels[level] as { values: string[] }).values),
          })),
          mapping: [...full.entries()].map(([annotSub, annotFull]) => ({
            annotSub,
            annotFull,
            ontologyId: cellTypeIds[cellType.indexOf(annotSub)] ?? null,
          })),
        },
      }),
    );
    previous = r.previousPrefix;
  } catch (e) {
    for (const k of await deps.storage.list(prefix)) await deps.storage.delete(k);
    throw e;
  }
  if (previous && previous !== prefix)
    for (const k of await deps.storage.list(previous)) await deps.storage.delete(k);
  return { id: meta.id, version, cells: d.counts.nCells, genes: d.counts.nGenes, annotationLevels, warnings };
}
