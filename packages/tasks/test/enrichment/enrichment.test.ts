import { beforeAll, describe, expect, it } from 'vitest';
import { isTaskError } from '@cellcloud/engine/tasks/kit';
import type { MemorySink, ResultHandle, TaskTable } from '@cellcloud/engine/tasks/kit';
import { hasSharedData } from '@cellcloud/testkit';
import { definition as degDef } from '../../src/deg-groups/contract';
import { engine as degGroupsTask } from '../../src/deg-groups/engine';
import { definition as enrichDef } from '../../src/enrich/contract';
import { engine as enrichTask } from '../../src/enrich/engine';
import { pbmc3k, runInMemory, sourceOf } from './enrichment-support';

const CD14 = [{ key: 'label', values: ['CD14+ Mono'] }];
const FCGR3A = [{ key: 'label', values: ['FCGR3A+ Mono'] }];

/** Exact P(X ≥ k) with BigInt binomial coefficients, as a double (independent of the engine's code). */
function exactUpperTail(k: number, M: number, N: number, n: number): number {
  const choose = (a: number, b: number): bigint => {
    if (b < 0 || b > a) return 0n;
    let r = 1n;
    for (let i = 1; i <= b; i++) r = (r * BigInt(a - b + i)) / BigInt(i);
    return r;
  };
  let num = 0n;
  for (let x = k; x <= Math.min(n, M); x++) num += choose(M, x) * choose(N - M, n - x);
  const den = choose(N, n);
  const parts = (b: bigint) => {
    const s = b.toString();
    return { m: Number(`${s[0]}.${s.slice(1, 18) || '0'}`), e: s.length - 1 };
  };
  const a = parts(num);
  const d = parts(den);
  return (a.m / d.m) * 10 ** (a.e - d.e);
}

const col = (t: TaskTable, name: string) => t.columns.indexOf(name);

describe.skipIf(!hasSharedData('pbmc3k/pbmc3k.h5ad', 'gene_sets/enrichr_Reactome_2022_human.gmt.gz'))(
  'deg-groups + enrich on pbmc3k CD14+ vs FCGR3A+ monocytes (Seurat tutorial labels)',
  () => {
    let result: ResultHandle;
    let deg: { summary: unknown; sink: MemorySink };
    beforeAll(async () => {
      result = await pbmc3k();
      deg = await runInMemory(
        degGroupsTask as never,
        result,
        degDef.params.parse({ group1: CD14, group2: FCGR3A }) as never,
      );
    }, 120_000);

    it('step 1 finds the known monocyte markers in each direction with the documented columns', () => {
      const up = (name: string, genes: string[]) => {
        const t = deg.sink.tables.get(name)!;
        expect(t.columns).toEqual([
          'cluster',
          'gene',
          'avgExpr',
          'log2fc',
          'pct1',
          'pct2',
          'zscore',
          'pval',
          'padj',
          'mean',
        ]);
        expect(t.rows.length).toBe(result.nGenes);
        const top = t.rows.slice(0, 60).map((r) => r[col(t, 'gene')]);
        for (const g of genes) {
          expect(top).toContain(g);
          const row = t.rows.find((r) => r[col(t, 'gene')] === g)!;
          expect(row[col(t, 'log2fc')] as number).toBeGreaterThan(0.5);
          expect(row[col(t, 'padj')] as number).toBeLessThan(1e-5);
        }
      };
      up('group1', ['S100A8', 'S100A9', 'LYZ', 'CD14']);
      up('group2', ['FCGR3A', 'MS4A7', 'LST1']);
      const s = deg.summary as { group1: { cells: number }; group2: { cells: number }; shown1: number };
      expect(s.group1.cells).toBeGreaterThan(400);
      expect(s.group2.cells).toBeGreaterThan(140);
      expect(s.shown1).toBeGreaterThan(20);
    });

    it('step 2 reports inflammatory / neutrophil-degranulation terms for CD14+ and exact hypergeometric p-values', async () => {
      const { summary, sink } = await runInMemory(
        enrichTask,
        result,
        enrichDef.params.parse({
          sourceTaskId: '00000000-0000-4000-8000-000000000000',
          libraries: ['reactome', 'go_bp'],
        }),
        { source: sourceOf(deg.summary, deg.sink) },
      );
      expect(summary.mapping).toBe('human');
      const rt = sink.tables.get('ora_group1_reactome')!;
      const go = sink.tables.get('ora_group1_go_bp')!;
      expect(rt.columns).toEqual([
        'ID',
        'Description',
        'GeneRatio',
        'BgRatio',
        'pvalue',
        'p.adjust',
        'qvalue',
        'geneID',
        'Count',
      ]);
      const desc = (t: TaskTable) => t.rows.map((r) => String(r[col(t, 'Description')]));
      expect(
        desc(rt)
          .slice(0, 30)
          .some((d) => /neutrophil degranulation|inflamma|interleukin|immune system/i.test(d)),
      ).toBe(true);
      expect(
        desc(go)
          .slice(0, 30)
          .some((d) => /neutrophil|inflammatory|cytokine/i.test(d)),
      ).toBe(true);
      for (const t of [rt, go]) {
        expect(t.rows.length).toBeGreaterThan(0);
        for (const r of t.rows) {
          expect(r[col(t, 'p.adjust')] as number).toBeLessThan(0.05);
          expect(r[col(t, 'Count')] as number).toBeGreaterThanOrEqual(3);
          const [k, n] = String(r[col(t, 'GeneRatio')]).split('/').map(Number);
          const [M, N] = String(r[col(t, 'BgRatio')]).split('/').map(Number);
          expect(k).toBe(r[col(t, 'Count')]);
          expect(String(r[col(t, 'geneID')]).split('/').length).toBe(k);
          const exact = exactUpperTail(k!, M!, N!, n!);
          expect(Math.abs((r[col(t, 'pvalue')] as number) - exact) / exact).toBeLessThan(1e-9);
        }
      }
      const plots = sink.datas.get('plots') as {
        group: string;
        library: string;
        terms: unknown[];
        emap: { nodes: unknown[] };
        heat: { cells: unknown[] };
        cnet: { edges: unknown[] };
      }[];
      const p = plots.find((x) => x.group === 'group1' && x.library === 'reactome')!;
      expect(p.terms.length).toBeGreaterThan(0);
      expect(p.heat.cells.length).toBeGreaterThan(0);
      expect(p.cnet.edges.length).toBeGreaterThan(0);
      expect(p.emap.nodes.length).toBe(Math.min(30, rt.rows.length));
    }, 120_000);

    it('refuses bad inputs with translatable keys', async () => {
      const key = async (p: Promise<unknown>) =>
        p.then(
          () => 'ok',
          (e) => (isTaskError(e) ? e.key : String(e)),
        );
      // a group whose conditions no cell meets
      expect(
        await key(
          runInMemory(
            degGroupsTask,
            result,
            degDef.params.parse({
              group1: [...CD14, { key: 'seurat_cluster', values: ['0'] }],
              group2: FCGR3A,
            }),
          ),
        ),
      ).toBe('common.emptyGroup');
      expect(
        await key(runInMemory(degGroupsTask, result, degDef.params.parse({ group1: CD14, group2: CD14 }))),
      ).toBe('enrichment.overlap');
      // an uploaded GMT whose genes match nothing
      const gmt = new TextEncoder().encode('SET_A\tna\tNOTAGENE1\tNOTAGENE2\nSET_B\tna\tXYZ123\n');
      expect(
        await key(
          runInMemory(
            enrichTask,
            result,
            enrichDef.params.parse({ group1: CD14, group2: FCGR3A, libraries: ['custom'] }),
            { uploads: { geneSets: gmt } },
          ),
        ),
      ).toBe('enrichment.gmtNoMatch');
      // a species with no orthologue table
      const fish = await pbmc3k('Danio rerio');
      expect(
        await key(runInMemory(enrichTask, fish, enrichDef.params.parse({ group1: CD14, group2: FCGR3A }))),
      ).toBe('common.speciesConvert');
      // mouse runs through the documented uppercase-symbol mapping
      const mouse = await pbmc3k('Mus musculus');
      const m = await runInMemory(
        enrichTask,
        mouse,
        enrichDef.params.parse({ group1: CD14, group2: FCGR3A, libraries: ['hallmark'] }),
      );
      expect(m.summary.mapping).toBe('uppercase-symbol');
    }, 120_000);
  },
);

