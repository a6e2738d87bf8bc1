import {
  ANNOTATION_SOURCE,
  confidenceColumn,
  SOURCE_PUBLIC,
  SOURCE_TRANSFERRED,
  TRANSFERRED_LEVELS,
  UNASSIGNED,
  type LabelTransferSummary,
} from '@cellcloud/contracts/label-transfer';
import type { CellColumn } from '@cellcloud/formats/matrix';
import { sqDist32 } from './methods/knn-scan';
import type { AnalysisResult } from './run-analysis';

export { TRANSFERRED_LEVELS, UNASSIGNED, type LabelTransferSummary };
/** Documented defaults (docs/methods/public-data.md#label-transfer): 15 reference neighbours, a majority of at least half. */
export const LABEL_TRANSFER_DEFAULTS = { k: 15, minConfidence: 0.5 } as const;

export interface LabelTransferOptions {
  k?: number;
  minConfidence?: number;
}

/**
 * The k nearest reference points of every query point (Euclidean, row-major coordinates with `d`
 * columns): exact search with a bounded insertion list and early-abandoned distances (PCs come
 * in decreasing variance, so most far points are rejected within the first dimensions).
 * O(queries × references × d) in the worst case. Returns query-major indices into `refs`.
 */
export function referenceNeighbors(
  coords: Float32Array,
  d: number,
  queries: Int32Array,
  refs: Int32Array,
  k: number,
): Int32Array {
  const kk = Math.min(k, refs.length);
  // the reference rows stored contiguously (cache-friendly scans)
  const ref = new Float32Array(refs.length * d);
  refs.forEach((r, i) => ref.set(coords.subarray(r * d, r * d + d), i * d));
  const out = new Int32Array(queries.length * kk);
  const bestD = new Float64Array(kk);
  const bestI = new Int32Array(kk);
  queries.forEach((q, qi) => {
    bestD.fill(Infinity);
    bestI.fill(-1);
    for (let p = 0; p < refs.length; p++) {
      const dist = sqDist32(coords, q * d, ref, p * d, d, bestD[kk - 1]!);
      if (dist >= bestD[kk - 1]!) continue;
      let pos = kk - 1;
      while (pos > 0 && bestD[pos - 1]! > dist) {
        bestD[pos] = bestD[pos - 1]!;
        bestI[pos] = bestI[pos - 1]!;
        pos--;
      }
      bestD[pos] = dist;
      bestI[pos] = p;
    }
    out.set(bestI, qi * kk);
  });
  return out;
}

/**
 * Majority vote of the neighbours' labels: the most frequent label among a query's neighbours
 * (ties → the label of the nearest neighbour holding one of the tied labels), its share of the k
 * neighbours as confidence, `UNASSIGNED` below `minConfidence`. Reference cells labelled
 * "unknown" (a public dataset without that level) vote for nothing but still count in k.
 */
export function majorityVote(
  neighbors: Int32Array,
  k: number,
  refLabels: readonly string[],
  minConfidence: number,
): { labels: string[]; confidence: Float64Array } {
  const n = k ? neighbors.length / k : 0;
  const labels: string[] = new Array<string>(n);
  const confidence = new Float64Array(n);
  const votes = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    votes.clear();
    let best = '';
    let bestN = 0;
    for (let t = 0; t < k; t++) {
      const l = refLabels[neighbors[i * k + t]!];
      if (l === undefined || l === 'unknown') continue;
      const c = (votes.get(l) ?? 0) + 1;
      votes.set(l, c);
      if (c > bestN) {
        bestN = c;
        best = l;
      }
    }
    // tie: the first label (nearest neighbour first) that reached bestN
    for (let t = 0; t < k && bestN; t++) {
      const l = refLabels[neighbors[i * k + t]!];
      if (l !== undefined && votes.get(l) === bestN) {
        best = l;
        break;
      }
    }
    confidence[i] = bestN / k;
    labels[i] = bestN && confidence[i]! >= minConfidence ? best : UNASSIGNED;
  }
  return { labels, confidence };
}

