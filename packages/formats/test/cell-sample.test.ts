import { describe, expect, it } from 'vitest';
import { SAMPLE_STRATUM_FLOOR, stratifiedCellSample, stratumFloor } from '../src/h5ad-cell-sample';

/**
 * The sample a downstream task sees on a large result (issue 33, apps/server/src/jobs/task-sample.ts,
 * docs/engine-scaling.md): each group keeps up to stratumFloor cells first, the rest is shared in
 * proportion to group size, the same cells for the same seed.
 */
describe('stratified cell sample', () => {
  it('keeps small groups whole, at least the floor of the others, the rest in proportion', () => {
    // 100,000 cells in 12 groups, one of 150 cells and one of 300
    const sizes = [150, 300, ...Array.from({ length: 10 }, () => 9_955)];
    const labels = sizes.flatMap((n, g) => Array.from({ length: n }, () => `g${g}`));
    const cells = stratifiedCellSample(labels.length, 50_000, 20_331, labels);
    const kept = (g: string) => Array.from(cells).filter((c) => labels[c] === g).length;
    expect(cells.length).toBe(50_000);
    expect(kept('g0')).toBe(150);
    expect(kept('g1')).toBeGreaterThanOrEqual(stratumFloor(50_000, 12));
    expect(kept('g1')).toBeLessThan(kept('g2'));
    for (let i = 1; i < cells.length; i++) expect(cells[i]!).toBeGreaterThan(cells[i - 1]!);
    expect(Array.from(stratifiedCellSample(labels.length, 50_000, 20_331, labels))).toEqual(
      Array.from(cells),
    );
    expect(Array.from(stratifiedCellSample(labels.length, 50_000, 7, labels))).not.toEqual(Array.from(cells));
  });

  it('lowers the floor when there are many groups', () => {
    expect(stratumFloor(50_000, 24)).toBe(SAMPLE_STRATUM_FLOOR);
    expect(stratumFloor(50_000, 500)).toBe(50);
    expect(stratumFloor(50_000, 0)).toBe(SAMPLE_STRATUM_FLOOR);
  });
});
