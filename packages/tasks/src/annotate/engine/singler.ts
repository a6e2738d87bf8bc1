import type { CountMatrix } from '@cellcloud/formats/matrix';
import type { ReferenceMatrix } from './reference';

/**
 * SingleR (Aran et al. 2019) semantics on a reference of one profile per label, as
 * `SingleR(test, ref, labels, de.method = "classic", fine.tune = TRUE)` then `pruneScores`:
 *
 * 1. genes: those of the reference present in the dataset;
 * 2. markers per ordered label pair (A, B): the `de.n = round(500 · (2/3)^log2(nLabels))` genes with
 *    the largest positive A − B difference; the union over pairs is the gene set of round one;
 * 3. per cell: Spearman correlation with every label's profile on that gene set → score per label;
 * 4. fine-tuning: labels within `tuneThreshold` of the best stay; the correlation is recomputed on
 *    the union of the markers between the remaining labels only; repeat until one label is left or
 *    the set stops shrinking (then the best of the last round);
 * 5. delta = best − median of the round-one scores; per assigned label, calls whose delta is
 *    below median − nmads · MAD (MAD scaled by 1.4826, as scuttle::isOutlier) are pruned.
 *
 * Speed: expression ranks are computed once per cell per gene set from its non-zeros only
 * (zeros share one tied rank, and centred reference ranks sum to zero, so the dot product needs
 * only the cell's non-zero genes); reference ranks are computed once per gene set.
 */

export interface SingleROptions {
  fineTune: boolean;
  tuneThreshold: number;
  pruneNmads: number;
  /** Restrict to these reference labels (subtype annotation). */
  labels?: readonly string[];
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

export interface SingleRResult {
  labels: string[];
  /** Per cell: index into `labels` of the call. */
  call: Uint16Array;
  /** Per cell: round-one score of the called label (Spearman correlation). */
  score: Float32Array;
  /** Per cell: best − median of the round-one scores. */
  delta: Float32Array;
  pruned: Uint8Array;
  /** Round-one scores, nCells × nLabels row-major. */
  scores: Float32Array;
  /** Per label: its marker genes against every other label, most specific first (dataset gene indices). */
  labelMarkers: number[][];
  nGenes: number;
}

interface GeneSet {
  /** dataset gene → position in the set, −1 when absent. */
  pos: Int32Array;
  n: number;
  /** labels of this set (indices into the reference labels). */
  labels: number[];
  /** centred, unit-norm reference ranks, n × labels.length row-major by label (label-major). */
  refRanks: Float64Array;
}

export function deN(nLabels: number): number {
  return Math.round(500 * Math.pow(2 / 3, Math.log2(Math.max(nLabels, 1))));
}

/** Average ranks (1-based, ties averaged) of values. */
function rankInto(values: Float64Array, out: Float64Array, order: Uint32Array): void {
  const n = values.length;
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => values[a]! - values[b]!);
  let i = 0;
  while (i < n) {
    let j = i;
    while (j + 1 < n && values[order[j + 1]!] === values[order[i]!]) j++;
    const r = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) out[order[k]!] = r;
    i = j + 1;
  }
}

/** Top-k indices by value among positive values, largest first (k small). */
function topPositive(diff: Float64Array, k: number): number[] {
  const heapIdx: number[] = [];
  const heapVal: number[] = [];
  // simple min-heap on values
  const up = (i: number) => {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (heapVal[p]! <= heapVal[i]!) break;
      [heapVal[p], heapVal[i]] = [heapVal[i]!, heapVal[p]!];
      [heapIdx[p], heapIdx[i]] = [heapIdx[i]!, heapIdx[p]!];
      i = p;
    }
  };
  const down = (i: number) => {
    const n = heapVal.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && heapVal[l]! < heapVal[m]!) m = l;
      if (r < n && heapVal[r]! < heapVal[m]!) m = r;
      if (m === i) break;
      [heapVal[m], heapVal[i]] = [heapVal[i]!, heapVal[m]!];
      [heapIdx[m], heapIdx[i]] = [heapIdx[i]!, heapIdx[m]!];
      i = m;
    }
  };
  for (let g = 0; g < diff.length; g++) {
    const v = diff[g]!;
    if (!(v > 0)) continue;
    if (heapVal.length < k) {
      heapVal.push(v);
      heapIdx.push(g);
      up(heapVal.length - 1);
    } else if (v > heapVal[0]!) {
      heapVal[0] = v;
      heapIdx[0] = g;
      down(0);
    }
  }
  return heapIdx
    .map((g, i) => [g, heapVal[i]!] as const)
    .sort((a, b) => b[1] - a[1])
    .map((x) => x[0]);
}

export class SingleRModel {
  readonly labels: string[];
  /** reference row of each common gene */
  private readonly refRow: Int32Array;
  /** dataset gene index of each common gene */
  readonly dataGene: Int32Array;
  private readonly ref: ReferenceMatrix;
  private readonly labelCols: number[];
  /** markers[a][b]: common-gene indices up in a vs b */
  readonly markers: number[][][];
  private readonly nDataGenes: number;
  private readonly sets = new Map<string, GeneSet>();

