import { definition as ithTask } from '../../src/ith/contract';
import { hasSharedData, SHARED_DATA_DIR } from '@cellcloud/testkit';
import { describe, expect, it } from 'vitest';
import { nodeResourceReader } from '@cellcloud/engine/cli/node-resources';
import { engine as ithEngineTask } from '../../src/ith/engine';
import { MemorySink, resultHandleFromDataset } from '@cellcloud/engine/tasks/kit';
import { ANNOT, MATRIX, oligo } from '../cnv/fixtures';

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

  it('a mixed identity (two cell populations) is more heterogeneous than a pure one', async () => {
    const base = await oligo();
    const types = (base.obs('cell_type')!.values as string[]).slice();
    // pure: 40 malignant_93 cells; mixed: 20 oligodendrocytes + 20 malignant_MGH53 cells
    let nOligo = 0;
    let nMgh = 0;
    const mix = types.map((t) => {
      if (t === 'malignant_93') return 'pure';
      if (t === 'Oligodendrocytes (non-malignant)' && nOligo < 20) return (nOligo++, 'mixed');
      if (t === 'malignant_MGH53' && nMgh < 20) return (nMgh++, 'mixed');
      return 'NA';
    });
    const result = resultHandleFromDataset(
      {
        counts: base.counts(),
        genes: { ids: [...base.genes.ids], symbols: [...base.genes.symbols] },
        cells: { barcodes: [...base.barcodes], columns: {} },
        embeddings: {},
      },
      { species: 'human', extraObs: { mix: { kind: 'categorical', values: mix } } },
    );
    for (const method of ['dist', 'iqr'] as const) {
      const sink = new MemorySink();
      const summary = await ithEngineTask.run({
        result,
        params: ithTask.params.parse({ groupBy: 'mix', method, cmethod: 'wilcoxon' }),
        onProgress: () => {},
        sink,
        resources: nodeResourceReader(SHARED_DATA_DIR),
      });
      const med = new Map(summary.identities.map((i) => [i.type, i.median]));
      // distances grow, correlations drop when the identity mixes two populations
      if (method === 'dist') expect(med.get('mixed')!).toBeGreaterThan(med.get('pure')!);
      else expect(med.get('mixed')!).toBeLessThan(med.get('pure')!);
      const sig = sink.tables.get('ITH_score_sig')!.rows[0]!;
      expect(sig[2]).toBe('wilcox.test');
      // correlations separate clearly; PC distances are scaled per identity, so only the median moves
      if (method === 'iqr') expect(Number(sig[4])).toBeLessThan(0.05);
    }
  });
});
