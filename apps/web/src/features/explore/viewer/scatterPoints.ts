/** Pure helpers turning decoded columns into what the embedding scatter draws. */

export type Colouring =
  | { kind: 'categorical'; codes: Uint32Array; colours: string[] }
  /** `nz`: when given, the ascending indices of every non-zero value (the renderer then recolours in O(nz)) */
  | { kind: 'continuous'; values: Float32Array; max: number; nz?: Uint32Array | null }
  | { kind: 'none' };

/** Rotates a 3D embedding (yaw about y, then pitch about x) and keeps the screen x/y. */
export function project3D(
  x: Float32Array,
  y: Float32Array,
  z: Float32Array,
  yawDeg: number,
  pitchDeg: number,
): { x: Float32Array; y: Float32Array } {
  const a = (yawDeg * Math.PI) / 180;
  const b = (pitchDeg * Math.PI) / 180;
  const ca = Math.cos(a);
  const sa = Math.sin(a);
  const cb = Math.cos(b);
  const sb = Math.sin(b);
  const n = x.length;
  const px = new Float32Array(n);
  const py = new Float32Array(n);
  for (let i = 0; i < n; i += 1) {
    const x1 = x[i]! * ca + z[i]! * sa;
    const z1 = -x[i]! * sa + z[i]! * ca;
    px[i] = x1 * 0.7;
    py[i] = (y[i]! * cb - z1 * sb) * 0.7;
  }
  return { x: px, y: py };
}

/** Mean position of each category (label anchor for "labels on cluster"). */
export function categoryCentroids(
  x: Float32Array,
  y: Float32Array,
  codes: Uint32Array,
  nLabels: number,
): Array<{ x: number; y: number; n: number }> {
  const sx = new Float64Array(nLabels);
  const sy = new Float64Array(nLabels);
  const n = new Float64Array(nLabels);
  for (let i = 0; i < codes.length; i += 1) {
    const c = codes[i]!;
    sx[c]! += x[i]!;
    sy[c]! += y[i]!;
    n[c]! += 1;
  }
  return Array.from(n, (k, c) => ({ x: k > 0 ? sx[c]! / k : 0, y: k > 0 ? sy[c]! / k : 0, n: k }));
}

/** Point size in pixels so a million cells do not become a blob and 3k cells are still visible. */
export function defaultPointSize(nCells: number): number {
  if (nCells > 500_000) return 1.5;
  if (nCells > 100_000) return 2;
  if (nCells > 20_000) return 3;
  return 5;
}
