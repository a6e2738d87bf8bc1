import type { RenderMode } from './renderer';
import { packColour, valuePriority } from './splat';

/** Grey of points without a colouring (and of codes beyond the palette). */
export const NEUTRAL = '#8c8c8c';

/** Per-point colour state of the CPU renderer (arrays of the embedding's length, rewritten in place). */
export interface PointColours {
  /** packed RGBA per point */
  colour: Uint32Array;
  /** draw priority per point (splat.ts) */
  pri: Uint8Array;
  /** scratch for `above`, grown to the point count on the first continuous colouring */
  aboveBuf: Uint32Array;
  /** ascending indices of the points whose priority is not the base priority 1 (a prefix of aboveBuf) */
  above: Uint32Array;
  /** the colour every base-priority point has, when they share one; else null */
  baseColour: number | null;
}

/**
 * Writes the colour and priority of every point: `values` are category codes (categorical, `colours`
 * = palette) or raw values scaled by `1 / max` into [0, 1] (continuous, `colours` = ramp; higher
 * values get higher priorities). With `nz` (continuous: the ascending indices of the only non-zero
 * values) only those points are visited after two fills, so a gene recolour costs O(non-zeros).
 * Also notes the points above the base priority and whether the base points share one colour, which
 * lets a frame draw the base layer once per camera and then only those points (splat.ts).
 */
export function colourPoints(
  s: PointColours,
  mode: RenderMode,
  values: ArrayLike<number> | null,
  colours: string[],
  max = 1,
  nz: Uint32Array | null = null,
): void {
  const { colour, pri } = s;
  const n = colour.length;
  const packed = Uint32Array.from(colours.length > 0 ? colours : [NEUTRAL], packColour);
  const last = packed.length - 1;
  const neutral = packColour(NEUTRAL);
  s.above = s.aboveBuf.subarray(0, 0);
  if (values && mode === 'categorical') {
    const first = packed[Math.min(last, values[0] ?? 0)] ?? neutral;
    let uniform = true;
    for (let i = 0; i < n; i += 1) {
      const c = packed[Math.min(last, values[i]!)] ?? neutral;
      colour[i] = c;
      if (c !== first) uniform = false;
    }
    pri.fill(1);
    s.baseColour = uniform ? first : null;
  } else if (values && mode === 'continuous') {
    const inv = max > 0 ? 1 / max : 0;
    if (s.aboveBuf.length !== n) s.aboveBuf = new Uint32Array(n);
    const above = s.aboveBuf;
    const zero = packed[0]!;
    let count = 0;
    let uniform = true;
    if (nz) {
      colour.fill(zero);
      pri.fill(1);
    }
    const m = nz ? nz.length : n;
    for (let k = 0; k < m; k += 1) {
      const i = nz ? nz[k]! : k;
      const w = Math.min(1, values[i]! * inv);
      const c = packed[Math.round(w * last)] ?? neutral;
      const q = valuePriority(w);
      colour[i] = c;
      pri[i] = q;
      if (q !== 1) above[count++] = i;
      else if (c !== zero) uniform = false;
    }
    s.above = above.subarray(0, count);
    s.baseColour = uniform ? zero : null;
  } else {
    colour.fill(neutral);
    pri.fill(1);
    s.baseColour = neutral;
  }
}