describe.skipIf(!hasSharedData('pbmc3k/pbmc3k.h5ad'))(
  'deg-groups pseudobulk (limma-voom on per-sample sums)',
  () => {
    it('finds the monocyte markers between CD14+ and FCGR3A+ with 3 pseudo-samples per group, and refuses one sample', async () => {
      const base = await pbmc3k();
      // pbmc3k is one donor: three pseudo-samples by cell order (round robin), for the test only
      const ds = { nCells: base.nCells, values: Array.from({ length: base.nCells }, (_, c) => `s${c % 3}`) };
      const result = {
        ...base,
        obs: (k: string) =>
          k === 'Sample ID' ? { kind: 'categorical' as const, values: ds.values } : base.obs(k),
      };
      const { summary, sink } = await runInMemory(
        degGroupsTask,
        result,
        degDef.params.parse({ group1: CD14, group2: FCGR3A, pseudobulk: true }),
      );
      expect(summary.pseudobulk).toMatchObject({ samples1: 3, samples2: 3 });
      const t = sink.tables.get('pseudobulk')!;
      expect(t.columns).toEqual(['gene', 'logFC', 'AveExpr', 't', 'P.Value', 'adj.P.Val']);
      const row = (g: string) => t.rows.find((r) => r[0] === g)!;
      for (const g of ['S100A8', 'S100A9', 'LYZ', 'CD14']) {
        expect(row(g)[1] as number).toBeGreaterThan(1);
        expect(row(g)[5] as number).toBeLessThan(0.01);
      }
      for (const g of ['FCGR3A', 'MS4A7', 'LST1']) {
        expect(row(g)[1] as number).toBeLessThan(-1);
        expect(row(g)[5] as number).toBeLessThan(0.01);
      }
      const one = {
        ...base,
        obs: (k: string) =>
          k === 'Sample ID'
            ? { kind: 'categorical' as const, values: Array(base.nCells).fill('s') }
            : base.obs(k),
      };
      await expect(
        runInMemory(
          degGroupsTask,
          one,
          degDef.params.parse({ group1: CD14, group2: FCGR3A, pseudobulk: true }),
        ),
      ).rejects.toMatchObject({ key: 'enrichment.pseudobulkSamples' });
    }, 120_000);
  },
);
