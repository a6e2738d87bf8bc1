import { ithTask } from '@cellcloud/contracts/tasks/ith';
import { hasSharedData, SHARED_DATA_DIR } from '@cellcloud/testkit';
import { describe, expect, it } from 'vitest';
import { nodeResourceReader } from '../src/cli/node-resources';
import { ithEngineTask } from '../src/tasks/ith';
import { MemorySink } from '../src/tasks/memory-sink';
import { ANNOT, MATRIX, oligo } from './cnv-fixtures';

describe.skipIf(!hasSharedData(MATRIX, ANNOT))('ith task on the oligodendroglioma example', () => {
  for (const method of ['dist', 'iqr'] as const) {
    it(`${method}: one score per cell pair of each identity with ≥ 20 cells, comparisons`, async () => {
      const result = await oligo();
      const sink = new MemorySink();
      const params = ithTask.params.parse({
        groupBy: 'cell_type',
        method,
        comparisons: [{ a: 'malignant_93', b: 'Oligodendrocytes (non-malignant)' }],
        ncellMax: 30,
      });
      const summary = await ithEngineTask.run({
        result,
        params,
        onProgress: () => {},
        sink,
        resources: nodeResourceReader(SHARED_DATA_DIR),
      });
      expect(summary.skipped).toEqual([{ type: 'Microglia/Macrophage', cells: 19 }]);
      const all = sink.tables.get('ITH_score_all')!;
      expect(all.columns).toEqual(['ITH_score', 'type']);
      for (const id of summary.identities) {
        expect(id.used).toBe(Math.min(30, id.cells));
        expect(all.rows.filter((r) => r[1] === id.type)).toHaveLength((id.used * (id.used - 1)) / 2);
      }
      for (const [v] of all.rows) {
        if (method === 'dist') expect(Number(v)).toBeGreaterThan(0);
        else expect(Math.abs(Number(v))).toBeLessThanOrEqual(1 + 1e-9);
      }
      const sig = sink.tables.get('ITH_score_sig')!;
      const req = sig.rows.find((r) => r[6] === true)!;
      expect(new Set(req.slice(0, 2))).toEqual(new Set(['malignant_93', 'Oligodendrocytes (non-malignant)']));
      expect(req[2]).toBe('t.test');
      expect(Number(req[3])).toBeGreaterThanOrEqual(0);
      expect(Number(req[3])).toBeLessThanOrEqual(1);
    });
  }
});
