import {
  cnvParams,
  type CnvHeatmapLayout,
  type CnvParams,
  type CnvScoreViolins,
  type CnvSummary,
} from '@cellcloud/contracts/tasks/cnv';
import { Random } from '../../methods/random';
import { boxAndViolin, holm, kruskalTest, signifStars, wilcoxTest } from '../../stats/two-sample';
import { TaskError } from '../errors';
import { categoricalLevel } from '../groups';
import { speciesKey } from '../run-task';
import type { EngineTask, TableValue, TaskRunContext } from '../types';
import { runInferCnv } from './infercnv';
import {
  BAND_FILE,
  type Genome,
  layoutArms,
  layoutGenes,
  loadPositions,
  POSITION_FILES,
  type PositionTable,
} from './positions';
import { subclusterRows } from './subclones';

/**
 * CNV task (issue 17, METHODS §7.1–7.3). Outputs (docs/cnv.md lists the columns):
 * tables cnv_scores, cnv_arms, arm_groups, gene_frequency, score_tests; obs CNVscore,
 * CNVscore_SS, CNVscore_SD, cnv_subclone; data heatmap.bin + heatmap.json, scores.json.
 */
export const MIN_MATCHED_GENES = 300;
export const HEATMAP_MAX_ROWS = 50_000;
const TARGET_BINS = 1000;
const NA = 'NA';

function isEnsembl(ids: readonly string[]): boolean {
  let n = 0;
  const step = Math.max(1, Math.floor(ids.length / 2000));
  let seen = 0;
  for (let i = 0; i < ids.length; i += step, seen++) if (/^ENS[A-Z]*G\d/.test(ids[i] ?? '')) n++;
  return seen > 0 && n / seen >= 0.5;
}

async function positionsFor(
  ctx: TaskRunContext<CnvParams>,
  p: CnvParams,
  species: string,
): Promise<{
  genome: Genome | 'custom';
  file: string;
  table: PositionTable;
  idTable: PositionTable | null;
  bands: PositionTable | null;
}> {
  const { resources, result } = ctx;
  const humanBands = async () =>
    (await resources.exists(BAND_FILE)) ? loadPositions(resources, BAND_FILE) : null;
  if (p.positionsPath) {
    const table = await loadPositions(resources, p.positionsPath);
    const genome = p.genome === 'auto' ? 'custom' : p.genome;
    const bands = genome === 'mm10' || species === 'mouse' ? null : await humanBands();
    return { genome, file: p.positionsPath, table, idTable: null, bands };
  }
  let genome: Genome;
  if (p.genome !== 'auto') genome = p.genome;
  else if (species === 'mouse') genome = 'mm10';
  else if (species === 'human') genome = 'hg38';
  else {
    // species not detected: the assembly whose symbols match more genes
    const [h, m] = await Promise.all([
      loadPositions(resources, POSITION_FILES.hg38.symbols),
      loadPositions(resources, POSITION_FILES.mm10.symbols),
    ]);
    genome = layoutGenes(result, m, null).matched > layoutGenes(result, h, null).matched ? 'mm10' : 'hg38';
  }
  if ((species === 'mouse' && genome !== 'mm10') || (species === 'human' && genome === 'mm10')) {
    throw new TaskError(
      'cnv.genomeSpecies',
      `Genome ${genome} does not match the dataset species (${species}).`,
      { genome, species },
    );
  }
  const files = POSITION_FILES[genome];
  const table = await loadPositions(resources, files.symbols);
  const idTable = files.ids && isEnsembl(result.genes.ids) ? await loadPositions(resources, files.ids) : null;
  const bands = genome === 'mm10' ? null : await humanBands();
  return { genome, file: idTable ? `${files.ids} + ${files.symbols}` : files.symbols, table, idTable, bands };
}

function shuffleTake(rng: Random, a: number[], k: number): number[] {
  const c = a.slice();
  for (let i = 0; i < k; i++) {
    const j = i + rng.int(c.length - i);
    [c[i], c[j]] = [c[j], c[i]];
  }
  return c.slice(0, k).sort((x, y) => x - y);
}

