import type { TsneAffinities } from './affinities';

/**
 * The affinities as compressed rows (each undirected edge once, under one of its ends): the
 * edges of row i are start[i] … start[i + 1] − 1, with their other end and pᵢⱼ.
 */
export interface AffinityRows {
  start: Int32Array;
  cols: Int32Array;
  p: Float64Array;
}

/**
 * Compressed rows of an edge list (a counting sort by the first end; stable). Edges already in row
 * order (as tsneAffinities gives them) are not copied: the rows share `cols` and `p` with `aff`
 * (neither is modified: reorderRows makes new arrays).
 */
export function affinityRows(aff: TsneAffinities): AffinityRows {
  const n = aff.nNodes;
  const m = aff.rows.length;
  const start = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) start[aff.rows[e] + 1]++;
  for (let i = 0; i < n; i++) start[i + 1] += start[i];
  let sorted = true;
  for (let e = 1; e < m && sorted; e++) sorted = aff.rows[e - 1] <= aff.rows[e];
  if (sorted) return { start, cols: aff.cols, p: aff.p };
  const next = start.slice(0, n);
  const cols = new Int32Array(m);
  const p = new Float64Array(m);
  for (let e = 0; e < m; e++) {
    const at = next[aff.rows[e]]++;
    cols[at] = aff.cols[e];
    p[at] = aff.p[e];
  }
  return { start, cols, p };
}

/** Cells per axis of the grid whose Z-order gives the points' order (2^8: 65,536 cells). */
const ORDER_BITS = 8;

/**
 * The points in Z-order (Morton order) of their cell on a 2^8 × 2^8 grid over the bounding box of
 * the first two coordinates, ties in index order: `order[new] = old`. Points near each other in
 * the layout — and so, once the layout has formed, most affinity neighbours — then sit near each
 * other in memory, which keeps the attraction's and the interpolation's memory accesses local.
 * Deterministic (a counting sort).
 */
export function spatialOrder(y: Float64Array, n: number, dims: number): Int32Array {
  const side = 1 << ORDER_BITS;
  const lo = [Infinity, Infinity];
  const hi = [-Infinity, -Infinity];
  for (let i = 0; i < n; i++)
    for (let a = 0; a < 2; a++) {
      const v = y[i * dims + a];
      if (v < lo[a]) lo[a] = v;
      if (v > hi[a]) hi[a] = v;
    }
  const scale = lo.map((l, a) => (hi[a] > l ? (side - 1e-9) / (hi[a] - l) : 0));
  const spread = new Int32Array(side); // the bits of a cell coordinate spread to even positions
  for (let c = 0; c < side; c++) {
    let s = 0;
    for (let b = 0; b < ORDER_BITS; b++) s |= ((c >> b) & 1) << (2 * b);
    spread[c] = s;
  }
  const keys = new Int32Array(n);
  const count = new Int32Array(side * side + 1);
  for (let i = 0; i < n; i++) {
    const cx = Math.floor((y[i * dims] - lo[0]) * scale[0]);
    const cy = Math.floor((y[i * dims + 1] - lo[1]) * scale[1]);
    keys[i] = spread[cx] | (spread[cy] << 1);
    count[keys[i] + 1]++;
  }
  for (let k = 0; k < side * side; k++) count[k + 1] += count[k];
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[count[keys[i]]++] = i;
  return order;
}

/**
 * Renumbers the points: row `new` of the result is row order[new] of `rows`, every other end
 * mapped to its new number (`rank[old] = new`).
 */
export function reorderRows(rows: AffinityRows, order: Int32Array, rank: Int32Array): AffinityRows {
  const n = order.length;
  const start = new Int32Array(n + 1);
  const cols = new Int32Array(rows.cols.length);
  const p = new Float64Array(rows.p.length);
  let at = 0;
  for (let i = 0; i < n; i++) {
    const old = order[i];
    for (let e = rows.start[old]; e < rows.start[old + 1]; e++) {
      cols[at] = rank[rows.cols[e]];
      p[at++] = rows.p[e];
    }
    start[i + 1] = at;
  }
  return { start, cols, p };
}

/** Rows of a row-major n × dims array permuted in place (`order[new] = old`), with a scratch copy. */
export function permuteRows(v: Float64Array, order: Int32Array, dims: number, scratch: Float64Array): void {
  scratch.set(v);
  for (let i = 0; i < order.length; i++)
    for (let a = 0; a < dims; a++) v[i * dims + a] = scratch[order[i] * dims + a];
}
