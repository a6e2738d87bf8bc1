import { hexToRgb } from './colorSpace';
import type { ViewState } from './camera';

/**
 * CPU point splatting: the embedding viewer's rasterizer. Each point writes its packed RGBA colour
 * into a pixel buffer where its priority is at least the one already there (later points win ties),
 * which gives the draw order the old WebGL depth test gave: expressing cells over zeros, the
 * selection over everything, dimmed unselected cells under everything. A point of `size` device
 * pixels covers the pixels whose centres lie inside its square (size ≤ 2.5) or disc (larger), as a
 * GL point sprite would. Why not WebGL: without a GPU (SwiftShader) one gl.POINTS draw of a million
 * points took 0.8–1.6 s on the 2-core bench machine, this pass 50–200 ms; with a GPU both are fast.
 */

/** Priority of a dimmed (unselected) point and of a selected point; ordinary points use 1..254. */
export const PRI_DIMMED = 0;
export const PRI_SELECTED = 255;
const PRI_MAX_VALUE = 254;

export interface SplatPoints {
  x: Float32Array;
  y: Float32Array;
  /** packed RGBA (little-endian: 0xAABBGGRR) per point */
  colour: Uint32Array;
  /** draw priority per point (1..254) */
  pri: Uint8Array;
  /** 1 = selected; null = no selection */
  sel: Uint8Array | null;
  /** ascending indices of every point whose priority is above 1 (optional: else all are scanned) */
  above?: Uint32Array | null;
  /** the colour every point of priority 1 has, when they share one (optional) */
  baseColour?: number | null;
}

export interface SplatTarget {
  width: number;
  height: number;
  pixels: Uint32Array;
  /** priority of what each pixel shows */
  depth: Uint8Array;
}

/** Pixel = data · s + b per axis (device pixels, origin top-left, y down). */
export interface PixelTransform {
  sx: number;
  sy: number;
  bx: number;
  by: number;
}

const WHITE = 0xffffffff;

/** #RRGGBB → packed opaque RGBA for a little-endian Uint32 view of ImageData. */
export function packColour(hex: string): number {
  const [r, g, b] = hexToRgb(hex);
  return (0xff000000 | (b << 16) | (g << 8) | r) >>> 0;
}

/** The selection's dimming of an unselected point: mix(colour, grey 0.88, 0.75). */
export function dimColour(c: number): number {
  const grey = 0.88 * 255 * 0.75;
  const r = Math.round((c & 255) * 0.25 + grey);
  const g = Math.round(((c >>> 8) & 255) * 0.25 + grey);
  const b = Math.round(((c >>> 16) & 255) * 0.25 + grey);
  return (0xff000000 | (b << 16) | (g << 8) | r) >>> 0;
}

/** Camera → pixel transform for a target of width × height device pixels. */
export function pixelTransform(v: ViewState, width: number, height: number): PixelTransform {
  const unit = Math.min(width, height) / 2;
  return {
    sx: v.scale * unit,
    sy: -v.scale * unit,
    bx: width / 2 + v.tx * unit,
    by: height / 2 - v.ty * unit,
  };
}

/**
 * Affine map (k, ox, oy) taking a frame rendered with `from` to where its pixels belong under `to`:
 * newPixel = k · oldPixel + o. Used to show the last full frame while the camera moves.
 */
export function reprojection(
  from: PixelTransform,
  to: PixelTransform,
): { k: number; ox: number; oy: number } {
  const k = to.sx / from.sx;
  return { k, ox: to.bx - k * from.bx, oy: to.by - k * from.by };
}

export function createTarget(width: number, height: number, pixels?: Uint32Array): SplatTarget {
  return {
    width,
    height,
    pixels: pixels ?? new Uint32Array(width * height),
    depth: new Uint8Array(width * height),
  };
}

/** Priority of a continuous value in [0, 1] (higher values draw on top). */
export function valuePriority(w: number): number {
  return 1 + Math.round(Math.min(1, Math.max(0, w)) * (PRI_MAX_VALUE - 1));
}

/**
 * Which points a pass draws: all (priority test, selection aware), base priority only (plain writes),
 * the rest (priority test), or all in one fixed colour (plain writes: the base layer).
 */
type Pass = 0 | 1 | 2 | 3;
const ALL: Pass = 0;
const BASE: Pass = 1;
const ABOVE: Pass = 2;
const FIXED: Pass = 3;

/**
 * The base layer of the last frame (every point in the shared base colour) and what it was drawn
 * with: a recolour at the same camera copies it and draws only the points above the base priority.
 */
export class BaseLayerCache {
  pixels = new Uint32Array(0);
  key = '';
  x: Float32Array | null = null;
  y: Float32Array | null = null;
}

