import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

/**
 * Ensembl gene references for file properties (SPEC §3: species and an Ensembl version with
 * overlap percent). A reference is a 10x `features.tsv.gz` (gene_id, gene_name, type) in the
 * directory ENSEMBL_GENE_LISTS_DIR, named `<species>_<10x reference>_features.tsv.gz`, e.g.
 * `human_GRCh38-2024-A_features.tsv.gz`. The Ensembl release of each 10x reference is known
 * (10x release notes); a name like `human_ens112_features.tsv.gz` states it directly.
 */
export interface GeneReference {
  species: string;
  reference: string;
  release: number | null;
  ids: Set<string>;
  symbols: Set<string>;
}

const SPECIES: Record<string, string> = { human: 'Homo sapiens', mouse: 'Mus musculus', rat: 'Rattus norvegicus', zebrafish: 'Danio rerio' };

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
    const raw = await readFile(path.join(dir, name));
    const text = (m[3] ? gunzipSync(raw) : raw).toString('utf8');
    const ids = new Set<string>();
    const symbols = new Set<string>();
    for (const line of text.split('\n')) {
      const [id, symbol] = line.split('\t');
      if (id) ids.add(id.trim());
      if (symbol) symbols.add(symbol.trim());
    }
    const key = m[1]!.toLowerCase();
    out.push({ species: SPECIES[key] ?? key, reference: m[2]!, release: releaseOf(m[2]!), ids, symbols });
  }
  return out;
}

export interface ReferenceMatch {
  species: string | null;
  ensemblRelease: number | null;
  ensemblReference: string | null;
  overlapPercent: number;
}

/** The reference sharing the most genes with the dataset (by Ensembl id, else by symbol). */
export function matchReference(genes: { ids: string[]; symbols: string[] }, refs: GeneReference[]): ReferenceMatch {
  let best: { ref: GeneReference; hits: number } | undefined;
  for (const ref of refs) {
    let hits = 0;
    for (let i = 0; i < genes.ids.length; i++) {
      if (ref.ids.has(genes.ids[i]!) || ref.symbols.has(genes.symbols[i] ?? genes.ids[i]!)) hits++;
    }
    if (!best || hits > best.hits) best = { ref, hits };
  }
  if (!best || best.hits === 0 || genes.ids.length === 0) return { species: null, ensemblRelease: null, ensemblReference: null, overlapPercent: 0 };
  return {
    species: best.ref.species,
    ensemblRelease: best.ref.release,
    ensemblReference: best.ref.reference,
    overlapPercent: Math.round((1000 * best.hits) / genes.ids.length) / 10,
  };
}
