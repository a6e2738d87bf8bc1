import type { Monocle2Params, Monocle2Summary, Monocle2TopGenes, Monocle2Trajectory } from '../contract';
import { estimateMemoryBytes } from '../memory';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { sparsePca } from '@cellcloud/engine/methods/sparse-pca';
import { subsetCells, toGeneMajor } from '@cellcloud/engine/sparse';
import { TaskError } from '@cellcloud/engine/tasks/kit';
import type { EngineTask, TableValue } from '@cellcloud/engine/tasks/kit';
import {
  downsamplePerGroup,
  round,
  selectTrajectoryCells,
  sizeFactors,
} from '../../_shared/engine/trajectory/common';
import { bhAdjust } from '../../_shared/engine/trajectory/stats';
import { beam, branchedHeatmap } from './beam';
import { calNcenter, ddrtree } from './ddrtree';
import { fitDispersions, nsBasis } from '../../_shared/engine/trajectory/nb-glm';
import { pseudotimeTest } from './diff-test';
import { geneDispersions, selectOrderingGenes } from './genes';
import { smoothedHeatmap } from './smooth';
import { branchPoints, buildTreeModel, orderCells, type DdrTreeOrdering } from './order';

const MIN_CELLS = 50;
/** Leading principal axes of the scaled ordering-gene matrix that DDRTree works in. */
export const DDRTREE_DIMS = 50;

