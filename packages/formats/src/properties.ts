import type { CountMatrix, Dataset, GeneTable, SourceFormat } from './matrix';
import { textLines } from './tables';

/** File properties shown after upload (docs/product/entities.md#file-properties): species, Ensembl release match, size summary. */

export type Species = 'Homo sapiens' | 'Mus musculus';

export interface SpeciesGuess {
  species: Species | 'unknown';
  /** 0..1: how clearly the gene names point to the species. */
  confidence: number;
  basis: 'ensembl-id' | 'symbol-case' | 'none';
}

const HUMAN_ID = /^ENSG\d{6,}/;
const MOUSE_ID = /^ENSMUSG\d{6,}/;
const UPPER = /^[A-Z][A-Z0-9]*[A-Z][A-Z0-9]*$/; // CD3D, MS4A1, HLA-less: no lower case at all
const CAPITALISED = /^[A-Z][a-z][a-z0-9]*$|^[A-Z][a-z0-9]*[a-z][a-z0-9]*$/; // Cd3d, Ms4a1, Actb

export function detectSpecies(genes: GeneTable): SpeciesGuess {
  let human = 0;
  let mouse = 0;
  for (const id of genes.ids) {
    if (MOUSE_ID.test(id)) mouse++;
    else if (HUMAN_ID.test(id)) human++;
  }
  const n = genes.ids.length || 1;
  if ((human + mouse) / n >= 0.3) {
    const isMouse = mouse > human;
    return {
      species: isMouse ? 'Mus musculus' : 'Homo sapiens',
      confidence: round2(Math.max(human, mouse) / (human + mouse)),
      basis: 'ensembl-id',
    };
  }
  let upper = 0;
  let capitalised = 0;
  let mtUpper = 0;
  let mtLower = 0;
  for (const s of genes.symbols) {
    if (s.startsWith('MT-')) mtUpper++;
    else if (s.startsWith('mt-')) mtLower++;
    if (UPPER.test(s)) upper++;
    else if (CAPITALISED.test(s)) capitalised++;
  }
  const votes = upper + capitalised;
  if (votes === 0 && mtUpper + mtLower === 0) return { species: 'unknown', confidence: 0, basis: 'none' };
  const humanScore = upper + 50 * mtUpper;
  const mouseScore = capitalised + 50 * mtLower;
  const total = humanScore + mouseScore;
  const isMouse = mouseScore > humanScore;
  return {
    species: isMouse ? 'Mus musculus' : 'Homo sapiens',
    confidence: round2(Math.max(humanScore, mouseScore) / total),
    basis: 'symbol-case',
  };
}

/** The gene list of one Ensembl release (10x reference features.tsv: id, name, type). */
export interface GeneRelease {
  name: string;
  species: Species;
  ids: Set<string>;
  symbols: Set<string>;
}

export function parseGeneRelease(name: string, species: Species, text: string): GeneRelease {
  const ids = new Set<string>();
  const symbols = new Set<string>();
  for (const l of textLines(text)) {
    const f = l.split('\t');
    ids.add(f[0]!.trim());
    if (f[1]) symbols.add(f[1].trim());
  }
  return { name, species, ids, symbols };
}

export interface ReleaseMatch {
  name: string;
  species: Species;
  /** Percent (0–100, one decimal) of the dataset's genes found in the release. */
  overlapPercent: number;
  by: 'id' | 'symbol';
}

/** Overlap of the dataset genes with every release; best first. Ids are used when they are Ensembl ids. */
export function matchReleases(genes: GeneTable, releases: GeneRelease[]): ReleaseMatch[] {
  const useIds =
    genes.ids.filter((id) => HUMAN_ID.test(id) || MOUSE_ID.test(id)).length >= genes.ids.length * 0.3;
  const names = useIds ? genes.ids.map((id) => id.replace(/\.\d+$/, '')) : genes.symbols;
  const out = releases.map((r) => {
    const set = useIds ? r.ids : r.symbols;
    let hit = 0;
    for (const n of names) if (set.has(n)) hit++;
    const overlapPercent = names.length ? Math.round((1000 * hit) / names.length) / 10 : 0;
    return {
      name: r.name,
      species: r.species,
      overlapPercent,
      by: useIds ? ('id' as const) : ('symbol' as const),
    };
  });
  return out.sort((a, b) => b.overlapPercent - a.overlapPercent);
}

export interface DatasetSummary {
  cells: number;
  genes: number;
  nonZeros: number;
  umiTotal: number;
  umiMedianPerCell: number;
  genesMedianPerCell: number;
}

function median(v: Float64Array): number {
  if (v.length === 0) return 0;
  const s = v.slice().sort();
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function summarizeCounts(m: CountMatrix): DatasetSummary {
  const umi = new Float64Array(m.nCells);
  const genes = new Float64Array(m.nCells);
  let total = 0;
  for (let j = 0; j < m.nCells; j++) {
    let s = 0;
    for (let k = m.indptr[j]!; k < m.indptr[j + 1]!; k++) s += m.data[k]!;
    umi[j] = s;
    genes[j] = m.indptr[j + 1]! - m.indptr[j]!;
    total += s;
  }
  return {
    cells: m.nCells,
    genes: m.nGenes,
    nonZeros: m.indptr[m.nCells]!,
    umiTotal: total,
    umiMedianPerCell: median(umi),
    genesMedianPerCell: median(genes),
  };
}

export interface FileProperties {
  format: SourceFormat;
  summary: DatasetSummary;
  species: SpeciesGuess;
  /** Best-matching Ensembl release of the detected species (absent when no lists are configured). */
  release?: ReleaseMatch;
  releases: ReleaseMatch[];
  warnings: string[];
}

/** Everything the upload page shows about a dataset. `releases` are the configured gene lists. */
export function fileProperties(ds: Dataset, releases: GeneRelease[] = []): FileProperties {
  const species = detectSpecies(ds.genes);
  const matches = matchReleases(ds.genes, releases);
  const sameSpecies = matches.filter((r) => species.species === 'unknown' || r.species === species.species);
  const best = sameSpecies[0];
  return {
    format: ds.format,
    summary: summarizeCounts(ds.counts),
    species,
    ...(best ? { release: best } : {}),
    releases: matches,
    warnings: ds.warnings,
  };
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
