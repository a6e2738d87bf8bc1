import {
  publicDatasetMeta,
  type PublicDatasetMeta,
  type SchemaViolation,
} from '@cellcloud/contracts/public-datasets';
import { FormatError, readH5adBytes, type CellColumn, type Dataset } from '@cellcloud/formats';
import type { Db } from '../../db/client';
import type { Storage } from '../../storage/storage';
import { lineageOf } from './cell-ontology';
import {
  cat,
  distinct,
  storePublicDataset,
  type IngestDataset,
  type IngestResult,
  type Standardized,
} from './store';

export type { IngestResult };

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
 *     atomically) and delete the previous version's files. The admin tool does step 3 through the
 *     queued `public.ingest` job (queue-ingest.ts), which also runs the standard analysis.
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

/** The schema check; returns every violated rule (empty = valid). */
export function validateCellxgene(d: IngestDataset, meta: PublicDatasetMeta): SchemaViolation[] {
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
    v.push({
      rule: 'organism.single',
      message: `several organisms: ${distinct(organism).join(', ')}`,
      params: { organisms: distinct(organism).join(', ') },
    });
  const badIds = d.genes.ids.filter((id) => !ENSEMBL.test(id));
  if (badIds.length)
    v.push({
      rule: 'var.index.ensembl',
      message: `${badIds.length} feature ids are not Ensembl gene ids (e.g. ${badIds.slice(0, 3).join(', ')})`,
      params: { count: badIds.length, examples: badIds.slice(0, 3).join(', ') },
    });
  if (d.nonInteger) v.push({ rule: 'counts.integer', message: 'raw counts (raw.X or X) are not integers' });
  return v;
}

export function parseMeta(raw: unknown): PublicDatasetMeta {
  const r = publicDatasetMeta.safeParse(raw);
  if (!r.success)
    throw new PublicIngestError(
      r.error.issues.map((i) => ({ rule: `meta.${i.path.join('.') || 'sheet'}`, message: i.message })),
    );
  return r.data;
}

/** Validate + store at once, without the standard analysis (the admin tool queues `public.ingest`). */
export async function ingestPublicH5ad(
  deps: { db: Db; storage: Storage },
  bytes: Uint8Array,
  fileName: string,
  rawMeta: unknown,
): Promise<IngestResult> {
  return storePublicDataset(deps, await standardizePublicH5ad(bytes, fileName, rawMeta));
}

/** Steps 1–2: the schema check (PublicIngestError with every violated rule) and the standardization. */
export async function standardizePublicH5ad(
  bytes: Uint8Array,
  fileName: string,
  rawMeta: unknown,
): Promise<Standardized> {
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
  return standardizeValid(d, meta);
}

/** Step 2 of a file that passed the schema check (whole or streamed, ingest-streamed.ts). */
export function standardizeValid(d: IngestDataset, meta: PublicDatasetMeta): Standardized {
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
  const levels: Record<string, CellColumn> = {
    'Sample ID': { kind: 'categorical', values: donor },
    annot_full: { kind: 'categorical', values: annotFull },
    annot_sub: { kind: 'categorical', values: cellType },
  };
  for (const extra of ['annot_sub2', 'annot_article', 'cluster']) {
    const c = cat(d, extra);
    if (c) levels[extra] = { kind: 'categorical', values: c };
  }
  const ontologyIds = distinct([
    ...cellTypeIds.filter((x) => x !== 'unknown'),
    ...[
      'tissue_ontology_term_id',
      'disease_ontology_term_id',
      'assay_ontology_term_id',
      'development_stage_ontology_term_id',
    ].flatMap((c) => cat(d, c) ?? []),
  ]).filter((x) => x !== 'unknown');
  return {
    d,
    meta,
    s: {
      species: meta.species ?? ORGANISM[organism![0]!]!,
      levels,
      facets: {
        tissue: meta.tissue ?? label('tissue', 'tissue_ontology_term_id'),
        disease: meta.disease ?? label('disease', 'disease_ontology_term_id'),
        developmentStage:
          meta.developmentStage ?? label('development_stage', 'development_stage_ontology_term_id'),
        assay: meta.assay ?? label('assay', 'assay_ontology_term_id'),
      },
      cellTypes: distinct([...cellType, ...full.values()]),
      ontologyIds,
      mapping: [...full.entries()].map(([annotSub, annotFull]) => ({
        annotSub,
        annotFull,
        ontologyId: cellTypeIds[cellType.indexOf(annotSub)] ?? null,
      })),
      warnings,
    },
  };
}
