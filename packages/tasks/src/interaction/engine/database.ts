import { createHash } from 'node:crypto';
import { gunzipChunks } from '@cellcloud/formats/gzip';
import { TaskError } from '@cellcloud/engine/tasks/kit';
import type { ResourceReader } from '@cellcloud/engine/tasks/kit';
import { parseCsvRows } from '@cellcloud/contracts/tasks/csv';

/**
 * The CellPhoneDB v5 database built in memory from its input tables (`cellphonedb_v5/
 * {gene,protein,complex,interaction}_input.csv.gz`, ventolab/cellphonedb-data v5.0.0), following
 * what CellPhoneDB's own `db_utils.create_db` + `get_interactions_genes_complex` do:
 *  - multidata = proteins (protein_input order, id 0..P-1, name = UniProt accession) then
 *    complexes (complex_input order, id P.., name = complex_name), each with its flags;
 *  - genes = gene_input rows joined to proteins on UniProt (rows without hgnc_symbol dropped);
 *  - complex composition = the UniProt columns uniprot_1..5 of each complex (total_protein = how many);
 *  - interactions = interaction_input joined to multidata on partner_a / partner_b (inner, input
 *    order), kept when `is_cellphonedb_interactor` holds (curated / user_curated always; else the
 *    partners differ and one can be a receptor and the other a ligand), `id_cp_interaction` =
 *    "CPI-" + S|C + S|C + "0" + the first 8 hex digits of sha1(name_a + name_b), upper case.
 */

export interface Multidata {
  id: number;
  /** UniProt accession (protein) or complex name. */
  name: string;
  isComplex: boolean;
  receptor: boolean;
  other: boolean;
  secreted: boolean;
  secretedHighlight: boolean;
  integrin: boolean;
  /** protein_name (proteins only; '' for complexes). */
  proteinName: string;
}

export interface GeneRow {
  ensembl: string;
  geneName: string;
  hgncSymbol: string;
  /** Protein multidata id. */
  protein: number;
}

export interface DbInteraction {
  idCp: string;
  a: number;
  b: number;
  annotationStrategy: string;
  directionality: string;
  classification: string;
}

export interface CpdbDatabase {
  multidata: Multidata[];
  nProteins: number;
  genes: GeneRow[];
  /** Complex multidata id → protein multidata ids (in uniprot_1..5 order). */
  complexes: Map<number, number[]>;
  interactions: DbInteraction[];
}

export const CPDB_DIR = 'cellphonedb_v5';

/** Raw CSV rows: the shared task-table splitter (contracts tasks/csv.ts). */
export { parseCsvRows };

/** Rows of a CSV as objects keyed by the header. */
function records(text: string): Record<string, string>[] {
  const [header = [], ...body] = parseCsvRows(text);
  return body
    .filter((r) => r.length > 1 || (r[0] ?? '') !== '')
    .map((r) => Object.fromEntries(header.map((h, j) => [h, r[j] ?? ''])));
}

async function readMaybeGzip(resources: ResourceReader, path: string): Promise<string> {
  const bytes = await resources.readBytes(path);
  if (!(bytes[0] === 0x1f && bytes[1] === 0x8b)) return new TextDecoder().decode(bytes);
  async function* one() {
    yield bytes;
  }
  const parts: Uint8Array[] = [];
  for await (const c of gunzipChunks(one(), path)) parts.push(c);
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return new TextDecoder().decode(out);
}

async function readInput(resources: ResourceReader, name: string): Promise<Record<string, string>[]> {
  for (const file of [`${CPDB_DIR}/${name}_input.csv.gz`, `${CPDB_DIR}/${name}_input.csv`]) {
    if (await resources.exists(file)) return records(await readMaybeGzip(resources, file));
  }
  const path = `${CPDB_DIR}/${name}_input.csv.gz`;
  throw new TaskError('common.resourceMissing', `The reference resource "${path}" is not installed.`, {
    path,
  });
}

/** pandas reads TRUE/FALSE/True/False as booleans; anything else non-empty is truthy there too. */
const bool = (v: string | undefined): boolean => {
  const s = (v ?? '').trim().toLowerCase();
  return s !== '' && s !== 'false' && s !== '0';
};

