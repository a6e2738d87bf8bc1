/**
 * Uniform grid over normalized [-1, 1]² positions (counting sort, O(n)) for hover and click
 * picking among millions of points without a tree.
 */
export interface SpatialGrid {
  res: number;
  start: Uint32Array; // res² + 1 offsets into `order`
  order: Uint32Array; // point indices sorted by cell
}

const cellOf = (v: number, res: number) => Math.min(res - 1, Math.max(0, Math.floor(((v + 1) / 2) * res)));

export function buildGrid(x: Float32Array, y: Float32Array, res = 256): SpatialGrid {
  const n = x.length;
  const cells = new Uint32Array(n);
  const start = new Uint32Array(res * res + 1);
  for (let i = 0; i < n; i += 1) {
    const c = cellOf(y[i]!, res) * res + cellOf(x[i]!, res);
    cells[i] = c;
    start[c + 1]! += 1;
  }
  for (let c = 0; c < res * res; c += 1) start[c + 1]! += start[c]!;
  const fill = start.slice(0, res * res);
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i += 1) order[fill[cells[i]!]!++] = i;
  return { res, start, order };
}

/** Index of the nearest point within `radius` (data units) of (px, py), or -1. */
export function nearest(
  g: SpatialGrid,
  x: Float32Array,
  y: Float32Array,
  px: number,
  py: number,
  radius: number,
): number {
  const r = Math.max(1, Math.ceil((radius / 2) * g.res));
  const cx = cellOf(px, g.res);
  const cy = cellOf(py, g.res);
  let best = -1;
  let bestD = radius * radius;
  for (let gy = Math.max(0, cy - r); gy <= Math.min(g.res - 1, cy + r); gy += 1) {
    for (let gx = Math.max(0, cx - r); gx <= Math.min(g.res - 1, cx + r); gx += 1) {
      const c = gy * g.res + gx;
      for (let k = g.start[c]!; k < g.start[c + 1]!; k += 1) {
        const i = g.order[k]!;
        const d = (x[i]! - px) ** 2 + (y[i]! - py) ** 2;
        if (d <= bestD) {
          bestD = d;
          best = i;
        }
      }
    }
  }
  return best;
}