export const engine: EngineTask<Monocle2Params, Monocle2Summary> = {
  name: 'monocle2',
  estimateMemoryBytes,
  async run({ result, params, onProgress, sink, signal, uploads }) {
    const progress = (fraction: number, step: string) => {
      if (signal?.aborted) throw new TaskError('common.cancelled', 'The analysis was cancelled.');
      onProgress({ fraction, step });
    };
    progress(0.01, 'select');
    const sel = selectTrajectoryCells(result, params, 'monocle2');
    const nSelected = sel.cells.length;
    if (nSelected < MIN_CELLS)
      throw new TaskError('monocle2.tooFewCells', `Only ${nSelected} cells are selected.`, {
        cells: nSelected,
        min: MIN_CELLS,
      });
    const nClusters = new Set(sel.cells.map((c) => sel.labels[c]!)).size;
    let cells = sel.cells;
    if (params.downsample === 'auto' && nSelected > 10_000)
      cells = downsamplePerGroup(cells, sel.labels, Math.round(10_000 / nClusters), params.seed);
    else if (typeof params.downsample === 'number')
      cells = downsamplePerGroup(cells, sel.labels, params.downsample, params.seed);
    const N = cells.length;
    if (N < MIN_CELLS)
      throw new TaskError('monocle2.tooFewCells', `Only ${N} cells are kept.`, { cells: N, min: MIN_CELLS });
    const counts = subsetCells(result.counts(), cells);
    const sf = sizeFactors(counts);
    const gm = toGeneMajor(counts);
    const G = counts.nGenes;

    // detectGenes(0.1) and the pooled per-gene dispersions of size-normalised counts
    progress(0.05, 'dispersions');
    const { numExpressed, mu, disp, rawMean } = geneDispersions(gm, sf, N);
    const dfit = fitDispersions(mu, disp);

    // ordering genes
    progress(0.1, 'orderingGenes');
    const ordering = selectOrderingGenes(result, counts, params, uploads?.orderingGenes, mu, disp, dfit);
    // FM = log2(count/sf + 1) of the ordering genes, rows with sd > 0, scaled (sd with n − 1)
    const logm: CountMatrix = { ...counts, data: new Float32Array(counts.data.length) };
    for (let c = 0; c < N; c++)
      for (let k = counts.indptr[c]!; k < counts.indptr[c + 1]!; k++)
        logm.data[k] = Math.log2(counts.data[k]! / sf[c]! + 1);
    const genesFM: number[] = [];
    const center: number[] = [];
    const scale: number[] = [];
    for (const g of ordering) {
      let s = 0;
      let s2 = 0;
      for (let k = gm.indptr[g]!; k < gm.indptr[g + 1]!; k++) {
        const x = Math.log2(gm.data[k]! / sf[gm.indices[k]!]! + 1);
        s += x;
        s2 += x * x;
      }
      const m = s / N;
      const v = (s2 - N * m * m) / Math.max(1, N - 1);
      if (v > 1e-12) {
        genesFM.push(g);
        center.push(m);
        scale.push(1 / Math.sqrt(v));
      }
    }
    if (genesFM.length < 3)
      throw new TaskError('monocle2.noOrderingGenes', 'Fewer than 3 ordering genes vary.', {
        detail: `${genesFM.length} varying genes`,
      });
    progress(0.15, 'reduceDimension');
    const r = Math.min(DDRTREE_DIMS, genesFM.length - 1, N - 1);
    const pca = sparsePca(logm, Int32Array.from(genesFM), r, {
      center: Float64Array.from(center),
      scale: Float64Array.from(scale),
      seed: params.seed,
      powerIterations: 3,
    });
    const xr = Float64Array.from(pca.pcs);
    const K = N >= 100 ? Math.min(N, calNcenter(N)) : N;
    const dd = ddrtree(xr, N, pca.nPcs, { ncenter: K, onIter: (i) => progress(0.2 + 0.02 * i, 'DDRTree') });

    // orderCells: States from the tree's diameter end, then the root State
    progress(0.6, 'orderCells');
    const model = buildTreeModel(dd.Z, N, dd.Y, K);
    const first = orderCells(model, {
      reverse: params.reverse && params.root === undefined && params.rootState === undefined,
    });
    const cellStates = [...new Set(first.state)].sort((a, b) => a - b);
    let rootState: number | undefined;
    if (params.rootState !== undefined) {
      rootState = Number(params.rootState);
      if (!cellStates.includes(rootState)) {
        throw new TaskError('monocle2.unknownState', `There is no State ${rootState}.`, {
          state: rootState,
          n: cellStates.length,
        });
      }
    } else if (params.root !== undefined) {
      const count = new Map<number, number>();
      cells.forEach((c, i) => {
        if (sel.labels[c] === params.root) count.set(first.state[i]!, (count.get(first.state[i]!) ?? 0) + 1);
      });
      if (!count.size)
        throw new TaskError('monocle2.rootMissing', `No kept cell belongs to "${params.root}".`, {
          group: params.root,
        });
      const max = Math.max(...count.values());
      const top = [...count]
        .filter(([, c]) => c === max)
        .map(([s]) => s)
        .sort((a, b) => a - b);
      if (top.length > 1)
        throw new TaskError('monocle2.rootTie', `"${params.root}" ties between States ${top.join(', ')}.`, {
          group: params.root,
          states: top.join(', '),
        });
      rootState = top[0]!;
    }
    let ord: DdrTreeOrdering = first;
    if (rootState !== undefined && cellStates.length > 1)
      ord = orderCells(model, { rootState, previous: first });
    let minT = Infinity;
    let maxT = -Infinity;
    for (const t of ord.pseudotime) {
      minT = Math.min(minT, t);
      maxT = Math.max(maxT, t);
    }
    const pseudotime = Float64Array.from(ord.pseudotime, (t) =>
      maxT > minT ? round((10 * (t - minT)) / (maxT - minT), 1) : 0,
    );
    if (params.reverse && (params.root !== undefined || params.rootState !== undefined))
      for (let i = 0; i < N; i++) pseudotime[i] = round(10 - pseudotime[i]!, 1);

    // differentialGeneTest ~sm.ns(Pseudotime)
    progress(0.65, 'differentialGeneTest');
    const testGenes =
      params.deGenes === 'ordering'
        ? ordering
        : Array.from({ length: G }, (_, g) => g).filter((g) => numExpressed[g]! >= 10);
    const basis = nsBasis(pseudotime);
    const X = new Float64Array(N * 4);
    for (let i = 0; i < N; i++) {
      X[i * 4] = 1;
      X.set(basis.design(pseudotime[i]!), i * 4 + 1);
    }
    const y = new Float64Array(N);
    const rows = testGenes.map((g, gi) => {
      if (gi % 100 === 0) progress(0.65 + (0.25 * gi) / testGenes.length, 'differentialGeneTest');
      y.fill(0);
      for (let k = gm.indptr[g]!; k < gm.indptr[g + 1]!; k++)
        y[gm.indices[k]!] = Math.round(gm.data[k]! / sf[gm.indices[k]!]!);
      let d = dfit.ok ? dfit.a + dfit.b / Math.max(rawMean[g]!, 1e-8) : disp[g]!;
      if (!(d > 0)) d = Number.isFinite(disp[g]!) && disp[g]! > 0 ? disp[g]! : 1e-4;
      return { g, ...pseudotimeTest(y, X, N, 1 / d) };
    });
    const q = bhAdjust(rows.map((r) => (r.status === 'OK' ? r.pval : NaN)));
    rows.forEach((r, i) => (r.qval = q[i]!));
    const ranked = rows
      .filter((r) => r.status === 'OK')
      .sort((a, b) => a.qval - b.qval || a.pval - b.pval || a.g - b.g);
    const { ids, symbols } = result.genes;
    const fmt = (x: number): TableValue => (Number.isFinite(x) ? x : null);

    // outputs
    progress(0.92, 'write');
    const orderingSet = new Set(ordering);
    await sink.table('pseudotime_genes', {
      columns: [
        'gene_id',
        'gene_short_name',
        'status',
        'family',
        'pval',
        'qval',
        'num_cells_expressed',
        'use_for_ordering',
      ],
      rows: [...ranked, ...rows.filter((r) => r.status !== 'OK')].map((r) => [
        ids[r.g]!,
        symbols[r.g]!,
        r.status,
        'negbinomial.size',
        fmt(r.pval),
        fmt(r.qval),
        numExpressed[r.g]!,
        orderingSet.has(r.g),
      ]),
    });
    const groupLabels = cells.map((c) => sel.labels[c]!);
    const sampleLabels = cells.map((c) => sel.samples[c]!);
    await sink.table('cells', {
      columns: ['barcode', 'Cluster', 'Sample', 'State', 'Pseudotime', 'dim_1', 'dim_2'],
      rows: cells.map((c, i) => [
        result.barcodes[c]!,
        groupLabels[i]!,
        sampleLabels[i]!,
        String(ord.state[i]!),
        pseudotime[i]!,
        round(dd.Z[2 * i]!, 5),
        round(dd.Z[2 * i + 1]!, 5),
      ]),
    });
    const nodeName = (v: number) => `Y_${v + 1}`;
    await sink.table('tree', {
      columns: ['node', 'dim_1', 'dim_2'],
      rows: Array.from({ length: K }, (_, v) => [
        nodeName(v),
        round(dd.Y[2 * v]!, 5),
        round(dd.Y[2 * v + 1]!, 5),
      ]),
    });
    const bps = branchPoints(model).map(nodeName);
    const traj: Monocle2Trajectory = {
      cells: {
        x: Array.from({ length: N }, (_, i) => round(dd.Z[2 * i]!, 4)),
        y: Array.from({ length: N }, (_, i) => round(dd.Z[2 * i + 1]!, 4)),
        state: Array.from(ord.state, String),
        pseudotime: Array.from(pseudotime),
        cluster: groupLabels,
        sample: sampleLabels,
      },
      nodes: Array.from({ length: K }, (_, v) => ({
        id: nodeName(v),
        x: round(dd.Y[2 * v]!, 4),
        y: round(dd.Y[2 * v + 1]!, 4),
      })),
      edges: model.edges.map(([a, b]) => [nodeName(a), nodeName(b)]),
      branchPoints: bps,
      rootNode: nodeName(ord.rootNode),
    };
    await sink.data('trajectory.json', traj);
    // smoothed curves at 100 pseudotimes (genSmoothCurves), heat map of the top genes
    const nStates = cellStates.length;
    const { grid, curve, heat } = smoothedHeatmap(
      basis,
      ranked.slice(0, params.nHeatmapGenes),
      symbols,
      nStates,
    );
    await sink.data('heatmap.json', heat);
    await sink.table('heatmap_genes', {
      columns: ['gene_short_name', 'Cluster'],
      rows: heat.genes.map((g, i) => [g, heat.clusters[i]!]),
    });
    const top = ranked
      .slice(0, params.nTopGenes)
      .sort((a, b) => (symbols[a.g]! < symbols[b.g]! ? -1 : symbols[a.g]! > symbols[b.g]! ? 1 : 0));
    const topData: Monocle2TopGenes = {
      curvePseudotime: grid.map((t) => round(t, 3)),
      genes: top.map((r) => {
        const expression = new Array<number>(N).fill(0);
        for (let k = gm.indptr[r.g]!; k < gm.indptr[r.g + 1]!; k++)
          expression[gm.indices[k]!] = round(gm.data[k]! / sf[gm.indices[k]!]!, 3);
        return {
          gene: symbols[r.g]!,
          qval: r.qval,
          expression,
          curve: curve(r.beta!).map((v) => round(v, 4)),
        };
      }),
    };
    await sink.data('top_genes.json', topData);
    // BEAM at a branch point (plot 2 "beam")
    let beamSummary: Monocle2Summary['beam'];
    if (params.beamBranch !== undefined) {
      const bIdx = Number(params.beamBranch.slice(2)) - 1;
      if (!bps.includes(params.beamBranch)) {
        throw new TaskError('monocle2.noBranchPoint', `${params.beamBranch} is not a branch point.`, {
          node: params.beamBranch,
          points: bps.join(', ') || '—',
        });
      }
      progress(0.93, 'BEAM');
      const thetaOf = (g: number) => {
        let d = dfit.ok ? dfit.a + dfit.b / Math.max(rawMean[g]!, 1e-8) : disp[g]!;
        if (!(d > 0)) d = Number.isFinite(disp[g]!) && disp[g]! > 0 ? disp[g]! : 1e-4;
        return 1 / d;
      };
      const bres = beam({
        model,
        rootNode: ord.rootNode,
        branchNode: bIdx,
        pseudotime,
        genes: testGenes,
        theta: thetaOf,
        fillY: (g, list, yy) => {
          yy.fill(0);
          const pos = new Map<number, number[]>();
          list.forEach((c, i) => {
            const a = pos.get(c);
            if (a) a.push(i);
            else pos.set(c, [i]);
          });
          for (let k = gm.indptr[g]!; k < gm.indptr[g + 1]!; k++) {
            const at = pos.get(gm.indices[k]!);
            if (at) for (const i of at) yy[i] = Math.round(gm.data[k]! / sf[gm.indices[k]!]!);
          }
        },
        onProgress: (f) => progress(0.93 + 0.05 * f, 'BEAM'),
      });
      const bq = bhAdjust(bres.rows.map((r) => (r.status === 'OK' ? r.pval : NaN)));
      bres.rows.forEach((r, i) => (r.qval = bq[i]!));
      const order = bres.rows
        .map((r, i) => ({ r, i }))
        .filter(({ r }) => r.status === 'OK')
        .sort((a, b) => a.r.qval - b.r.qval || a.r.pval - b.r.pval || a.r.g - b.r.g);
      await sink.table('beam', {
        columns: ['gene_short_name', 'pval', 'qval', 'status'],
        rows: [...order.map(({ r }) => r), ...bres.rows.filter((r) => r.status !== 'OK')].map((r) => [
          symbols[r.g]!,
          fmt(r.pval),
          fmt(r.qval),
          r.status,
        ]),
      });
      const branchNames = bres.branches.map((b) => (b >= 0 ? nodeName(b) : ''));
      const topB = order.slice(0, params.nHeatmapGenes);
      await sink.data(
        'beam_heatmap.json',
        branchedHeatmap(
          topB.map(({ r }) => symbols[r.g]!),
          topB.map(({ i }) => bres.curves.get(i)!),
          nClusters,
          branchNames,
        ),
      );
      beamSummary = {
        branchPoint: params.beamBranch,
        branches: branchNames,
        nCells: bres.nCells,
        nSignificant: order.filter(({ r }) => r.qval <= 0.05).length,
      };
    }
    const ptAll = new Float64Array(result.nCells).fill(NaN);
    const stAll = new Array<string>(result.nCells).fill('NA');
    cells.forEach((c, i) => {
      ptAll[c] = pseudotime[i]!;
      stAll[c] = String(ord.state[i]!);
    });
    await sink.cellColumn('monocle2_pseudotime', { kind: 'numeric', values: ptAll });
    await sink.cellColumn('monocle2_state', { kind: 'categorical', values: stAll });
    progress(1, 'done');
    return {
      groupBy: params.groupBy,
      nCellsSelected: nSelected,
      nCells: N,
      nOrderingGenes: genesFM.length,
      nCenters: K,
      nStates,
      branchPoints: bps,
      rootState: String(rootState ?? ord.state[ord.rootCell]!),
      reversed: params.reverse,
      nGenesTested: rows.filter((r) => r.status === 'OK').length,
      nGenesSignificant: rows.filter((r) => r.qval <= 0.05).length,
      topGenes: top.map((r) => symbols[r.g]!),
      ...(beamSummary ? { beam: beamSummary } : {}),
    };
  },
};
