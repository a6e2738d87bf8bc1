import { describe, expect, it } from 'vitest';
import { transferStats } from '../../src/features/explore/viewer/labelTransferStats';

describe('label transfer summary of the explorer', () => {
  // 8 cells: 3 public (reference) cells, 5 of the user's with transferred labels
  const level = {
    kind: 'categorical' as const,
    key: 'annot_full',
    labels: ['T cell', 'B cell', 'unassigned', 'NK cell'],
    codes: Uint32Array.from([0, 1, 3, 0, 0, 1, 2, 2]),
  };
  const source = {
    kind: 'categorical' as const,
    key: 'annotation_source',
    labels: ['public', 'transferred'],
    codes: Uint32Array.from([0, 0, 0, 1, 1, 1, 1, 1]),
  };
  const confidence = {
    kind: 'numeric' as const,
    key: 'annot_full_confidence',
    values: Float32Array.from([NaN, NaN, NaN, 1, 0.5, 0.75, 0.25, 0.375]),
    min: 0.25,
    max: 1,
  };

  it('counts the user cells per transferred type with their mean confidence, unassigned apart', () => {
    const s = transferStats(level, source, confidence);
    expect(s).toMatchObject({ queryCells: 5, assigned: 3, unassigned: 2 });
    expect(s.rows).toEqual([
      { label: 'T cell', cells: 2, meanConfidence: 0.75 },
      { label: 'B cell', cells: 1, meanConfidence: 0.75 },
    ]);
    // NK cell only on a public cell: no row
    expect(s.unassignedMeanConfidence).toBeCloseTo(0.3125);
  });

  it('works without a confidence column', () => {
    const s = transferStats(level, source);
    expect(s.rows.map((r) => [r.label, r.cells])).toEqual([
      ['T cell', 2],
      ['B cell', 1],
    ]);
    expect(Number.isNaN(s.rows[0]!.meanConfidence)).toBe(true);
  });
});