/**
 * Clears the target to white and draws every point. Without a selection, points of the base priority
 * (1: categorical colours, zero expression) go first as plain writes and the rest follow with the
 * priority test: the same picture as one tested pass, with less memory traffic for the majority.
 * When every base point has one colour (`p.baseColour`), the base layer is every point in that colour
 * (the points above it are drawn over anyway), kept in `cache` for the next frame at the same camera;
 * `p.above` lets the second pass visit only the points above the base priority.
 */
export function splat(
  target: SplatTarget,
  p: SplatPoints,
  tr: PixelTransform,
  size: number,
  cache?: BaseLayerCache,
): void {
  target.depth.fill(0);
  if (p.sel !== null) {
    target.pixels.fill(WHITE);
    draw(target, p, tr, size, ALL, null, 0);
    return;
  }
  const base = p.baseColour ?? null;
  if (base === null) {
    target.pixels.fill(WHITE);
    draw(target, p, tr, size, BASE, null, 0);
  } else {
    const key = baseLayerKey(target.width, target.height, tr, size, base);
    if (cache && cache.key === key && cache.x === p.x && cache.y === p.y) target.pixels.set(cache.pixels);
    else {
      target.pixels.fill(WHITE);
      draw(target, p, tr, size, FIXED, null, base);
      if (cache) {
        if (cache.pixels.length !== target.pixels.length)
          cache.pixels = new Uint32Array(target.pixels.length);
        cache.pixels.set(target.pixels);
        Object.assign(cache, { key, x: p.x, y: p.y });
      }
    }
  }
  draw(target, p, tr, size, ABOVE, p.above ?? null, 0);
}

/** What a base layer was drawn with: a frame of another size, camera, point size or colour needs its own. */
export function baseLayerKey(
  width: number,
  height: number,
  tr: PixelTransform,
  size: number,
  colour: number,
): string {
  return `${width}x${height} ${tr.sx} ${tr.sy} ${tr.bx} ${tr.by} ${size} ${colour}`;
}

/**
 * Draws points from..to−1 in one colour as plain writes (no priority test), onto a target cleared
 * to white by `clear`: the base layer of `splat`, drawn in pieces (e.g. as the positions download).
 */
export function splatFixed(
  target: SplatTarget,
  x: Float32Array,
  y: Float32Array,
  from: number,
  to: number,
  tr: PixelTransform,
  size: number,
  colour: number,
): void {
  const none = new Uint8Array(0);
  draw(
    target,
    { x, y, colour: new Uint32Array(0), pri: none, sel: null },
    tr,
    size,
    FIXED,
    null,
    colour,
    from,
    to,
  );
}

/** Clears a target to white. */
export function clear(target: SplatTarget): void {
  target.pixels.fill(WHITE);
}

/** Draws the points of `pass`, all of them (or from..to−1) or those listed in `list` (ascending indices). */
function draw(
  target: SplatTarget,
  p: SplatPoints,
  tr: PixelTransform,
  size: number,
  pass: Pass,
  list: Uint32Array | null,
  fixed: number,
  from = 0,
  to = list ? list.length : p.x.length,
): void {
  const { width: W, height: H, pixels, depth } = target;
  const { x, y, colour, pri, sel } = p;
  const half = size / 2;
  const round = size > 2.5;
  const r2 = half * half;
  const { sx, sy, bx, by } = tr;
  // pixel i is covered when its centre i + 0.5 lies in [c − half, c + half)
  const lo = -half - 0.5;
  const hi = half - 0.5;
  const plain = pass === BASE || pass === FIXED;
  for (let k = from; k < to; k += 1) {
    const i = list ? list[k]! : k;
    let q = pass === FIXED ? 1 : pri[i]!;
    if ((pass === BASE || pass === ABOVE) && (q === 1) !== plain) continue;
    const px = x[i]! * sx + bx;
    const py = y[i]! * sy + by;
    let x0 = Math.ceil(px + lo);
    let x1 = Math.ceil(px + hi);
    let y0 = Math.ceil(py + lo);
    let y1 = Math.ceil(py + hi);
    if (x1 <= 0 || y1 <= 0 || x0 >= W || y0 >= H) continue;
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > W) x1 = W;
    if (y1 > H) y1 = H;
    let c = pass === FIXED ? fixed : colour[i]!;
    if (sel !== null) {
      if (sel[i] === 1) q = PRI_SELECTED;
      else {
        q = PRI_DIMMED;
        c = dimColour(c);
      }
    }
    for (let yy = y0; yy < y1; yy += 1) {
      const row = yy * W;
      const dy = yy + 0.5 - py;
      for (let xx = x0; xx < x1; xx += 1) {
        if (round) {
          const dx = xx + 0.5 - px;
          if (dx * dx + dy * dy > r2) continue;
        }
        const at = row + xx;
        if (plain) pixels[at] = c;
        else if (q >= depth[at]!) {
          depth[at] = q;
          pixels[at] = c;
        }
      }
    }
  }
}
