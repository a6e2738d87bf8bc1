import type { SubsetView } from '@cellcloud/contracts/explore';

/**
 * The key a loaded level is cached under: a saved level / subset (`subset:<id>`) also by its
 * version (update time, labels and counts), so an edited level is loaded again instead of showing
 * its old labels; an analysis or task column is its key.
 */
export function levelCacheKey(key: string, subsets: SubsetView[]): string {
  if (!key.startsWith('subset:')) return key;
  const s = subsets.find((x) => `subset:${x.id}` === key);
  return s ? `${key}@${s.updatedAt}|${s.labels.join('\u0001')}|${s.counts.join(',')}` : key;
}