  constructor(
    ref: ReferenceMatrix,
    geneIndex: (name: string) => number,
    nDataGenes: number,
    labels?: readonly string[],
  ) {
    this.ref = ref;
    this.nDataGenes = nDataGenes;
    const want = labels ? new Set(labels) : undefined;
    this.labelCols = ref.labels.map((_, i) => i).filter((i) => !want || want.has(ref.labels[i]!));
    this.labels = this.labelCols.map((i) => ref.labels[i]!);
    const rows: number[] = [];
    const data: number[] = [];
    const used = new Set<number>();
    ref.genes.forEach((g, r) => {
      const d = geneIndex(g);
      if (d >= 0 && !used.has(d)) {
        used.add(d);
        rows.push(r);
        data.push(d);
      }
    });
    this.refRow = Int32Array.from(rows);
    this.dataGene = Int32Array.from(data);
    const nL = this.labels.length;
    const k = deN(nL);
    const nG = rows.length;
    const diff = new Float64Array(nG);
    const nRefL = ref.labels.length;
    this.markers = [];
    for (let a = 0; a < nL; a++) {
      const row: number[][] = [];
      for (let b = 0; b < nL; b++) {
        if (a === b) {
          row.push([]);
          continue;
        }
        const ca = this.labelCols[a]!;
        const cb = this.labelCols[b]!;
        for (let g = 0; g < nG; g++) {
          const off = this.refRow[g]! * nRefL;
          diff[g] = ref.values[off + ca]! - ref.values[off + cb]!;
        }
        row.push(topPositive(diff, k));
      }
      this.markers.push(row);
    }
  }

  get nCommonGenes(): number {
    return this.dataGene.length;
  }

  /** Per label, its markers against all others ordered by how many pairs name them. */
  labelMarkers(): number[][] {
    return this.markers.map((row) => {
      const count = new Map<number, number>();
      row.forEach((list) => list.forEach((g, rank) => count.set(g, (count.get(g) ?? 0) + 1 - rank / 1e6)));
      return [...count.entries()].sort((x, y) => y[1] - x[1]).map(([g]) => this.dataGene[g]!);
    });
  }

  /** Gene set of the union of markers between `labels` (model label indices, ascending). */
  private geneSet(labels: number[]): GeneSet {
    const key = labels.join(',');
    let s = this.sets.get(key);
    if (s) return s;
    const genes = new Set<number>();
    for (const a of labels)
      for (const b of labels) if (a !== b) for (const g of this.markers[a]![b]!) genes.add(g);
    const list = [...genes].sort((x, y) => x - y);
    const n = list.length;
    const pos = new Int32Array(this.nDataGenes).fill(-1);
    list.forEach((g, i) => (pos[this.dataGene[g]!] = i));
    const refRanks = new Float64Array(n * labels.length);
    const vals = new Float64Array(n);
    const ranks = new Float64Array(n);
    const order = new Uint32Array(n);
    const nRefL = this.ref.labels.length;
    labels.forEach((l, li) => {
      const col = this.labelCols[l]!;
      for (let i = 0; i < n; i++) vals[i] = this.ref.values[this.refRow[list[i]!]! * nRefL + col]!;
      rankInto(vals, ranks, order);
      const mean = (n + 1) / 2;
      let ss = 0;
      for (let i = 0; i < n; i++) {
        const c = ranks[i]! - mean;
        ranks[i] = c;
        ss += c * c;
      }
      const norm = ss > 0 ? 1 / Math.sqrt(ss) : 0;
      for (let i = 0; i < n; i++) refRanks[li * n + i] = ranks[i]! * norm;
    });
    s = { pos, n, labels, refRanks };
    if (this.sets.size > 5000) this.sets.clear();
    this.sets.set(key, s);
    return s;
  }

  /** Spearman correlation of cell `c` with every label of `set`, written to out[0..labels). */
  private correlate(m: CountMatrix, c: number, set: GeneSet, out: Float64Array, buf: Scratch): void {
    const start = m.indptr[c]!;
    const end = m.indptr[c + 1]!;
    let k = 0;
    for (let p = start; p < end; p++) {
      const v = m.data[p]!;
      if (v === 0) continue;
      const i = set.pos[m.indices[p]!]!;
      if (i < 0) continue;
      buf.idx[k] = i;
      buf.val[k] = v;
      k++;
    }
    const nL = set.labels.length;
    out.fill(0, 0, nL);
    if (k === 0) return;
    const n = set.n;
    const z = n - k;
    const mean = (n + 1) / 2;
    const c0 = (z + 1) / 2 - mean;
    // rank the k non-zeros (ranks z+1 … n, ties averaged)
    const ord = buf.ord;
    for (let i = 0; i < k; i++) ord[i] = i;
    const val = buf.val;
    const sub = ord.subarray(0, k);
    sub.sort((a, b) => val[a]! - val[b]!);
    let ss = z * c0 * c0;
    let i = 0;
    while (i < k) {
      let j = i;
      while (j + 1 < k && val[sub[j + 1]!] === val[sub[i]!]) j++;
      const r = z + (i + j) / 2 + 1 - mean;
      for (let t = i; t <= j; t++) buf.rank[sub[t]!] = r;
      ss += (j - i + 1) * r * r;
      i = j + 1;
    }
    const inv = ss > 0 ? 1 / Math.sqrt(ss) : 0;
    for (let l = 0; l < nL; l++) {
      const base = l * n;
      let dot = 0;
      for (let t = 0; t < k; t++) dot += (buf.rank[t]! - c0) * set.refRanks[base + buf.idx[t]!]!;
      out[l] = dot * inv;
    }
  }