function canBeReceptor(m: Multidata): boolean {
  return m.receptor && !m.other;
}
function canBeLigand(m: Multidata): boolean {
  return m.secretedHighlight;
}

/** CellPhoneDB's `file_utils.is_cellphonedb_interactor`. */
function isCellphonedbInteractor(strategy: string, a: Multidata, b: Multidata): boolean {
  if (strategy === 'curated' || strategy === 'user_curated') return true;
  if (a.id === b.id) return false;
  if (strategy === 'guidetopharmacology.org') return true;
  return (canBeReceptor(a) && canBeLigand(b)) || (canBeReceptor(b) && canBeLigand(a));
}

export function cpInteractionId(a: Multidata, b: Multidata): string {
  const hash = createHash('sha1')
    .update(a.name + b.name, 'utf8')
    .digest('hex')
    .slice(0, 8)
    .toUpperCase();
  return `CPI-${a.isComplex ? 'C' : 'S'}${b.isComplex ? 'C' : 'S'}0${hash}`;
}

export async function loadCpdbDatabase(resources: ResourceReader): Promise<CpdbDatabase> {
  const [proteinIn, complexIn, geneIn, interactionIn] = await Promise.all([
    readInput(resources, 'protein'),
    readInput(resources, 'complex'),
    readInput(resources, 'gene'),
    readInput(resources, 'interaction'),
  ]);
  const multidata: Multidata[] = [];
  const byName = new Map<string, Multidata>();
  const flags = (r: Record<string, string>) => ({
    receptor: bool(r.receptor),
    other: bool(r.other),
    secreted: bool(r.secreted),
    secretedHighlight: bool(r.secreted_highlight),
    integrin: bool(r.integrin),
  });
  for (const r of proteinIn) {
    const m: Multidata = {
      id: multidata.length,
      name: r.uniprot!,
      isComplex: false,
      proteinName: r.protein_name ?? '',
      ...flags(r),
    };
    multidata.push(m);
    if (!byName.has(m.name)) byName.set(m.name, m);
  }
  const nProteins = multidata.length;
  const proteinByUniprot = new Map<string, number>();
  for (const m of multidata) if (!proteinByUniprot.has(m.name)) proteinByUniprot.set(m.name, m.id);
  const complexes = new Map<number, number[]>();
  for (const r of complexIn) {
    const m: Multidata = {
      id: multidata.length,
      name: r.complex_name!,
      isComplex: true,
      proteinName: '',
      ...flags(r),
    };
    multidata.push(m);
    if (!byName.has(m.name)) byName.set(m.name, m);
    const parts: number[] = [];
    for (const k of ['uniprot_1', 'uniprot_2', 'uniprot_3', 'uniprot_4', 'uniprot_5']) {
      const acc = (r[k] ?? '').trim();
      if (!acc) continue;
      const p = proteinByUniprot.get(acc);
      if (p === undefined) throw new Error(`CellPhoneDB complex ${m.name}: unknown protein ${acc}`);
      parts.push(p);
    }
    complexes.set(m.id, parts);
  }
  const genes: GeneRow[] = [];
  for (const r of geneIn) {
    const p = proteinByUniprot.get(r.uniprot ?? '');
    if (p === undefined || !r.hgnc_symbol) continue;
    genes.push({
      ensembl: r.ensembl ?? '',
      geneName: r.gene_name ?? '',
      hgncSymbol: r.hgnc_symbol,
      protein: p,
    });
  }
  const interactions: DbInteraction[] = [];
  for (const r of interactionIn) {
    const a = byName.get(r.partner_a ?? '');
    const b = byName.get(r.partner_b ?? '');
    if (!a || !b) continue;
    const strategy = r.annotation_strategy ?? '';
    if (!isCellphonedbInteractor(strategy, a, b)) continue;
    interactions.push({
      idCp: cpInteractionId(a, b),
      a: a.id,
      b: b.id,
      annotationStrategy: strategy,
      directionality: r.directionality ?? '',
      classification: r.classification ?? '',
    });
  }
  return { multidata, nProteins, genes, complexes, interactions };
}
