import { describe, expect, it } from 'vitest';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { runDegTask } from '../src/deg-task';
import { isEngineError } from '../src/errors';

/** 3 genes × 12 cells: gene 0 high in cells 0–5 (group 0), gene 1 high in cells 6–11, gene 2 flat. */
function matrix(): CountMatrix {
  const indptr = new Float64Array(13);
  const indices: number[] = [];
  const data: number[] = [];
  for (let c = 0; c < 12; c++) {
    const hi = c < 6 ? 0 : 1;
    indices.push(0, 1, 2);
    data.push(hi === 0 ? 30 + c : 1, hi === 1 ? 30 + c : 1, 10);
    indptr[c + 1] = indices.length;
  }
  return { nGenes: 3, nCells: 12, indptr, indices: Uint32Array.from(indices), data: Float32Array.from(data) };
}
const genes = ['A', 'B', 'C'];

describe('runDegTask (explorer DE jobs on stored counts)', () => {
  it('cluster markers: every group vs the rest, excluded cells (-1) ignored', () => {
    const codes = Int32Array.from([0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, -1]);
    const rows = runDegTask(matrix(), genes, { mode: 'cluster-markers', codes, labels: ['g0', 'g1'] });
    expect(rows).toHaveLength(6);
    expect(rows.filter((r) => r.cluster === 'g0')[0]).toMatchObject({ gene: 'A', pct1: 1 });
    expect(rows.filter((r) => r.cluster === 'g1')[0]!.gene).toBe('B');
    expect(rows.find((r) => r.cluster === 'g0' && r.gene === 'A')!.log2fc).toBeGreaterThan(2);
  });

  it('compare: group A vs group B, and a group under 3 cells is an engine error', () => {
    const rows = runDegTask(matrix(), genes, {
      mode: 'compare',
      groupA: [6, 7, 8],
      groupB: [0, 1, 2, 3],
      names: { a: 'x', b: 'y' },
    });
    expect(rows[0]).toMatchObject({ cluster: 'x', gene: 'B' });
    expect(rows.find((r) => r.gene === 'A')!.log2fc).toBeLessThan(-2);
    try {
      runDegTask(matrix(), genes, {
        mode: 'compare',
        groupA: [6, 7],
        groupB: [0, 1, 2],
        names: { a: 'x', b: 'y' },
      });
      expect.unreachable();
    } catch (e) {
      expect(isEngineError(e) && e.code).toBe('GROUP_TOO_SMALL');
    }
  });
});