export const cnvEngineTask: EngineTask<CnvParams, CnvSummary> = {
  name: 'cnv',
  estimateMemoryBytes(shape) {
    // normalized copy (8 B per non-zero), per analysed cell: heat-map bins (4 B + 1 B) and arm means,
    // the cnv_arms rows (~40 arms × ~150 B as JS arrays + CSV text), the condensed HCL matrix
    const perCell = TARGET_BINS * 5 + 60 * 4 + 40 * 150 + 300;
    return 200e6 + shape.nnz * 8 + shape.nCells * perCell + (3000 * 2999 * 8) / 2;
  },
  async run(ctx) {
    const p = cnvParams.parse(ctx.params);
    const { result } = ctx;
    const species = speciesKey(result.species);
    if (species !== 'human' && species !== 'mouse' && species !== 'unknown') {
      throw new TaskError(
        'common.speciesHumanMouse',
        `This analysis supports human and mouse data only (the dataset is ${result.species}).`,
        {
          species: result.species,
        },
      );
    }
    const progress = (fraction: number, step: string) => ctx.onProgress({ fraction, step });
    progress(0.01, 'positions');

    // ---- cells -------------------------------------------------------------------------------
    const types = categoricalLevel(result, p.groupBy);
    const present = new Set(types);
    for (const v of [...p.reference, ...(p.observed ?? [])]) {
      if (!present.has(v))
        throw new TaskError('cnv.referenceNotFound', `"${p.groupBy}" has no cell type "${v}".`, {
          key: p.groupBy,
          value: v,
        });
    }
    const hasSample = result.obs(p.sampleKey) !== undefined;
    if (!hasSample && (p.samples?.length || p.splitRef === 'listed')) categoricalLevel(result, p.sampleKey); // throws groupByMissing
    const sampleOf = hasSample
      ? categoricalLevel(result, p.sampleKey)
      : new Array<string>(result.nCells).fill('all');
    const sampleSet = new Set(sampleOf);
    for (const s of [...(p.samples ?? []), ...(p.refSamples ?? [])]) {
      if (!sampleSet.has(s))
        throw new TaskError('cnv.sampleMissing', `"${p.sampleKey}" has no sample "${s}".`, {
          key: p.sampleKey,
          value: s,
        });
    }
    const analysed = new Set(p.samples?.length ? p.samples : sampleSet);
    let refFrom: Set<string>;
    if (p.splitRef === 'all') refFrom = sampleSet;
    else if (p.splitRef === 'listed') {
      if (!p.refSamples?.length)
        throw new TaskError('cnv.refSamplesMissing', 'Choose the samples to take reference cells from.');
      refFrom = new Set(p.refSamples);
    } else refFrom = analysed;
    const refSet = new Set(p.reference);
    // default observed: every other group except 'NA' (cells outside a subset level)
    const obsSet = new Set(
      p.observed?.length ? p.observed : [...present].filter((t) => !refSet.has(t) && t !== NA),
    );
    const refByType = new Map<string, number[]>(p.reference.map((t) => [t, []]));
    const observed: number[] = [];
    for (let c = 0; c < result.nCells; c++) {
      const t = types[c];
      if (refSet.has(t)) {
        if (refFrom.has(sampleOf[c])) refByType.get(t)!.push(c);
      } else if (obsSet.has(t) && analysed.has(sampleOf[c])) observed.push(c);
    }
    const nRefAvailable = [...refByType.values()].reduce((s, a) => s + a.length, 0);
    if (nRefAvailable === 0) {
      throw new TaskError(
        'cnv.noReference',
        `No reference cell of ${p.reference.join(', ')} in the chosen samples.`,
        { types: p.reference.join(', ') },
      );
    }
    if (observed.length < p.minObserved) {
      throw new TaskError(
        'cnv.tooFewObserved',
        `Only ${observed.length} observed cells; at least ${p.minObserved} are needed.`,
        {
          cells: observed.length,
          min: p.minObserved,
        },
      );
    }
    const rng = new Random(p.seed);
    const refTypes = p.reference.filter((t) => refByType.get(t)!.length > 0);
    if (nRefAvailable >= p.maxRefCells) {
      const cap = Math.floor(p.maxRefCells / refTypes.length);
      for (const t of refTypes) {
        const a = refByType.get(t)!;
        if (a.length > cap) refByType.set(t, shuffleTake(rng, a, cap));
      }
    }
    const cellList: number[] = [];
    const refGroups: Uint32Array[] = [];
    for (const t of refTypes) {
      const a = refByType.get(t)!;
      refGroups.push(Uint32Array.from(a, (_, i) => cellList.length + i));
      cellList.push(...a);
    }
    const nRef = cellList.length;
    cellList.push(...observed);
    const cells = Uint32Array.from(cellList);
    const nA = cells.length;

    // ---- gene positions ---------------------------------------------------------------------
    const pos = await positionsFor(ctx, p, species);
    const layout = layoutGenes(result, pos.table, pos.idTable);
    const minGenes = Math.max(MIN_MATCHED_GENES, 2 * p.windowLength);
    if (layout.matched < minGenes) {
      throw new TaskError(
        'cnv.fewGenesMatched',
        `Only ${layout.matched} of ${result.nGenes} genes matched the ${pos.genome} gene positions (${pos.file}).`,
        { matched: layout.matched, total: result.nGenes, genome: pos.genome, file: pos.file, min: minGenes },
      );
    }
    const armsAll = layoutArms(layout, result.genes.symbols, pos.genome, pos.bands);

    // ---- inferCNV ------------------------------------------------------------------------------
    const matrix = p.input === 'counts' ? result.counts() : result.normalized();
    let G = 0;
    let armIdx = new Int32Array(0);
    const armNames: string[] = [];
    let binIdx = new Int32Array(0);
    let nBins = 0;
    let genesPerBin = 1;
    const binArm: number[] = [];
    let armCounts = new Float64Array(0);
    let binCounts = new Float64Array(0);
    let armVals = new Float32Array(0);
    let binVals = new Float32Array(0);
    const score = new Float64Array(nA);
    const scoreSS = new Float64Array(nA);
    const scoreSD = new Float64Array(nA);
    let minSum = 0;
    let maxSum = 0;
    let vMin = Infinity;
    let vMax = -Infinity;
    let loss = new Uint32Array(0);
    let gain = new Uint32Array(0);
    let geneSum = new Float64Array(0);
    const armSum = new Float64Array(64);
    const binSum = new Float64Array(TARGET_BINS * 2);
    let keptLayout: Int32Array = new Int32Array(0);

    const out = runInferCnv({
      matrix,
      cells,
      refGroups,
      genes: layout.genes,
      chrom: layout.chrom,
      opts: p,
      signal: ctx.signal,
      onProgress: (f, step) => progress(0.02 + f * 0.8, step),
      onKept: (kept) => {
        G = kept.length;
        keptLayout = kept;
        const minKept = Math.max(2 * p.windowLength, 100);
        if (G < minKept) {
          throw new TaskError('cnv.fewGenesKept', `Only ${G} genes passed the expression filter.`, {
            kept: G,
            cutoff: p.cutoff,
            minCells: p.minCellsPerGene,
            min: minKept,
          });
        }
        armIdx = new Int32Array(G);
        const armOf = new Map<string, number>();
        for (let k = 0; k < G; k++) {
          const a = armsAll.armOfGene[kept[k]];
          let i = armOf.get(a);
          if (i === undefined) {
            armOf.set(a, (i = armNames.length));
            armNames.push(a);
          }
          armIdx[k] = i;
        }
        armCounts = new Float64Array(armNames.length);
        for (let k = 0; k < G; k++) armCounts[armIdx[k]]++;
        genesPerBin = Math.max(1, Math.ceil(G / TARGET_BINS));
        binIdx = new Int32Array(G);
        let inBin = 0;
        for (let k = 0; k < G; k++) {
          if (k === 0 || armIdx[k] !== armIdx[k - 1] || inBin === genesPerBin) {
            nBins++;
            binArm.push(armIdx[k]);
            inBin = 0;
          }
          binIdx[k] = nBins - 1;
          inBin++;
        }
        binCounts = new Float64Array(nBins);
        for (let k = 0; k < G; k++) binCounts[binIdx[k]]++;
        armVals = new Float32Array(nA * armNames.length);
        binVals = new Float32Array(nA * nBins);
        loss = new Uint32Array(G);
        gain = new Uint32Array(G);
        geneSum = new Float64Array(G);
      },
      emit: (pp, v) => {
        const nArms = armNames.length;
        armSum.fill(0, 0, nArms);
        binSum.fill(0, 0, nBins);
        let s = 0;
        let mn = Infinity;
        let mx = -Infinity;
        for (let k = 0; k < G; k++) {
          const x = v[k];
          s += Math.abs(x - 1);
          armSum[armIdx[k]] += x;
          binSum[binIdx[k]] += x;
          if (x < mn) mn = x;
          if (x > mx) mx = x;
        }
        const mean = s / G;
        let ss = 0;
        for (let k = 0; k < G; k++) ss += (Math.abs(v[k] - 1) - mean) ** 2;
        score[pp] = mean;
        scoreSS[pp] = s;
        scoreSD[pp] = G > 1 ? Math.sqrt(ss / (G - 1)) : NaN;
        minSum += mn;
        maxSum += mx;
        if (mn < vMin) vMin = mn;
        if (mx > vMax) vMax = mx;
        for (let a = 0; a < nArms; a++) armVals[pp * nArms + a] = armSum[a] / armCounts[a];
        for (let b = 0; b < nBins; b++) binVals[pp * nBins + b] = binSum[b] / binCounts[b];
        if (pp >= nRef) {
          for (let k = 0; k < G; k++) {
            const x = v[k];
            if (x < p.lossBelow) loss[k]++;
            else if (x > p.gainAbove) gain[k]++;
            geneSum[k] += x;
          }
        }
      },
    });
    const nArms = armNames.length;

    // ---- subclones (per sample) ----------------------------------------------------------------
    progress(0.84, 'subclones');
    const subcloneOfPos = new Array<string>(nA);
    /** Position of each observed cell in its sample's dendrogram (heat-map row order within a subclone). */
    const rowRank = new Float64Array(nA);
    for (let i = 0; i < nRef; i++) subcloneOfPos[i] = types[cells[i]];
    const bySample = new Map<string, number[]>();
    for (let i = nRef; i < nA; i++) {
      const s = p.subclonePerSample ? sampleOf[cells[i]] : 'all';
      let a = bySample.get(s);
      if (!a) bySample.set(s, (a = []));
      a.push(i);
    }
    const multi = bySample.size > 1;
    const subcloneList: CnvSummary['subclones'] = [];
    for (const [s, rows] of [...bySample.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
      const x = new Float32Array(rows.length * nBins);
      rows.forEach((r, i) => x.set(binVals.subarray(r * nBins, (r + 1) * nBins), i * nBins));
      const leafOrder = new Int32Array(rows.length);
      const lab = subclusterRows(
        x,
        rows.length,
        nBins,
        { method: p.subcloneMethod, k: p.subcloneK, seed: p.seed },
        leafOrder,
      );
      leafOrder.forEach((r, rank) => (rowRank[rows[r]!] = rank));
      const prefix = multi ? `${s}_` : '';
      const tag = p.subcloneMethod === 'hcl' ? 'HCL' : 'KM';
      const counts = new Map<string, number>();
      rows.forEach((r, i) => {
        const l = `${prefix}${tag}_${lab[i] + 1}`;
        subcloneOfPos[r] = l;
        counts.set(l, (counts.get(l) ?? 0) + 1);
      });
      for (const [label, n] of [...counts.entries()].sort((a, b) =>
        a[0].localeCompare(b[0], undefined, { numeric: true }),
      )) {
        subcloneList.push({ label, sample: s, cells: n });
      }
    }

    // ---- per-cell outputs ------------------------------------------------------------------------
    progress(0.88, 'writing');
    const fullCol = (vals: Float64Array) => {
      const f = new Float64Array(result.nCells).fill(NaN);
      for (let i = 0; i < nA; i++) f[cells[i]] = vals[i];
      return f;
    };
    await ctx.sink.cellColumn('CNVscore', { kind: 'numeric', values: fullCol(score) });
    await ctx.sink.cellColumn('CNVscore_SS', { kind: 'numeric', values: fullCol(scoreSS) });
    await ctx.sink.cellColumn('CNVscore_SD', { kind: 'numeric', values: fullCol(scoreSD) });
    const subCol = new Array<string>(result.nCells).fill(NA);
    for (let i = 0; i < nA; i++) subCol[cells[i]] = subcloneOfPos[i];
    await ctx.sink.cellColumn('cnv_subclone', { kind: 'categorical', values: subCol });

    const clusterOf = result.obs(p.clusterKey) ? categoricalLevel(result, p.clusterKey) : null;
    const groupOf = p.groupKey ? categoricalLevel(result, p.groupKey) : null;
    const isRef = (i: number) => i < nRef;
    await ctx.sink.table('cnv_scores', {
      columns: [
        'cell',
        'type',
        'sample',
        'cluster',
        'subclone',
        'reference',
        'CNVscore',
        'CNVscore_SS',
        'CNVscore_SD',
      ],
      rows: Array.from({ length: nA }, (_, i) => {
        const c = cells[i];
        return [
          result.barcodes[c],
          types[c],
          sampleOf[c],
          clusterOf ? clusterOf[c] : null,
          subcloneOfPos[i],
          isRef(i),
          score[i],
          scoreSS[i],
          scoreSD[i],
        ];
      }),
    });
    const armRows: TableValue[][] = new Array(nA * nArms);
    for (let i = 0; i < nA; i++) {
      const bc = result.barcodes[cells[i]];
      for (let a = 0; a < nArms; a++) armRows[i * nArms + a] = [bc, armNames[a], armVals[i * nArms + a]];
    }
    await ctx.sink.table('cnv_arms', { columns: ['cell', 'arm', 'value'], rows: armRows });

    // group × arm means: by cell type and by subclone
    const groupRows: TableValue[][] = [];
    const addGroups = (kind: string, labelOf: (i: number) => string) => {
      const idx = new Map<string, number[]>();
      for (let i = 0; i < nA; i++) {
        const l = labelOf(i);
        let a = idx.get(l);
        if (!a) idx.set(l, (a = []));
        a.push(i);
      }
      for (const [l, rows] of idx) {
        for (let a = 0; a < nArms; a++) {
          let s = 0;
          for (const i of rows) s += armVals[i * nArms + a];
          groupRows.push([l, kind, rows[0] < nRef, armNames[a], s / rows.length, rows.length]);
        }
      }
    };
    addGroups('type', (i) => types[cells[i]]);
    addGroups('subclone', (i) => subcloneOfPos[i]);
    await ctx.sink.table('arm_groups', {
      columns: ['group', 'kind', 'reference', 'arm', 'mean', 'cells'],
      rows: groupRows,
    });

    const nObs = nA - nRef;
    const geneRows: TableValue[][] = [];
    for (let k = 0; k < G; k++) {
      const li = keptLayout[k];
      const g = layout.genes[li];
      const lf = loss[k] / nObs;
      const gf = gain[k] / nObs;
      const call = lf >= p.minFraction && lf >= gf ? 'loss' : gf >= p.minFraction ? 'gain' : 'neutral';
      geneRows.push([
        result.genes.symbols[g] || result.genes.ids[g],
        `chr${layout.chrom[li]}`,
        armNames[armIdx[k]],
        layout.start[li],
        layout.end[li],
        geneSum[k] / nObs,
        lf,
        gf,
        call,
      ]);
    }
    await ctx.sink.table('gene_frequency', {
      columns: [
        'gene',
        'chromosome',
        'arm',
        'start',
        'end',
        'mean',
        'loss_fraction',
        'gain_fraction',
        'call',
      ],
      rows: geneRows,
    });

    // ---- heat map ---------------------------------------------------------------------------------
    progress(0.92, 'heatmap');
    const obsTypes = [...new Set(observed.map((c) => types[c]))].sort((a, b) =>
      a.localeCompare(b, undefined, { numeric: true }),
    );
    let rowsOrder: { label: string; reference: boolean; rows: number[]; subs?: Map<string, number[]> }[] = [];
    refGroups.forEach((g, gi) =>
      rowsOrder.push({ label: refTypes[gi], reference: true, rows: Array.from(g) }),
    );
    for (const t of obsTypes) {
      const subs = new Map<string, number[]>();
      for (let i = nRef; i < nA; i++) {
        if (types[cells[i]] !== t) continue;
        const l = subcloneOfPos[i];
        let a = subs.get(l);
        if (!a) subs.set(l, (a = []));
        a.push(i);
      }
      for (const rowsOfSub of subs.values()) rowsOfSub.sort((a, b) => rowRank[a]! - rowRank[b]!);
      const sorted = new Map(
        [...subs.entries()].sort((a, b) => a[0].localeCompare(b[0], undefined, { numeric: true })),
      );
      rowsOrder.push({ label: t, reference: false, rows: [...sorted.values()].flat(), subs: sorted });
    }
    const downsampled = nA > HEATMAP_MAX_ROWS;
    if (downsampled) {
      const frac = HEATMAP_MAX_ROWS / nA;
      const hr = new Random(p.seed + 1);
      rowsOrder = rowsOrder.map((g) => {
        const keep = new Set(shuffleTake(hr, g.rows, Math.max(1, Math.floor(g.rows.length * frac))));
        const subs = g.subs
          ? new Map([...g.subs].map(([l, r]) => [l, r.filter((x) => keep.has(x))] as [string, number[]]))
          : undefined;
        return { ...g, rows: g.rows.filter((x) => keep.has(x)), subs };
      });
    }
    const nRows = rowsOrder.reduce((s, g) => s + g.rows.length, 0);
    const lo = minSum / nA;
    const hi = maxSum / nA;
    const delta = Math.max(1 - lo, hi - 1, 1e-6);
    const vmin = 1 - delta;
    const vmax = 1 + delta;
    const bytes = new Uint8Array(nRows * nBins);
    const groupsLayout: CnvHeatmapLayout['groups'] = [];
    let r = 0;
    for (const g of rowsOrder) {
      const start = r;
      const subclones: { label: string; start: number; count: number }[] = [];
      if (g.subs) {
        let s0 = r;
        for (const [l, rows] of g.subs) {
          if (rows.length) subclones.push({ label: l, start: s0, count: rows.length });
          s0 += rows.length;
        }
      }
      for (const i of g.rows) {
        for (let b = 0; b < nBins; b++) {
          const v = (binVals[i * nBins + b] - vmin) / (vmax - vmin);
          bytes[r * nBins + b] = Math.round(255 * Math.min(1, Math.max(0, v)));
        }
        r++;
      }
      groupsLayout.push({
        label: g.label,
        reference: g.reference,
        start,
        count: g.rows.length,
        ...(g.subs ? { subclones } : {}),
      });
    }
    const chromBlocks: CnvHeatmapLayout['chromosomes'] = [];
    const armBlocks: CnvHeatmapLayout['arms'] = [];
    for (let b = 0; b < nBins; b++) {
      const arm = armNames[binArm[b]];
      const chr = `chr${arm.replace(/[pq]$/, '')}`;
      const lc = chromBlocks[chromBlocks.length - 1];
      if (lc && lc.name === chr) lc.bins++;
      else chromBlocks.push({ name: chr, startBin: b, bins: 1 });
      const la = armBlocks[armBlocks.length - 1];
      if (la && la.arm === arm) la.bins++;
      else armBlocks.push({ arm, startBin: b, bins: 1 });
    }
    const heat: CnvHeatmapLayout = {
      rows: nRows,
      bins: nBins,
      vmin,
      vmax,
      groups: groupsLayout,
      chromosomes: chromBlocks,
      arms: armBlocks,
      genesPerBin,
      totalCells: nA,
      downsampled,
    };
    await ctx.sink.data('heatmap.bin', bytes);
    await ctx.sink.data('heatmap', heat);

    // ---- score violins and tests --------------------------------------------------------------------
    progress(0.96, 'scores');
    const identities: { name: string; labelOf: (i: number) => string }[] = [
      { name: 'type', labelOf: (i) => types[cells[i]] },
      ...(hasSample
        ? [{ name: 'sample', labelOf: (i: number) => (isRef(i) ? types[cells[i]] : sampleOf[cells[i]]) }]
        : []),
      ...(groupOf
        ? [{ name: 'group', labelOf: (i: number) => (isRef(i) ? types[cells[i]] : groupOf[cells[i]]) }]
        : []),
      ...(clusterOf
        ? [{ name: 'cluster', labelOf: (i: number) => (isRef(i) ? types[cells[i]] : clusterOf[cells[i]]) }]
        : []),
      { name: 'subclone', labelOf: (i) => subcloneOfPos[i] },
    ];
    const testRows: TableValue[][] = [];
    const violins: CnvScoreViolins[] = (
      [
        ['CNVscore', score],
        ['CNVscore_SS', scoreSS],
        ['CNVscore_SD', scoreSD],
      ] as const
    ).map(([name, vals]) => ({
      score: name,
      identities: identities.map((id) => {
        const groups = new Map<string, { ref: boolean; v: number[] }>();
        for (let i = 0; i < nA; i++) {
          const l = id.labelOf(i);
          let g = groups.get(l);
          if (!g) groups.set(l, (g = { ref: isRef(i), v: [] }));
          g.v.push(vals[i]);
        }
        const labels = [...groups.keys()].sort((a, b) => {
          const ra = groups.get(a)!.ref ? 0 : 1;
          const rb = groups.get(b)!.ref ? 0 : 1;
          return ra - rb || a.localeCompare(b, undefined, { numeric: true });
        });
        const overall = labels.length > 1 ? kruskalTest(labels.map((l) => groups.get(l)!.v)) : null;
        const want = new Set(p.comparisons.map((c) => `${c.a}\u0000${c.b}`));
        const pairs: { a: string; b: string; requested: boolean }[] = [];
        for (let x = 0; x < labels.length; x++) {
          for (let y = x + 1; y < labels.length; y++) {
            const req =
              want.has(`${labels[x]}\u0000${labels[y]}`) || want.has(`${labels[y]}\u0000${labels[x]}`);
            if (labels.length <= 12 || req) pairs.push({ a: labels[x], b: labels[y], requested: req });
          }
        }
        const ps = pairs.map((pr) => wilcoxTest(groups.get(pr.a)!.v, groups.get(pr.b)!.v).p);
        const adj = holm(ps);
        const outPairs = pairs.map((pr, i) => ({
          ...pr,
          p: ps[i],
          pAdj: adj[i],
          signif: signifStars(adj[i]),
        }));
        for (const pr of outPairs)
          testRows.push([name, id.name, pr.a, pr.b, 'wilcox.test', pr.p, pr.pAdj, pr.signif, pr.requested]);
        return {
          identity: id.name,
          groups: labels.map((l) => ({
            label: l,
            reference: groups.get(l)!.ref,
            ...boxAndViolin(groups.get(l)!.v),
          })),
          overall: overall ? { method: 'kruskal.test', p: overall.p } : null,
          pairs: outPairs,
        };
      }),
    }));
    await ctx.sink.data('scores', violins);
    await ctx.sink.table('score_tests', {
      columns: ['score', 'identity', 'group1', 'group2', 'method', 'p', 'p_adj', 'signif', 'requested'],
      rows: testRows,
    });

    const chromosomes: CnvSummary['chromosomes'] = out.segments.map((s) => ({
      name: `chr${s.chrom}`,
      firstGene: s.start,
      nGenes: s.end - s.start,
    }));
    const armsSummary = armNames.map((a, i) => ({
      arm: a,
      chromosome: `chr${a.replace(/[pq]$/, '')}`,
      nGenes: armCounts[i],
    }));
    progress(1, 'done');
    return {
      genome: pos.genome,
      positionsFile: pos.file,
      nGenesDataset: result.nGenes,
      nGenesMatched: layout.matched,
      nGenesUsed: G,
      nObserved: nObs,
      nReference: nRef,
      nReferenceAvailable: nRefAvailable,
      referenceTypes: refTypes,
      observedTypes: obsTypes,
      chromosomes,
      arms: armsSummary,
      armSource: armsAll.source,
      denoise: out.denoise,
      valueRange: { min: vMin, max: vMax },
      subclones: subcloneList,
      heatmap: { rows: nRows, bins: nBins, downsampled, totalCells: nA },
      identities: identities.map((i) => i.name),
    };
  },
};
