import { NOT_IN_SUBSET, type SubsetView } from '@cellcloud/contracts/explore';
import { fetchSubsetCodes } from '../../api/explore';
import type { ArtifactClient } from './data/ArtifactClient';

/** A categorical level as labels + one code per cell (cells outside a subset get the last label). */
export interface LevelCodes {
  key: string;
  labels: string[];
  codes: ArrayLike<number>;
}

/**
 * Loads a level by key: an obs column of the manifest (analysis or task column) or a saved level /
 * subset (`subset:<id>`, needs the dataset id); cells outside a subset get `outsideLabel`.
 * Undefined for a numeric column or an unknown subset.
 */
export async function loadLevelCodes(
  client: ArtifactClient,
  datasetId: string | null,
  subsets: SubsetView[],
  key: string,
  outsideLabel: string,
): Promise<LevelCodes | undefined> {
  if (key.startsWith('subset:')) {
    const s = subsets.find((x) => `subset:${x.id}` === key);
    if (!s || datasetId === null) return undefined;
    const raw = await fetchSubsetCodes(datasetId, s.id);
    const n = s.labels.length;
    const codes = Array.from(raw, (c) => (c === NOT_IN_SUBSET || c >= n ? n : c));
    return { key, labels: codes.includes(n) ? [...s.labels, outsideLabel] : s.labels, codes };
  }
  const o = await client.obs(key);
  return o.kind === 'categorical' ? { key, labels: o.labels, codes: o.codes } : undefined;
}
