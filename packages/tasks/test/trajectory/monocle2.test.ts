import { describe, expect, it } from 'vitest';
import {
  monocle2Params,
  monocle2Summary,
  type Monocle2BeamHeatmap,
  type Monocle2Heatmap,
  type Monocle2Trajectory,
} from '../../src/monocle2/contract';
import { MemorySink, resultHandleFromDataset } from '@cellcloud/engine/tasks/kit';
import { engine as monocle2Engine } from '../../src/monocle2/engine';
import { spearman } from '../../src/_shared/engine/trajectory/common';
import { wardCut } from '../../src/monocle2/engine/diff-test';
import { branchingData } from '../../../../scripts/synth/branching';
import { resources } from './trajectory-support';

/** Fraction of cells whose State's majority true branch is their own branch. */
function branchAccuracy(state: string[], branch: string[]): number {
  const tally = new Map<string, Map<string, number>>();
  state.forEach((s, i) => {
    const m = tally.get(s) ?? new Map<string, number>();
    m.set(branch[i]!, (m.get(branch[i]!) ?? 0) + 1);
    tally.set(s, m);
  });
  let ok = 0;
  for (const m of tally.values()) ok += Math.max(...m.values());
  return ok / state.length;
}

describe('monocle2 task', () => {
  it('DDRTree orders the synthetic branching cells (Spearman ≥ 0.9) and its States follow the branches (accuracy ≥ 0.9)', async () => {
    const d = branchingData({ cellsPerSegment: 300, seed: 5 });
    const result = resultHandleFromDataset(
      {
        counts: d.counts,
        genes: d.genes,
        cells: { barcodes: d.barcodes, columns: { celltype: { kind: 'categorical', values: d.celltype } } },
        embeddings: {},
      },
      { species: 'human' },
    );
    const sink = new MemorySink();
    const params = monocle2Params.parse({ groupBy: 'celltype', root: 'start', nHvg: 300 });
    const summary = monocle2Summary.parse(
      await monocle2Engine.run({ result, params, onProgress: () => {}, sink, resources }),
    );
    const cells = sink.tables.get('cells')!;
    const col = (n: string) => cells.columns.indexOf(n);
    const pt = cells.rows.map((r) => r[col('Pseudotime')] as number);
    const state = cells.rows.map((r) => String(r[col('State')]));
    const rho = spearman(pt, d.time);
    const acc = branchAccuracy(state, d.branch);
    console.log(
      `monocle2 synthetic: ${summary.nCenters} centres, ${summary.nStates} States, branch points ${summary.branchPoints}, root State ${summary.rootState}, Spearman ${rho.toFixed(3)}, State accuracy ${acc.toFixed(3)}, top ${summary.topGenes}`,
    );
    expect(rho).toBeGreaterThanOrEqual(0.9);
    expect(acc).toBeGreaterThanOrEqual(0.9);
    expect(Math.min(...pt)).toBe(0);
    expect(Math.max(...pt)).toBe(10);
    expect(summary.branchPoints.length).toBeGreaterThanOrEqual(1);
    // pseudotime genes: the time-dependent genes come first
    const genes = sink.tables.get('pseudotime_genes')!;
    const top50 = genes.rows.slice(0, 50).map((r) => String(r[1]));
    expect(top50.filter((g) => g.startsWith('NOISE')).length).toBeLessThan(5);
    const heat = sink.datas.get('heatmap.json') as Monocle2Heatmap;
    expect(heat.values.length).toBe(heat.genes.length);
    expect(heat.values[0]!.length).toBe(100);
    const traj = sink.datas.get('trajectory.json') as Monocle2Trajectory;
    expect(traj.nodes.length).toBe(summary.nCenters);
    expect(traj.edges.length).toBe(summary.nCenters - 1);

    // BEAM at the branch point: the branch-specific genes come first
    const sinkB = new MemorySink();
    const sB = await monocle2Engine.run({
      result,
      params: { ...params, beamBranch: summary.branchPoints[0] },
      onProgress: () => {},
      sink: sinkB,
      resources,
    });
    expect(sB.beam?.branchPoint).toBe(summary.branchPoints[0]);
    const beamTop = sinkB.tables
      .get('beam')!
      .rows.slice(0, 40)
      .map((r) => String(r[0]));
    console.log(
      `BEAM: ${sB.beam?.nCells} cells in branches ${sB.beam?.branches}, ${sB.beam?.nSignificant} genes q ≤ 0.05, top ${beamTop.slice(0, 6)}`,
    );
    expect(beamTop.filter((g) => g.startsWith('BR')).length).toBeGreaterThanOrEqual(36);
    const bh = sinkB.datas.get('beam_heatmap.json') as Monocle2BeamHeatmap;
    expect(bh.values[0]!.length).toBe(200);
    await expect(
      monocle2Engine.run({
        result,
        params: { ...params, beamBranch: 'Y_1' },
        onProgress: () => {},
        sink: new MemorySink(),
        resources,
      }),
    ).rejects.toMatchObject({ key: 'monocle2.noBranchPoint' });
  });

  it('ward.D2 cut separates two obvious groups', () => {
    // 4 items: {0,1} close, {2,3} close
    const x = [0, 0.1, 5, 5.2];
    const n = 4;
    const dist = new Float64Array(16);
    for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) dist[a * n + b] = Math.abs(x[a]! - x[b]!);
    expect(Array.from(wardCut(dist, n, 2))).toEqual([1, 1, 2, 2]);
  });
});
