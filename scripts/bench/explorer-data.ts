import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DegRow } from '@cellcloud/contracts/artifacts';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { writeArtifacts } from '@cellcloud/formats/write-artifacts';

/**
 * Synthetic explorer artifacts for the benchmark: nCells cells in `clusters` Gaussian blobs (umap),
 * sample and cluster labels, QC columns, and `nGenes` genes with cluster-specific expression
 * (1–40 % of cells each), written with the formats package's artifact writer.
 */
export interface SyntheticOptions {
  nCells: number;
  nGenes: number;
  clusters: number;
  samples: number;
  seed: number;
  /** Artifact format (default 2, the writer's; 1 for before/after comparisons). */
  formatVersion?: 1 | 2;
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function writeSyntheticArtifacts(dir: string, o: SyntheticOptions): Promise<void> {
  const marker = path.join(dir, 'manifest.json');
  try {
    const m = JSON.parse(await readFile(marker, 'utf8')) as {
      nCells: number;
      nGenes: number;
      formatVersion: number;
    };
    if (m.nCells === o.nCells && m.nGenes === o.nGenes && m.formatVersion === (o.formatVersion ?? 2)) return; // reuse
  } catch {
    /* generate */
  }
  const rand = rng(o.seed);
  const gauss = () => Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
  const centres = Array.from(
    { length: o.clusters },
    () => [rand() * 40 - 20, rand() * 40 - 20, rand() * 2 + 0.8] as const,
  );
  const cluster = new Uint16Array(o.nCells);
  const umap = new Float32Array(o.nCells * 2);
  const clusterLabels = new Array<string>(o.nCells);
  const sampleLabels = new Array<string>(o.nCells);
  const nGenesCol = new Float64Array(o.nCells);
  const umis = new Float64Array(o.nCells);
  const mito = new Float64Array(o.nCells);
  for (let i = 0; i < o.nCells; i += 1) {
    const c = Math.floor(rand() * o.clusters);
    cluster[i] = c;
    const [cx, cy, sd] = centres[c]!;
    umap[2 * i] = cx + gauss() * sd;
    umap[2 * i + 1] = cy + gauss() * sd;
    clusterLabels[i] = String(c);
    sampleLabels[i] = `S${1 + Math.floor(rand() * o.samples)}`;
    umis[i] = Math.round(2000 + rand() * 8000);
    nGenesCol[i] = Math.round(umis[i]! * (0.3 + rand() * 0.1));
    mito[i] = rand() * 8;
  }
  // gene g is high in cluster g % clusters, background rate 1–40 %
  const background = Array.from(
    { length: o.nGenes },
    (_, g) => 0.01 + (0.39 * g) / Math.max(1, o.nGenes - 1),
  );
  const indptr = new Float64Array(o.nCells + 1);
  const indices = new Uint32Array(Math.ceil(o.nCells * o.nGenes * 0.3));
  const data = new Float32Array(indices.length);
  let nnz = 0;
  for (let i = 0; i < o.nCells; i += 1) {
    for (let g = 0; g < o.nGenes; g += 1) {
      const home = g % o.clusters === cluster[i];
      if (rand() < (home ? 0.85 : background[g]!)) {
        indices[nnz] = g;
        data[nnz] = Math.log1p((home ? 4 : 1) * (1 + rand() * 3));
        nnz += 1;
      }
    }
    indptr[i + 1] = nnz;
  }
  const normalized: CountMatrix = {
    nGenes: o.nGenes,
    nCells: o.nCells,
    indptr,
    indices: indices.subarray(0, nnz),
    data: data.subarray(0, nnz),
  };
  const symbols = Array.from({ length: o.nGenes }, (_, g) => `GENE${g + 1}`);
  const markers: DegRow[] = [];
  for (let c = 0; c < o.clusters; c += 1) {
    for (let g = 0; g < o.nGenes; g += 1) {
      const home = g % o.clusters === c;
      markers.push({
        cluster: String(c),
        gene: symbols[g]!,
        avgExpr: home ? 2 : 0.5,
        log2fc: home ? 2.5 : -0.1,
        pct1: home ? 0.85 : background[g]!,
        pct2: background[g]!,
        zscore: home ? 30 : -1,
        pval: home ? 1e-50 : 0.5,
        padj: home ? 1e-48 : 1,
      });
    }
  }
  await mkdir(dir, { recursive: true });
  await writeArtifacts(
    {
      engineVersion: 'bench-synthetic',
      formatVersion: o.formatVersion ?? 2,
      species: 'Homo sapiens',
      genes: { ids: symbols.map((_, g) => `ENSGBENCH${g}`), symbols },
      nCells: o.nCells,
      layers: { normalized },
      embeddings: { umap: { dims: 2, values: umap } },
      obs: {
        cluster: { kind: 'categorical', values: clusterLabels },
        'Sample ID': { kind: 'categorical', values: sampleLabels },
        n_genes: { kind: 'numeric', values: nGenesCol },
        total_counts: { kind: 'numeric', values: umis },
        pct_counts_mt: { kind: 'numeric', values: mito },
      },
      markers: { cluster: markers },
    },
    {
      async write(rel, bytes) {
        const file = path.join(dir, rel);
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(file, bytes);
      },
    },
  );
}
