import { describe, expect, it } from 'vitest';
import { leiden } from '../../src/methods/leiden';
import { louvain } from '../../src/methods/louvain';
import { adjustedRandIndex } from '../../src/stats/ari';
import { cliques, communitiesConnected, graphFromEdges, plantedPartition, rbQuality } from './graph-fixtures';

const count = (m: Int32Array) => new Set(m).size;

describe.each([
  ['louvain', louvain],
  ['leiden', leiden],
] as const)('%s', (name, detect) => {
  it('separates two cliques joined by one edge', () => {
    const { graph, truth } = cliques(2, 6);
    const m = detect(graph);
    expect(Array.from(m)).toEqual(Array.from(truth));
  });

  it('recovers a planted partition exactly', () => {
    const { graph, truth } = plantedPartition(4, 50, 0.3, 0.01, 3);
    const m = detect(graph, { seed: 1 });
    expect(count(m)).toBe(4);
    expect(adjustedRandIndex(truth, m)).toBe(1);
    expect(rbQuality(graph, m, 1)).toBeCloseTo(rbQuality(graph, truth, 1), 12);
  });

  it('finds more communities at a higher resolution (ring of cliques)', () => {
    const { graph, truth } = cliques(12, 5, true);
    const low = detect(graph, { resolution: 0.05 });
    const one = detect(graph, { resolution: 1 });
    const high = detect(graph, { resolution: 20 });
    // γ = 1 resolves every clique; γ = 0.05 merges neighbouring cliques; γ = 20 splits cliques.
    expect(adjustedRandIndex(truth, one)).toBe(1);
    expect(count(low)).toBeLessThan(12);
    expect(count(high)).toBeGreaterThan(12);
    expect(rbQuality(graph, one, 1)).toBeGreaterThan(rbQuality(graph, low, 1));
  });

  it('is deterministic for a seed and every community is connected', () => {
    const { graph } = plantedPartition(6, 40, 0.15, 0.03, 11);
    const a = detect(graph, { seed: 5, resolution: 1.3 });
    expect(Array.from(detect(graph, { seed: 5, resolution: 1.3 }))).toEqual(Array.from(a));
    expect(communitiesConnected(graph, a)).toBe(true);
    // Numbered 0.. by first appearance.
    expect(a[0]).toBe(0);
    expect(Math.max(...a)).toBe(count(a) - 1);
  });

  it('leaves isolated nodes alone and handles an edgeless graph', () => {
    const g = graphFromEdges(5, [[0, 1]]);
    expect(Array.from(detect(g))).toEqual([0, 0, 1, 2, 3]);
    expect(Array.from(detect(graphFromEdges(3, [])))).toEqual([0, 1, 2]);
  });

  it('rejects unknown options and bad resolutions', () => {
    const { graph } = cliques(2, 3);
    expect(() => detect(graph, { resolution: 0 })).toThrow(/resolution/);
    expect(() => detect(graph, { gamma: 1 } as never)).toThrow(new RegExp(`${name}: unknown option`));
  });
});

describe('leiden vs louvain', () => {
  const seeds = [1, 2, 3, 4, 5];
  it('both come within 1% of the quality of the planted partition on a noisy graph', () => {
    const { graph, truth } = plantedPartition(8, 30, 0.3, 0.03, 2);
    const qTruth = rbQuality(graph, truth, 1);
    for (const seed of seeds) {
      expect(rbQuality(graph, louvain(graph, { seed }), 1)).toBeGreaterThan(0.99 * qTruth);
      expect(rbQuality(graph, leiden(graph, { seed }), 1)).toBeGreaterThan(0.99 * qTruth);
    }
  });

  it('leiden (refinement + a second iteration) does better than louvain near the detectability limit', () => {
    const { graph } = plantedPartition(8, 30, 0.2, 0.04, 2);
    const mean = (f: (s: number) => Int32Array) =>
      seeds.reduce((a, s) => a + rbQuality(graph, f(s), 1), 0) / seeds.length;
    expect(mean((seed) => leiden(graph, { seed }))).toBeGreaterThan(mean((seed) => louvain(graph, { seed })));
  });
});
