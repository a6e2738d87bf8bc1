import { describe, expect, it } from 'vitest';
import {
  CLUSTER_MIN_RESTARTS,
  CLUSTER_RESTARTS,
  CLUSTER_RESTARTS_FULL_CELLS,
  clusterRestarts,
} from '../../src/steps/clusters';

describe('clusterRestarts', () => {
  it('keeps every restart up to 50,000 cells and bounds the total work above', () => {
    expect(clusterRestarts(2_700)).toBe(CLUSTER_RESTARTS);
    expect(clusterRestarts(CLUSTER_RESTARTS_FULL_CELLS)).toBe(CLUSTER_RESTARTS);
    expect(clusterRestarts(100_000)).toBe(25);
    expect(clusterRestarts(200_000)).toBe(12);
    expect(clusterRestarts(1_000_000)).toBe(CLUSTER_MIN_RESTARTS);
    expect(clusterRestarts(2_000_000)).toBe(CLUSTER_MIN_RESTARTS);
    // never more work than 50 runs at 50k cells, once above the floor
    for (const cells of [60_000, 150_000, 400_000])
      expect(clusterRestarts(cells) * cells).toBeLessThanOrEqual(
        CLUSTER_RESTARTS * CLUSTER_RESTARTS_FULL_CELLS,
      );
  });
});
