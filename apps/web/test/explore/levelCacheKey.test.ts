import { describe, expect, it } from 'vitest';
import type { SubsetView } from '@cellcloud/contracts/explore';
import { levelCacheKey } from '../../src/features/explore/levelCacheKey';

/** The Composition tab's cache of loaded levels: an edited saved level is a new cache entry. */
const level = (over: Partial<SubsetView> = {}): SubsetView => ({
  id: 's1',
  datasetId: 'd1',
  name: 'cell_types',
  sourceKey: 'leiden',
  labels: ['T', 'B'],
  colours: [null, null],
  counts: [10, 5],
  nCells: 15,
  clusterGenes: 'none',
  hasChildTasks: false,
  version: 1,
  notes: {},
  createdAt: '2026-11-25T05:00:00Z',
  updatedAt: '2026-11-25T05:00:00Z',
  ...over,
});

describe('levelCacheKey', () => {
  it('changes when a saved level is edited (labels, cells or update time), not otherwise', () => {
    const before = levelCacheKey('subset:s1', [level()]);
    expect(levelCacheKey('subset:s1', [level()])).toBe(before);
    expect(levelCacheKey('subset:s1', [level({ labels: ['CD4 T', 'B'] })])).not.toBe(before);
    expect(levelCacheKey('subset:s1', [level({ counts: [9, 6] })])).not.toBe(before);
    expect(levelCacheKey('subset:s1', [level({ updatedAt: '2026-11-25T05:01:00Z' })])).not.toBe(before);
  });

  it('keeps analysis columns and unknown levels under their own key', () => {
    expect(levelCacheKey('leiden', [level()])).toBe('leiden');
    expect(levelCacheKey('subset:gone', [level()])).toBe('subset:gone');
  });
});
