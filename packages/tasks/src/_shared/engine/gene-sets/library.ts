import { bytesSource, readText } from '@cellcloud/formats';
import {
  GENE_SET_LIBRARIES,
  GMT_UPLOAD_FIELD,
  type GeneSetSource,
} from '@cellcloud/contracts/tasks/enrichment-common';
import { TaskError } from '@cellcloud/engine/tasks/kit';
import type { ResourceReader } from '@cellcloud/engine/tasks/kit';
import { parseGmt, type GeneSet } from './gmt';

/** Reads a built-in library (through the ResourceReader) or the run's uploaded GMT. */
export async function loadGeneSets(
  source: GeneSetSource,
  resources: ResourceReader,
  uploads: Record<string, Uint8Array> | undefined,
): Promise<GeneSet[]> {
  if (source === 'custom') {
    const bytes = uploads?.[GMT_UPLOAD_FIELD];
    if (!bytes) throw new TaskError('enrichment.gmtMissing', 'Upload a GMT file to use custom gene sets.');
    return parseGmt(await readText(bytesSource('upload.gmt', bytes)));
  }
  const { path } = GENE_SET_LIBRARIES[source];
  if (!(await resources.exists(path).catch(() => false))) {
    throw new TaskError('common.resourceMissing', `The resource ${path} is not installed.`, { path });
  }
  return parseGmt(await readText(bytesSource(path, await resources.readBytes(path))));
}

/**
 * Gene sets as dataset gene indices: each set's human symbols mapped through `human` (human symbol
 * per dataset gene), restricted to `universe` when given (dataset gene indices), deduplicated,
 * and kept when the restricted size is within [min, max] (clusterProfiler / fgsea do the same).
 * A custom GMT whose genes match no gene at all → enrichment.gmtNoMatch.
 */
export function indexGeneSets(
  sets: GeneSet[],
  human: readonly string[],
  opts: { universe?: ArrayLike<number>; min: number; max: number; source: GeneSetSource },
): IndexedSets {
  const byHuman = new Map<string, number[]>();
  const add = (g: number) => {
    const h = human[g];
    if (!h) return;
    let a = byHuman.get(h);
    if (!a) byHuman.set(h, (a = []));
    a.push(g);
  };
  if (opts.universe) for (let i = 0; i < opts.universe.length; i++) add(opts.universe[i]!);
  else for (let g = 0; g < human.length; g++) add(g);
  let anyMatch = false;
  const annotated = new Uint8Array(human.length);
  const out: IndexedSet[] = [];
  for (const s of sets) {
    const idx = new Set<number>();
    for (const gene of s.genes) for (const g of byHuman.get(gene.toUpperCase()) ?? []) idx.add(g);
    if (idx.size) anyMatch = true;
    for (const g of idx) annotated[g] = 1;
    if (idx.size >= opts.min && idx.size <= opts.max) {
      out.push({
        id: s.id,
        description: s.description,
        genes: Int32Array.from([...idx].sort((a, b) => a - b)),
      });
    }
  }
  if (!anyMatch && opts.source === 'custom') {
    throw new TaskError('enrichment.gmtNoMatch', 'No gene of the uploaded gene sets matches this dataset.');
  }
  if (!out.length) {
    throw new TaskError(
      'enrichment.noGeneSets',
      `No gene set has between ${opts.min} and ${opts.max} genes here.`,
      {
        library: opts.source,
        min: opts.min,
        max: opts.max,
      },
    );
  }
  return { sets: out, annotated };
}

export interface IndexedSet {
  id: string;
  description: string;
  /** Dataset gene indices, increasing. */
  genes: Int32Array;
}

export interface IndexedSets {
  sets: IndexedSet[];
  /** 1 for dataset genes (within the universe) annotated to any set of the library, before the size filter. */
  annotated: Uint8Array;
}
