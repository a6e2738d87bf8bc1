import type { CnvParams } from '../contract';
import { TaskError } from '@cellcloud/engine/tasks/kit';
import { TARGET_BINS } from '../memory';

/** Heat-map bins aimed at across the genome (bins never straddle an arm; set in ../memory.ts). */
export { TARGET_BINS };

/** Everything a CNV run keeps of the inferCNV values (each cell's values are seen once, in `emit`). */
export interface CnvAccumulation {
  /** Genes that passed the expression filter. */
  G: number;
  /** Index into the gene layout of each kept gene. */
  keptLayout: Int32Array;
  /** Arms in genome order, and the arm of each kept gene. */
  armNames: string[];
  armIdx: Int32Array;
  /** Kept genes per arm. */
  armCounts: Float64Array;
  /** Heat-map bins: the bin of each kept gene, the arm of each bin. */
  nBins: number;
  binIdx: Int32Array;
  binArm: number[];
  genesPerBin: number;
  /** Per cell position × arm / × bin mean value. */
  armVals: Float32Array;
  binVals: Float32Array;
  /** Per cell position: mean, sum and sd of |v − 1|. */
  score: Float64Array;
  scoreSS: Float64Array;
  scoreSD: Float64Array;
  /** Sums over cells of each cell's minimum / maximum value (the heat-map colour range). */
  minSum: number;
  maxSum: number;
  /** Overall value range. */
  vMin: number;
  vMax: number;
  /** Per kept gene, over observed cells: cells below `lossBelow`, above `gainAbove`, value sum. */
  loss: Uint32Array;
  gain: Uint32Array;
  geneSum: Float64Array;
}

type AccumulateOptions = Pick<
  CnvParams,
  'windowLength' | 'cutoff' | 'minCellsPerGene' | 'lossBelow' | 'gainAbove'
>;

/**
 * The `onKept` / `emit` callbacks for `runInferCnv` that reduce every cell's final values to
 * scores, arm and bin means and the observed cells' per-gene loss/gain counts, and the
 * accumulated state. `nA` cells, the first `nRef` of them references; `armOfGene` per gene layout
 * index. Throws `cnv.fewGenesKept` when too few genes pass the filter.
 */
export function cnvAccumulator(
  nA: number,
  nRef: number,
  armOfGene: readonly string[],
  p: AccumulateOptions,
): {
  onKept: (kept: Int32Array) => void;
  emit: (pos: number, v: Float64Array) => void;
  acc: CnvAccumulation;
} {
  const acc: CnvAccumulation = {
    G: 0,
    keptLayout: new Int32Array(0),
    armNames: [],
    armIdx: new Int32Array(0),
    armCounts: new Float64Array(0),
    nBins: 0,
    binIdx: new Int32Array(0),
    binArm: [],
    genesPerBin: 1,
    armVals: new Float32Array(0),
    binVals: new Float32Array(0),
    score: new Float64Array(nA),
    scoreSS: new Float64Array(nA),
    scoreSD: new Float64Array(nA),
    minSum: 0,
    maxSum: 0,
    vMin: Infinity,
    vMax: -Infinity,
    loss: new Uint32Array(0),
    gain: new Uint32Array(0),
    geneSum: new Float64Array(0),
  };
  const armSum = new Float64Array(64);
  const binSum = new Float64Array(TARGET_BINS * 2);

  const onKept = (kept: Int32Array) => {
    const G = kept.length;
    acc.G = G;
    acc.keptLayout = kept;
    const minKept = Math.max(2 * p.windowLength, 100);
    if (G < minKept) {
      throw new TaskError('cnv.fewGenesKept', `Only ${G} genes passed the expression filter.`, {
        kept: G,
        cutoff: p.cutoff,
        minCells: p.minCellsPerGene,
        min: minKept,
      });
    }
    const { armNames, binArm } = acc;
    const armIdx = (acc.armIdx = new Int32Array(G));
    const armOf = new Map<string, number>();
    for (let k = 0; k < G; k++) {
      const a = armOfGene[kept[k]];
      let i = armOf.get(a);
      if (i === undefined) {
        armOf.set(a, (i = armNames.length));
        armNames.push(a);
      }
      armIdx[k] = i;
    }
    const armCounts = (acc.armCounts = new Float64Array(armNames.length));
    for (let k = 0; k < G; k++) armCounts[armIdx[k]]++;
    const genesPerBin = (acc.genesPerBin = Math.max(1, Math.ceil(G / TARGET_BINS)));
    const binIdx = (acc.binIdx = new Int32Array(G));
    let nBins = 0;
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
    acc.nBins = nBins;
    const binCounts = new Float64Array(nBins);
    for (let k = 0; k < G; k++) binCounts[binIdx[k]]++;
    acc.armVals = new Float32Array(nA * armNames.length);
    acc.binVals = new Float32Array(nA * nBins);
    acc.loss = new Uint32Array(G);
    acc.gain = new Uint32Array(G);
    acc.geneSum = new Float64Array(G);
    emit = emitter(binCounts);
  };

  const emitter = (binCounts: Float64Array) => {
    const { G, armIdx, binIdx, nBins, armCounts, armVals, binVals, score, scoreSS, scoreSD } = acc;
    const { loss, gain, geneSum } = acc;
    const nArms = acc.armNames.length;
    return (pp: number, v: Float64Array) => {
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
      acc.minSum += mn;
      acc.maxSum += mx;
      if (mn < acc.vMin) acc.vMin = mn;
      if (mx > acc.vMax) acc.vMax = mx;
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
    };
  };
  let emit: (pos: number, v: Float64Array) => void = () => {
    throw new Error('cnvAccumulator: emit before onKept');
  };
  return { onKept, emit: (pos, v) => emit(pos, v), acc };
}
