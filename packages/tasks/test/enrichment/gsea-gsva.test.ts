import { beforeAll, describe, expect, it } from 'vitest';
import { groupsOf } from '@cellcloud/engine/tasks/kit';
import type { ResultHandle, TaskTable } from '@cellcloud/engine/tasks/kit';
import { hasSharedData } from '@cellcloud/testkit';
import { definition as gseaDef } from '../../src/gsea/contract';
import { engine as gseaTask } from '../../src/gsea/engine';
import { definition as gsvaDef } from '../../src/gsva/contract';
import { engine as gsvaTask } from '../../src/gsva/engine';
import { IFNB_FILES, ifnb, pbmc3k, runInMemory } from './enrichment-support';

const col = (t: TaskTable, name: string) => t.columns.indexOf(name);

describe.skipIf(!hasSharedData(...IFNB_FILES, 'gene_sets/h.all.v7.0.symbols.gmt.gz'))(
  'GSEA on the ifnb monocytes, stim vs ctrl (Hallmark)',
  () => {
    let result: ResultHandle;
    beforeAll(async () => {
      result = await ifnb();
    }, 120_000);

    it('puts the interferon-α and interferon-γ response sets on top (NES > 2, padj < 0.01), identically for a seed', async () => {
      const mono = groupsOf(result, 'cellType').get('mono')!;
      expect(mono.length).toBeGreaterThan(100);
      const params = gseaDef.params.parse({
        group1: [
          { key: 'cellType', values: ['mono'] },
          { key: 'batch', values: ['stim'] },
        ],
        group2: [
          { key: 'cellType', values: ['mono'] },
          { key: 'batch', values: ['ctrl'] },
        ],
        library: 'hallmark',
      });
      const a = await runInMemory(gseaTask, result, params);
      const t = a.sink.tables.get('gsea')!;
      expect(t.columns).toEqual([
        'ID',
        'Description',
        'setSize',
        'enrichmentScore',
        'NES',
        'pvalue',
        'p.adjust',
        'qvalue',
        'rank',
        'leading_edge',
        'core_enrichment',
      ]);
      const ids = t.rows.map((r) => r[col(t, 'ID')]);
      console.info(
        `ifnb mono GSEA top: ${t.rows
          .slice(0, 4)
          .map(
            (r) =>
              `${r[0]} NES ${(r[col(t, 'NES')] as number).toFixed(2)} padj ${(r[col(t, 'p.adjust')] as number).toExponential(1)}`,
          )
          .join('; ')}`,
      );
      for (const id of ['HALLMARK_INTERFERON_ALPHA_RESPONSE', 'HALLMARK_INTERFERON_GAMMA_RESPONSE']) {
        expect(ids.indexOf(id)).toBeLessThan(2);
        const r = t.rows.find((x) => x[0] === id)!;
        expect(r[col(t, 'NES')] as number).toBeGreaterThan(2);
        expect(r[col(t, 'p.adjust')] as number).toBeLessThan(0.01);
        expect(String(r[col(t, 'core_enrichment')])).toMatch(/ISG15|IFIT|MX1/);
      }
      const running = a.sink.datas.get('running') as { terms: { ID: string; points: [number, number][] }[] };
      expect(running.terms.length).toBe(10);
      const top = running.terms[0]!;
      expect(Math.max(...top.points.map((p) => p[1]))).toBeCloseTo(
        t.rows[0]![col(t, 'enrichmentScore')] as number,
        5,
      );
      const b = await runInMemory(gseaTask, result, params);
      expect(b.sink.tables.get('gsea')).toEqual(t);
      // step 2: re-plot chosen terms only
      const sel = await runInMemory(gseaTask, result, { ...params, selectedTerms: ['HALLMARK_HYPOXIA'] });
      expect((sel.sink.datas.get('running') as { terms: { ID: string }[] }).terms.map((x) => x.ID)).toEqual([
        'HALLMARK_HYPOXIA',
      ]);
    }, 240_000);
  },
);

describe.skipIf(!hasSharedData('pbmc3k/pbmc3k.h5ad'))('GSVA on pbmc3k label pseudobulks', () => {
  it('scores a monocyte set highest in the monocyte columns and a T-cell set in the T-cell columns', async () => {
    const result = await pbmc3k();
    const gmt = new TextEncoder().encode(
      'MONO\tmonocyte markers\tS100A8\tS100A9\tLYZ\tCD14\tFCN1\tCST3\tTYROBP\tLGALS2\n' +
        'TCELL\tT-cell markers\tCD3D\tCD3E\tIL7R\tLDHB\tCD2\tCD3G\tLCK\n',
    );
    const { summary, sink } = await runInMemory(
      gsvaTask,
      result,
      gsvaDef.params.parse({ groupBy: 'label', library: 'custom' }),
      {
        uploads: { geneSets: gmt },
      },
    );
    expect(summary.columns).toBe(groupsOf(result, 'label').size);
    const t = sink.tables.get('gsva')!;
    expect(t.columns.slice(0, 4)).toEqual(['ID', 'Description', 'setSize', 'sd']);
    const best = (id: string) => {
      const r = t.rows.find((x) => x[0] === id)!;
      const vals = r.slice(4) as number[];
      return t.columns[4 + vals.indexOf(Math.max(...vals))];
    };
    expect(['CD14+ Mono', 'FCGR3A+ Mono']).toContain(best('MONO'));
    expect(['Naive CD4 T', 'Memory CD4 T', 'CD8 T']).toContain(best('TCELL'));
    for (const r of t.rows)
      for (const v of r.slice(4) as number[]) expect(Math.abs(v)).toBeLessThanOrEqual(1);
  }, 120_000);
});
