import { TaskError } from '@cellcloud/engine/tasks/kit';
import type { ResourceReader } from '@cellcloud/engine/tasks/kit';
import { readResourceText } from '../../_shared/engine/resources';

/**
 * Bundled annotation references (shared data `annotation_refs/`, read through the ResourceReader by
 * path relative to the resources root). Each is a genes × labels table of one profile per label
 * (log expression, average expression or expression fractions — only ranks matter to SingleR).
 */
export interface ReferenceInfo {
  id: 'hema_microarray' | 'hca' | 'mouse_rnaseq' | 'pancreas';
  path: string;
  species: 'human' | 'mouse';
  description: string;
}

export const REFERENCES: readonly ReferenceInfo[] = [
  {
    id: 'hema_microarray',
    path: 'annotation_refs/clustifyr_hema_microarray.csv.gz',
    species: 'human',
    description: 'Human haematopoietic cells (Novershtern 2011 DMAP microarray), 38 types',
  },
  {
    id: 'hca',
    path: 'annotation_refs/numbat_ref_hca_profiles.csv.gz',
    species: 'human',
    description: 'Human Cell Atlas profiles, 12 major types',
  },
  {
    id: 'mouse_rnaseq',
    path: 'annotation_refs/clustifyr_mouse.rnaseq.csv.gz',
    species: 'mouse',
    description: 'Mouse bulk RNA-seq (Benayoun 2019, celldex MouseRNAseqData), 28 types',
  },
  {
    id: 'pancreas',
    path: 'annotation_refs/clustifyr_pan_indrop.csv.gz',
    species: 'human',
    description: 'Human pancreas inDrop (Baron 2016), 14 types',
  },
];

/** Tissues with haematopoietic progenitors: the DMAP microarray (38 types incl. progenitors). */
const MARROW = /marrow|cord|haemat|hemat|progenitor/i;
const PANCREAS = /pancrea|islet/i;

/**
 * Reference chosen by species + tissue unless the user named one: mouse → mouse RNA-seq; human
 * pancreas → Baron 2016; bone marrow / cord blood → DMAP (progenitors); every other human tissue,
 * blood/PBMC included → HCA profiles (single-cell derived; on pbmc3k it agrees better with the
 * tutorial than DMAP: coarse 97.6 % vs 91.6 % per cell, `npm run bench:annotation`).
 */
export function chooseReference(
  species: 'human' | 'mouse',
  tissue: string,
  requested: string,
): ReferenceInfo {
  if (requested !== 'auto') {
    const r = REFERENCES.find((x) => x.id === requested);
    if (r) return r;
  }
  if (species === 'mouse') return REFERENCES.find((r) => r.id === 'mouse_rnaseq')!;
  if (PANCREAS.test(tissue)) return REFERENCES.find((r) => r.id === 'pancreas')!;
  if (MARROW.test(tissue)) return REFERENCES.find((r) => r.id === 'hema_microarray')!;
  return REFERENCES.find((r) => r.id === 'hca')!;
}

export interface ReferenceMatrix {
  genes: string[];
  labels: string[];
  /** genes × labels, row-major (value of gene g for label l at g * nLabels + l). */
  values: Float64Array;
}

function unquote(s: string): string {
  const t = s.trim();
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1).replace(/""/g, '"') : t;
}

/** Parses a `gene,<label>,<label>…` table (first column the gene symbol). Duplicate genes keep the first row. */
export function parseReferenceCsv(text: string, path: string): ReferenceMatrix {
  const lines = text.split(/\r?\n/).filter((l) => l.length > 0);
  if (lines.length < 2)
    throw new TaskError('annotate.referenceFile', `Reference ${path} is empty.`, { path, detail: 'empty' });
  const header = lines[0]!.split(',').map(unquote);
  const labels = header.slice(1);
  const nL = labels.length;
  const genes: string[] = [];
  const seen = new Set<string>();
  const values = new Float64Array((lines.length - 1) * nL);
  let g = 0;
  for (let i = 1; i < lines.length; i++) {
    const f = lines[i]!.split(',');
    if (f.length !== nL + 1) {
      throw new TaskError(
        'annotate.referenceFile',
        `Reference ${path} line ${i + 1} has ${f.length} fields.`,
        {
          path,
          detail: `line ${i + 1} has ${f.length} fields for ${nL + 1}`,
        },
      );
    }
    const gene = unquote(f[0]!);
    if (seen.has(gene)) continue;
    seen.add(gene);
    genes.push(gene);
    for (let l = 0; l < nL; l++) {
      const v = Number(f[l + 1]);
      values[g * nL + l] = Number.isFinite(v) ? v : 0;
    }
    g++;
  }
  return { genes, labels, values: values.slice(0, g * nL) };
}

const caches = new WeakMap<ResourceReader, Map<string, Promise<ReferenceMatrix>>>();

/** Loads a reference once per resource reader (references are immutable resources). */
export function loadReference(resources: ResourceReader, path: string): Promise<ReferenceMatrix> {
  const cache = caches.get(resources) ?? new Map<string, Promise<ReferenceMatrix>>();
  caches.set(resources, cache);
  let p = cache.get(path);
  if (!p) {
    p = readResourceText(resources, path).then((t) => parseReferenceCsv(t, path));
    cache.set(path, p);
    p.catch(() => cache.delete(path));
  }
  return p;
}
