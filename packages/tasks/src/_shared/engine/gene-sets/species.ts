import { TaskError } from '@cellcloud/engine/tasks/kit';
import type { ResourceReader, ResultHandle } from '@cellcloud/engine/tasks/kit';

/**
 * Gene symbol mapping of a dataset onto the (human) gene sets, docs/product/validation.md#species rule for
 * enrichment: human directly; another species through an orthologue table read by path
 * (`orthologues/<species>_human.tsv`: two tab-separated columns, species symbol and human symbol,
 * optional header starting with `#`); mouse without a table through a conservative uppercase-symbol
 * mapping (Cd14 → CD14; most mouse–human one-to-one orthologues share the symbol; genes whose
 * uppercase symbol is not a human gene of the library simply do not match). Any other species
 * without a table → the SPEC message "convert to human or mouse".
 *
 * No orthologue table is shipped in /work/shared/data (its README §8 notes none was found), so the
 * mouse uppercase mapping is what runs today. `unknown` species (detection failed) is treated as
 * human.
 */
export type Mapping = 'human' | 'orthologue-table' | 'uppercase-symbol';

export interface SpeciesMap {
  mapping: Mapping;
  /** Human symbol per dataset gene ('' when unmapped). */
  human: string[];
}

export function speciesSlug(species: string): 'human' | 'mouse' | string {
  const s = species.trim().toLowerCase();
  if (['human', 'homo sapiens', 'hs', 'hsa', 'unknown', ''].includes(s)) return 'human';
  if (['mouse', 'mus musculus', 'mm', 'mmu'].includes(s)) return 'mouse';
  return s.replace(/[^a-z0-9]+/g, '_');
}

export const orthologuePath = (slug: string) => `orthologues/${slug}_human.tsv`;

export async function speciesMap(result: ResultHandle, resources: ResourceReader): Promise<SpeciesMap> {
  const slug = speciesSlug(result.species);
  const symbols = result.genes.symbols;
  if (slug === 'human') return { mapping: 'human', human: symbols.map((s) => s.toUpperCase()) };
  const path = orthologuePath(slug);
  if (await resources.exists(path).catch(() => false)) {
    const table = new Map<string, string>();
    for (const line of (await resources.readText(path)).split(/\r?\n/)) {
      if (!line.trim() || line.startsWith('#')) continue;
      const [from, to] = line.split('\t');
      if (from && to && !table.has(from.trim())) table.set(from.trim(), to.trim().toUpperCase());
    }
    return { mapping: 'orthologue-table', human: symbols.map((s) => table.get(s) ?? '') };
  }
  if (slug === 'mouse') return { mapping: 'uppercase-symbol', human: symbols.map((s) => s.toUpperCase()) };
  throw new TaskError('common.speciesConvert', `No orthologue table for ${result.species}.`, {
    species: result.species,
  });
}
