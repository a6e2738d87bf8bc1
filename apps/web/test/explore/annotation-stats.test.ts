import { describe, expect, it } from 'vitest';
import {
  changedRenames,
  checkEdit,
  clusterLabelTable,
  confidencePerCell,
} from '../../src/features/explore/annotation/annotationStats';

describe('Cell Annotations tab statistics', () => {
  // 3 clusters × labels T / B / NK; cluster "2" is mixed
  const clusterLabels = ['1', '2', '3'];
  const clusters = Uint32Array.from([0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2]);
  const labels = ['T', 'B', 'NK'];
  const codes = Uint32Array.from([0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 0xffffffff]);
  const score = Float32Array.from([0.5, 0.5, 0.2, 0.3, 0.4, 0.4, 0.4, 0.1, 0.3, 0.6, 0.9]);

  it('gives per cluster the majority label with its share, and the cluster × label rows with mean scores', () => {
    const table = clusterLabelTable(clusters, clusterLabels, codes, labels, score);
    expect(table.map((c) => [c.cluster, c.label, c.cells, c.confidence])).toEqual([
      ['1', 'T', 4, 0.75],
      ['2', 'B', 5, 0.6],
      ['3', 'NK', 1, 1],
    ]);
    const b2 = table[1]!.rows[0]!;
    expect(b2.meanScore).toBeCloseTo(0.4);
    expect(table[1]!.rows[1]).toMatchObject({ label: 'NK', cells: 2, fraction: 0.4 });
    expect(Array.from(confidencePerCell(clusters, clusterLabels, table)).slice(3, 5)).toEqual([
      0.75, 0.6000000238418579,
    ]);
  });

  it('keeps only real renames and checks the SPEC name rules', () => {
    const r = changedRenames({ T: 'T', B: ' Bcell ', NK: 'Bcell', X: '' });
    expect(r).toEqual({ B: 'Bcell', NK: 'Bcell' });
    expect(checkEdit('my_level', r)).toEqual({ levelInvalid: false, badLabels: [] });
    expect(checkEdit('1level', r).levelInvalid).toBe(true);
    expect(checkEdit('细胞', r).levelInvalid).toBe(true);
    expect(checkEdit('ok', { T: 'T/cells' }).badLabels).toEqual(['T']);
  });
});
