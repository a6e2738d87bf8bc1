import { definition as cnvTask } from '../../src/cnv/contract';
import { hasSharedData, SHARED_DATA_DIR } from '@cellcloud/testkit';
import { describe, expect, it } from 'vitest';
import { nodeResourceReader } from '@cellcloud/engine/cli/node-resources';
import { engine as cnvEngineTask } from '../../src/cnv/engine';
import { MemorySink } from '@cellcloud/engine/tasks/kit';
import { ANNOT, DIR, MATRIX, oligo } from './fixtures';

describe.skipIf(!hasSharedData(MATRIX, ANNOT))('cnv task on the inferCNV oligodendroglioma example', () => {
  it('malignant cells lose 1p and 19q against microglia/oligodendrocyte references', async () => {
    const result = await oligo();
    const sink = new MemorySink();
    const params = cnvTask.params.parse({
      groupBy: 'cell_type',
      reference: ['Microglia/Macrophage', 'Oligodendrocytes (non-malignant)'],
    });
    const summary = await cnvEngineTask.run({
      result,
      params,
      onProgress: () => {},
      sink,
      resources: nodeResourceReader(SHARED_DATA_DIR),
    });
    const groups = sink.tables.get('arm_groups')!;
    const tab = new Map<string, Map<string, number>>();
    for (const [g, kind, , arm, mean] of groups.rows) {
      if (kind !== 'type') continue;
      if (!tab.has(String(g))) tab.set(String(g), new Map());
      tab.get(String(g))!.set(String(arm), Number(mean));
    }
    expect(summary.nObserved).toBe(142);
    expect(summary.nReference).toBe(42);
    const refs = ['Microglia/Macrophage', 'Oligodendrocytes (non-malignant)'];
    // references sit at 1 on every arm
    for (const r of refs) {
      for (const [arm, v] of tab.get(r)!) expect(Math.abs(v - 1), `${r} ${arm}`).toBeLessThan(0.02);
    }
    // the example's 1p/19q co-deletion: every malignant tumour below 1 and below both references
    const malignant = [...tab.keys()].filter((g) => g.startsWith('malignant'));
    expect(malignant).toHaveLength(4);
    for (const m of malignant) {
      for (const arm of ['1p', '19q']) {
        const v = tab.get(m)!.get(arm)!;
        expect(v, `${m} ${arm}`).toBeLessThan(0.97);
        for (const r of refs) expect(v).toBeLessThan(tab.get(r)!.get(arm)! - 0.03);
      }
      // the unaffected partner arms stay near 1 (arm-level, not whole-chromosome events)
      expect(Math.abs(tab.get(m)!.get('1q')! - 1)).toBeLessThan(0.02);
    }
    // outputs: per-cell scores, arms table, heat map bytes matching its layout
    const arms = sink.tables.get('cnv_arms')!;
    expect(arms.columns).toEqual(['cell', 'arm', 'value']);
    expect(arms.rows.length).toBe(184 * summary.arms.length);
    const score = sink.cells.get('CNVscore')!;
    expect(score.kind).toBe('numeric');
    const heat = sink.datas.get('heatmap') as {
      rows: number;
      bins: number;
      groups: { reference: boolean }[];
    };
    expect((sink.datas.get('heatmap.bin') as Uint8Array).length).toBe(heat.rows * heat.bins);
    expect(heat.groups.slice(0, 2).every((g) => g.reference)).toBe(true);
    // malignant cells score higher than references (CNVscore = mean |v − 1|)
    const scores = sink.tables.get('cnv_scores')!;
    const mean = (ref: boolean) => {
      const v = scores.rows.filter((r) => r[5] === ref).map((r) => Number(r[6]));
      return v.reduce((a, b) => a + b, 0) / v.length;
    };
    expect(mean(false)).toBeGreaterThan(2 * mean(true));
    // subclones are fixed for a seed
    const again = new MemorySink();
    await cnvEngineTask.run({
      result,
      params,
      onProgress: () => {},
      sink: again,
      resources: nodeResourceReader(SHARED_DATA_DIR),
    });
    expect(again.cells.get('cnv_subclone')).toEqual(sink.cells.get('cnv_subclone'));
  });

  it("reads a gene-position file given by path (inferCNV's header-less gene order file)", async () => {
    const result = await oligo();
    const sink = new MemorySink();
    const params = cnvTask.params.parse({
      groupBy: 'cell_type',
      reference: ['Microglia/Macrophage', 'Oligodendrocytes (non-malignant)'],
      positionsPath: `${DIR}/gencode_downsampled.EXAMPLE_ONLY_DONT_REUSE.txt.gz`,
    });
    const summary = await cnvEngineTask.run({
      result,
      params,
      onProgress: () => {},
      sink,
      resources: nodeResourceReader(SHARED_DATA_DIR),
    });
    expect(summary.genome).toBe('custom');
    expect(summary.positionsFile).toContain('gencode_downsampled');
    expect(summary.chromosomes.every((c) => /^chr\d+$/.test(c.name))).toBe(true); // X/Y dropped
    const m = new Map<string, number>();
    for (const [g, kind, , arm, mean] of sink.tables.get('arm_groups')!.rows)
      if (kind === 'type') m.set(`${g} ${arm}`, Number(mean));
    for (const t of ['malignant_93', 'malignant_97', 'malignant_MGH36', 'malignant_MGH53']) {
      expect(m.get(`${t} 1p`)!).toBeLessThan(0.97);
      expect(m.get(`${t} 19q`)!).toBeLessThan(0.97);
    }
  });
});
