import { describe, expect, it } from 'vitest';
import { leiden } from '../../src/methods/leiden';
import { medoidPartition, membershipAri } from '../../src/methods/medoid-partition';
import { Random } from '../../src/methods/random';
import { adjustedRandIndex } from '../../src/stats/ari';
import { plantedPartition } from './graph-fixtures';

function randomMembership(n: number, k: number, seed: number): Int32Array {
  const rng = new Random(seed);
  return Int32Array.from({ length: n }, () => Math.floor(rng.uniform() * k));
}

describe('membershipAri', () => {
  it('equals adjustedRandIndex (dense and sparse contingency tables)', () => {
    for (const [n, k] of [
      [500, 7],
      [9000, 3000], // 3000 × 3000 ids: the map path
    ] as const) {
      const a = randomMembership(n, k, 1);
      const b = Int32Array.from(a, (x, i) => (i % 5 === 0 ? (x + 1) % k : x));
      expect(membershipAri(a, b)).toBeCloseTo(adjustedRandIndex(a, b), 12);
      expect(membershipAri(a, a)).toBe(1);
    }
  });
});

describe('medoidPartition', () => {
  it('picks the partition the others agree with most, the earliest on a tie', () => {
    const truth = Int32Array.from({ length: 300 }, (_, i) => Math.floor(i / 100));
    // three near-copies of the truth (each moves other nodes) and one that merges two groups
    const nudged = (s: number) => Int32Array.from(truth, (c, i) => (i % 37 === s ? (c + 1) % 3 : c));
    const merged = Int32Array.from(truth, (c) => Math.min(c, 1));
    expect(medoidPartition([merged, nudged(1), nudged(2), nudged(3)])).not.toBe(0);
    expect(medoidPartition([truth, truth, truth])).toBe(0);
    expect(medoidPartition([merged])).toBe(0);
    expect(() => medoidPartition([])).toThrow(/no partitions/);
  });

  it('of Leiden restarts on a weakly planted graph: as close to the truth as the typical restart', () => {
    // 6 groups of 60, weak separation: single runs disagree with one another
    const { graph, truth } = plantedPartition(6, 60, 0.12, 0.03, 5);
    const runs = Array.from({ length: 20 }, (_, seed) => leiden(graph, { seed, iterations: 5 }));
    const pairwise = runs.flatMap((a, i) => runs.slice(i + 1).map((b) => membershipAri(a, b)));
    expect(Math.min(...pairwise)).toBeLessThan(1); // the restarts really differ
    const pick = medoidPartition(runs);
    expect(medoidPartition(runs)).toBe(pick); // deterministic
    const toTruth = runs.map((m) => membershipAri(m, truth)).sort((x, y) => x - y);
    expect(membershipAri(runs[pick], truth)).toBeGreaterThanOrEqual(toTruth[Math.floor(toTruth.length / 2)]);
  });
});
