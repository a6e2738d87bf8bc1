import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Species } from '@cellcloud/contracts';
import { fileProperties, parseGeneRelease, type Dataset, type GeneRelease } from '@cellcloud/formats';

/**
 * Ensembl gene references for file properties (docs/product/entities.md#file-properties: species and an Ensembl version with
 * overlap percent). A reference is a 10x `features.tsv.gz` (gene_id, gene_name, type) in the
 * directory ENSEMBL_GENE_LISTS_DIR, named `<species>_<10x reference>_features.tsv.gz`, e.g.
 * `human_GRCh38-2024-A_features.tsv.gz`. The Ensembl release of each 10x reference is known
 * (10x release notes); a name like `human_ens112_features.tsv.gz` states it directly.
 */
export interface GeneReference {
  /** The parsed gene list (formats' GeneRelease: name = file's 10x reference). */
  genes: GeneRelease;
  reference: string;
  release: number | null;
}

const SPECIES: Record<string, Species> = { human: 'Homo sapiens', mouse: 'Mus musculus' };

const RELEASE_OF_10X_REFERENCE: Record<string, number> = {
  'GRCh38-2024-A': 110,
  'GRCm39-2024-A': 110,
  'GRCh38-2020-A': 98,
  'mm10-2020-A': 98,
  'GRCh38-3.0.0': 93,
  'mm10-3.0.0': 93,
  'hg19-3.0.0': 87,
  'GRCh38-1.2.0': 84,
  'mm10-1.2.0': 84,
  'hg19-1.2.0': 82,
};

function releaseOf(reference: string): number | null {
  const direct = /^ens(?:embl)?[-_]?(\d+)$/i.exec(reference);
  if (direct) return Number(direct[1]);
  return RELEASE_OF_10X_REFERENCE[reference] ?? null;
}

const cache = new Map<string, Promise<GeneReference[]>>();

/** Loads (once per directory) every reference of the directory; [] when it is not configured. */
export function loadGeneReferences(dir: string | undefined): Promise<GeneReference[]> {
  if (!dir) return Promise.resolve([]);
  let p = cache.get(dir);
  if (!p) {
    p = readReferences(dir);
    cache.set(dir, p);
    p.catch(() => cache.delete(dir));
  }
  return p;
}

async function readReferences(dir: string): Promise<GeneReference[]> {
  const names = (await readdir(dir)).filter((n) => /^[A-Za-z]+_.+_features\.tsv(\.gz)?$/.test(n)).sort();
  const out: GeneReference[] = [];
  for (const name of names) {
    const m = /^([A-Za-z]+)_(.+)_features\.tsv(\.gz)?$/.exec(name)!;
    const species = SPECIES[m[1]!.toLowerCase()];
    if (!species) continue; // only the species the platform analyses
    const raw = await readFile(path.join(dir, name));
    const text = (m[3] ? gunzipSync(raw) : raw).toString('utf8');
    out.push({ genes: parseGeneRelease(m[2]!, species, text), reference: m[2]!, release: releaseOf(m[2]!) });
  }
  return out;
}

export interface ReferenceMatch {
  species: string | null;
  ensemblRelease: number | null;
  ensemblReference: string | null;
  overlapPercent: number;
}

/**
 * Species (from Ensembl ids or symbol case, even without references) and the best-matching
 * reference of that species with its overlap percent — formats' `fileProperties` does the
 * matching; this adds the Ensembl release number of the 10x reference.
 */
export function matchReference(d: Dataset, refs: GeneReference[]): ReferenceMatch {
  const p = fileProperties(
    d,
    refs.map((r) => r.genes),
  );
  const best = p.release ? refs.find((r) => r.genes.name === p.release!.name) : undefined;
  return {
    species: p.species.species === 'unknown' ? (best?.genes.species ?? null) : p.species.species,
    ensemblRelease: best?.release ?? null,
    ensemblReference: best?.reference ?? null,
    overlapPercent: p.release?.overlapPercent ?? 0,
  };
}