  classify(m: CountMatrix, cells: ArrayLike<number>, opts: SingleROptions): SingleRResult {
    const nL = this.labels.length;
    const all = this.labels.map((_, i) => i);
    const base = this.geneSet(all);
    const nCells = cells.length;
    const scores = new Float32Array(nCells * nL);
    const call = new Uint16Array(nCells);
    const score = new Float32Array(nCells);
    const delta = new Float32Array(nCells);
    const maxNnz = maxColumnNnz(m);
    const buf: Scratch = {
      idx: new Int32Array(maxNnz),
      val: new Float64Array(maxNnz),
      rank: new Float64Array(maxNnz),
      ord: new Uint32Array(maxNnz),
    };
    const out = new Float64Array(nL);
    const tmp = new Float64Array(nL);
    const sorted = new Float64Array(nL);
    for (let ci = 0; ci < nCells; ci++) {
      if ((ci & 255) === 0) {
        if (opts.signal?.aborted) throw opts.signal.reason ?? new Error('aborted');
        opts.onProgress?.(ci / nCells);
      }
      const c = cells[ci]!;
      this.correlate(m, c, base, out, buf);
      let best = 0;
      for (let l = 0; l < nL; l++) {
        scores[ci * nL + l] = out[l]!;
        if (out[l]! > out[best]!) best = l;
      }
      sorted.set(out);
      sorted.sort();
      const med = nL % 2 ? sorted[(nL - 1) >> 1]! : (sorted[nL / 2 - 1]! + sorted[nL / 2]!) / 2;
      delta[ci] = out[best]! - med;
      if (opts.fineTune && nL > 2) {
        let cur = all.filter((l) => out[l]! >= out[best]! - opts.tuneThreshold);
        let curScores = cur.map((l) => out[l]!);
        while (cur.length > 1) {
          const set = this.geneSet(cur);
          this.correlate(m, c, set, tmp, buf);
          let top = -Infinity;
          for (let t = 0; t < cur.length; t++) if (tmp[t]! > top) top = tmp[t]!;
          const next = cur.filter((_, t) => tmp[t]! >= top - opts.tuneThreshold);
          curScores = cur.map((_, t) => tmp[t]!);
          if (next.length === cur.length) break;
          curScores = cur.map((_, t) => tmp[t]!).filter((_, t) => tmp[t]! >= top - opts.tuneThreshold);
          cur = next;
        }
        let bi = 0;
        for (let t = 1; t < cur.length; t++) if (curScores[t]! > curScores[bi]!) bi = t;
        best = cur[bi]!;
      }
      call[ci] = best;
      score[ci] = out[best]!;
    }
    const pruned = pruneByDelta(call, delta, nL, opts.pruneNmads);
    opts.onProgress?.(1);
    return {
      labels: this.labels,
      call,
      score,
      delta,
      pruned,
      scores,
      labelMarkers: this.labelMarkers(),
      nGenes: base.n,
    };
  }
}

interface Scratch {
  idx: Int32Array;
  val: Float64Array;
  rank: Float64Array;
  ord: Uint32Array;
}

function maxColumnNnz(m: CountMatrix): number {
  let mx = 1;
  for (let c = 0; c < m.nCells; c++) mx = Math.max(mx, m.indptr[c + 1]! - m.indptr[c]!);
  return mx;
}

function median(v: number[]): number {
  if (v.length === 0) return NaN;
  const s = [...v].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
}

/** SingleR pruneScores(nmads): per assigned label, delta below median − nmads · 1.4826 · MAD is pruned. */
export function pruneByDelta(
  call: Uint16Array,
  delta: Float32Array,
  nLabels: number,
  nmads: number,
): Uint8Array {
  const byLabel: number[][] = Array.from({ length: nLabels }, () => []);
  call.forEach((l, c) => byLabel[l]!.push(delta[c]!));
  const cut = byLabel.map((d) => {
    if (d.length < 2) return -Infinity;
    const med = median(d);
    const mad = 1.4826 * median(d.map((x) => Math.abs(x - med)));
    return med - nmads * mad;
  });
  const pruned = new Uint8Array(call.length);
  call.forEach((l, c) => (pruned[c] = delta[c]! < cut[l]! ? 1 : 0));
  return pruned;
}