/**
 * Label transfer from public database datasets onto the user's cells (issue 20), on a finished
 * pipeline result: reference cells = the cells of `referenceSamples` (public datasets), queries =
 * all others; neighbours in the representation the graph used (the Harmony / MNN corrected PCs
 * when a correction ran, else the PCs; the first `nPcsUsed` columns). For every standardized level
 * the references carry (annot_full, annot_sub, annot_sub2): the query cells' values become the
 * transferred labels (a query sample's own values of that column, if any, are kept as
 * `<level>_input`), `<level>_confidence` holds the winning share (NaN on reference cells) and
 * `annotation_source` tells "public" from "transferred" cells. Mutates `result.obs`; returns
 * undefined when there is nothing to transfer (no reference or no query cells, no level).
 */
export function transferPublicLabels(
  result: Pick<AnalysisResult, 'obs' | 'embeddings' | 'qc'>,
  referenceSamples: readonly string[],
  opts: LabelTransferOptions = {},
): LabelTransferSummary | undefined {
  const k = opts.k ?? LABEL_TRANSFER_DEFAULTS.k;
  const minConfidence = opts.minConfidence ?? LABEL_TRANSFER_DEFAULTS.minConfidence;
  const sample = result.obs['Sample ID'];
  if (!sample || sample.kind !== 'categorical' || !referenceSamples.length) return undefined;
  const isRef = new Set(referenceSamples);
  const refIdx: number[] = [];
  const queryIdx: number[] = [];
  sample.values.forEach((s, i) => (isRef.has(s) ? refIdx : queryIdx).push(i));
  const levels = TRANSFERRED_LEVELS.filter((l) => {
    const c = result.obs[l];
    return c?.kind === 'categorical' && refIdx.some((i) => c.values[i] !== 'unknown');
  });
  if (!refIdx.length || !queryIdx.length || !levels.length) return undefined;

  const emb = result.embeddings.pcaCorrected ?? result.embeddings.pca;
  if (!emb) return undefined;
  const d = Math.min(emb.dims, Math.max(1, result.qc.nPcsUsed));
  const coords = new Float32Array(sample.values.length * d);
  for (let i = 0; i < sample.values.length; i++)
    coords.set(emb.values.subarray(i * emb.dims, i * emb.dims + d), i * d);
  const refs = Int32Array.from(refIdx);
  const queries = Int32Array.from(queryIdx);
  const kk = Math.min(k, refs.length);
  const neighbors = referenceNeighbors(coords, d, queries, refs, kk);

  const summary: LabelTransferSummary = {
    k: kk,
    minConfidence,
    referenceCells: refs.length,
    queryCells: queries.length,
    levels: [],
  };
  for (const level of levels) {
    const col = result.obs[level] as Extract<CellColumn, { kind: 'categorical' }>;
    const refLabels = Array.from(refs, (r) => col.values[r]!);
    const vote = majorityVote(neighbors, kk, refLabels, minConfidence);
    if (queryIdx.some((q) => col.values[q] !== 'unknown'))
      result.obs[`${level}_input`] = { kind: 'categorical', values: [...col.values] };
    const values = [...col.values];
    const conf = new Float64Array(values.length).fill(NaN);
    queryIdx.forEach((q, i) => {
      values[q] = vote.labels[i]!;
      conf[q] = vote.confidence[i]!;
    });
    result.obs[level] = { kind: 'categorical', values };
    result.obs[confidenceColumn(level)] = { kind: 'numeric', values: conf };
    summary.levels.push({
      level,
      unassigned: vote.labels.filter((l) => l === UNASSIGNED).length,
      meanConfidence: vote.confidence.reduce((a, b) => a + b, 0) / Math.max(1, queryIdx.length),
    });
  }
  result.obs[ANNOTATION_SOURCE] = {
    kind: 'categorical',
    values: sample.values.map((s) => (isRef.has(s) ? SOURCE_PUBLIC : SOURCE_TRANSFERRED)),
  };
  return summary;
}
