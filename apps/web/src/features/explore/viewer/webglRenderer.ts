import createREGL from 'regl';
import { hexToRgb } from './colorSpace';
import { clipTransform, type ViewState } from './camera';
import type { PointRenderer, RenderMode } from './renderer';

/**
 * WebGL point renderer (regl gl.POINTS) for browsers with a real GPU. Positions are uploaded once
 * into static buffers; a recolour uploads only one RGBA byte per channel per point (colours resolved
 * on the CPU, no texture fetch in the vertex shader) plus a depth value so expressing cells draw on
 * top without sorting. Pan/zoom only change two uniforms. Above LOD_MIN_CELLS cells, frames drawn
 * while the camera moves use a random subset (separate buffers, a random permutation, so any prefix
 * is a random sample) whose size adapts to the measured frame interval; the full set follows once the
 * motion pauses. Under software WebGL (SwiftShader) a 1M-point draw takes ~1 s: rendererChoice.ts
 * picks the CPU splat renderer there.
 */

/** Largest random subset kept for frames drawn while the camera moves. */
export const LOD_POINTS = 250_000;
/** Datasets above this many cells get a motion subset; smaller ones always draw everything. */
export const LOD_MIN_CELLS = 50_000;
const LOD_FLOOR = 10_000;
const NEUTRAL: [number, number, number] = [140, 140, 140];

const VERT = `
precision highp float;
attribute float ax;
attribute float ay;
attribute float adepth;
attribute vec4 acol;
attribute float asel;
uniform vec2 s;
uniform vec2 t;
uniform float pointSize;
uniform float hasSel;
varying vec4 vColor;
void main() {
  float z = 0.9 - 0.8 * adepth;
  vec3 c = acol.rgb;
  if (hasSel > 0.5) {
    if (asel > 0.5) { z = 0.05; } else { c = mix(c, vec3(0.88), 0.75); z = 0.95; }
  }
  vColor = vec4(c, 1.0);
  gl_Position = vec4(ax * s.x + t.x, ay * s.y + t.y, z, 1.0);
  gl_PointSize = pointSize;
}`;

const FRAG = `
precision mediump float;
varying vec4 vColor;
uniform float roundPoints;
void main() {
  if (roundPoints > 0.5) {
    vec2 d = gl_PointCoord - 0.5;
    if (dot(d, d) > 0.25) discard;
  }
  gl_FragColor = vColor;
}`;

interface Props {
  s: [number, number];
  t: [number, number];
  pointSize: number;
  hasSel: number;
  roundPoints: number;
  count: number;
}

/** One set of per-point buffers (the full set, or the LOD subset). */
class PointSet {
  readonly x: createREGL.Buffer;
  readonly y: createREGL.Buffer;
  readonly depth: createREGL.Buffer;
  readonly col: createREGL.Buffer;
  readonly sel: createREGL.Buffer;
  count = 0;
  readonly draw: createREGL.DrawCommand;

  constructor(regl: createREGL.Regl) {
    this.x = regl.buffer({ usage: 'static', type: 'float', length: 4 });
    this.y = regl.buffer({ usage: 'static', type: 'float', length: 4 });
    this.depth = regl.buffer({ usage: 'dynamic', type: 'float', length: 4 });
    this.col = regl.buffer({ usage: 'dynamic', type: 'uint8', length: 4 });
    this.sel = regl.buffer({ usage: 'dynamic', type: 'uint8', length: 1 });
    this.draw = regl<Record<string, unknown>, Record<string, unknown>, Props>({
      vert: VERT,
      frag: FRAG,
      attributes: {
        ax: { buffer: this.x, size: 1 },
        ay: { buffer: this.y, size: 1 },
        adepth: { buffer: this.depth, size: 1 },
        acol: { buffer: this.col, size: 4, normalized: true },
        asel: { buffer: this.sel, size: 1 },
      },
      uniforms: {
        s: regl.prop<Props, 's'>('s'),
        t: regl.prop<Props, 't'>('t'),
        pointSize: regl.prop<Props, 'pointSize'>('pointSize'),
        hasSel: regl.prop<Props, 'hasSel'>('hasSel'),
        roundPoints: regl.prop<Props, 'roundPoints'>('roundPoints'),
      },
      depth: { enable: true, func: 'lequal' },
      primitive: 'points',
      count: regl.prop<Props, 'count'>('count'),
    });
  }

  setPositions(x: Float32Array, y: Float32Array): void {
    this.count = x.length;
    this.x({ data: x, usage: 'static' });
    this.y({ data: y, usage: 'static' });
    this.depth({ data: new Float32Array(this.count), usage: 'dynamic' });
    this.col({ data: new Uint8Array(this.count * 4).fill(140), usage: 'dynamic', type: 'uint8' });
    this.sel({ data: new Uint8Array(this.count), usage: 'dynamic', type: 'uint8' });
  }
}

function gather<T extends Float32Array | Uint8Array>(
  src: T,
  idx: Uint32Array,
  width: number,
  make: (n: number) => T,
): T {
  const out = make(idx.length * width);
  for (let k = 0; k < idx.length; k += 1)
    for (let c = 0; c < width; c += 1) out[k * width + c] = src[idx[k]! * width + c]!;
  return out;
}

/** A random subset of `size` of `n` indices (partial Fisher–Yates: any prefix is a random sample). */
function randomSubset(n: number, size: number): Uint32Array {
  const perm = new Uint32Array(n);
  for (let i = 0; i < n; i += 1) perm[i] = i;
  for (let i = 0; i < size; i += 1) {
    const j = i + Math.floor(Math.random() * (n - i));
    const tmp = perm[i]!;
    perm[i] = perm[j]!;
    perm[j] = tmp;
  }
  return perm.slice(0, size);
}

export class WebglRenderer implements PointRenderer {
  readonly kind = 'webgl' as const;
  private readonly regl: createREGL.Regl;
  private readonly full: PointSet;
  private readonly lod: PointSet;
  private lodIdx: Uint32Array | null = null;
  private hasSel = false;
  /** points drawn per moving frame (adapted by `adaptMoving`) */
  private lodCount = 0;

  constructor(readonly canvas: HTMLCanvasElement) {
    this.regl = createREGL({
      canvas,
      attributes: { antialias: false, depth: true, preserveDrawingBuffer: false },
    });
    this.full = new PointSet(this.regl);
    this.lod = new PointSet(this.regl);
  }

  setPositions(x: Float32Array, y: Float32Array): void {
    this.full.setPositions(x, y);
    this.hasSel = false;
    this.lodIdx = null;
    this.lod.count = 0;
    this.lodCount = 0;
    if (x.length > LOD_MIN_CELLS) {
      const size = Math.min(LOD_POINTS, x.length);
      this.lodIdx = randomSubset(x.length, size);
      this.lodCount = Math.min(size, 100_000);
      this.lod.setPositions(
        gather(x, this.lodIdx, 1, (n) => new Float32Array(n)),
        gather(y, this.lodIdx, 1, (n) => new Float32Array(n)),
      );
    }
  }

  setColours(mode: RenderMode, values: ArrayLike<number> | null, colours: string[], max = 1): void {
    const n = this.full.count;
    const rgb = colours.map(hexToRgb);
    const col = new Uint8Array(n * 4);
    const depth = new Float32Array(n);
    const last = rgb.length - 1;
    const inv = max > 0 ? 1 / max : 0;
    for (let i = 0; i < n; i += 1) {
      let c = NEUTRAL;
      if (values && mode === 'categorical') c = rgb[Math.min(last, values[i]!)] ?? c;
      else if (values && mode === 'continuous') {
        const w = Math.min(1, values[i]! * inv);
        c = rgb[Math.round(w * last)] ?? c;
        depth[i] = w;
      }
      col[4 * i] = c[0];
      col[4 * i + 1] = c[1];
      col[4 * i + 2] = c[2];
      col[4 * i + 3] = 255;
    }
    this.full.col({ data: col, usage: 'dynamic', type: 'uint8' });
    this.full.depth({ data: depth, usage: 'dynamic' });
    if (this.lodIdx) {
      this.lod.col({
        data: gather(col, this.lodIdx, 4, (k) => new Uint8Array(k)),
        usage: 'dynamic',
        type: 'uint8',
      });
      this.lod.depth({ data: gather(depth, this.lodIdx, 1, (k) => new Float32Array(k)), usage: 'dynamic' });
    }
  }

  setSelection(mask: Uint8Array | null): void {
    this.hasSel = mask !== null && mask.length === this.full.count;
    if (!mask || !this.hasSel) return;
    this.full.sel({ data: mask, usage: 'dynamic', type: 'uint8' });
    if (this.lodIdx)
      this.lod.sel({
        data: gather(mask, this.lodIdx, 1, (k) => new Uint8Array(k)),
        usage: 'dynamic',
        type: 'uint8',
      });
  }

  private props(view: ViewState, pointSize: number, count: number): Props {
    const { s, t } = clipTransform(view);
    return { s, t, pointSize, hasSel: this.hasSel ? 1 : 0, roundPoints: pointSize > 2.5 ? 1 : 0, count };
  }

  /** `moving`: draw the random LOD subset only (pan/zoom in progress on a large dataset). */
  render(view: ViewState, pointSize: number, moving = false): void {
    this.regl.poll();
    this.regl.clear({ color: [1, 1, 1, 1], depth: 1 });
    if (moving && this.lod.count > 0) this.lod.draw(this.props(view, pointSize, this.lodCount));
    else if (this.full.count > 0) this.full.draw(this.props(view, pointSize, this.full.count));
  }

  movingPoints(): number {
    return this.lod.count > 0 ? this.lodCount : 0;
  }

  /** Adapts the moving-frame subset to the interval between moving frames (aim: 25–40 ms). */
  adaptMoving(frameIntervalMs: number): void {
    if (this.lod.count === 0) return;
    if (frameIntervalMs > 40) this.lodCount = Math.max(LOD_FLOOR, Math.round(this.lodCount * 0.6));
    else if (frameIntervalMs < 25) this.lodCount = Math.min(this.lod.count, Math.round(this.lodCount * 1.25));
  }

  readImage(view: ViewState, pointSize: number, scale: number): ImageData {
    const max = this.regl.limits.maxRenderbufferSize;
    const k = Math.max(1, Math.min(scale, Math.floor(max / Math.max(view.width, view.height))));
    const width = Math.round(view.width * k);
    const height = Math.round(view.height * k);
    const fbo = this.regl.framebuffer({ width, height, depth: true });
    let pixels: Uint8Array = new Uint8Array(0);
    fbo.use(() => {
      this.regl.clear({ color: [1, 1, 1, 1], depth: 1 });
      this.full.draw(this.props({ ...view, width, height }, pointSize * k, this.full.count));
      pixels = this.regl.read({ framebuffer: fbo }) as Uint8Array;
    });
    fbo.destroy();
    const out = new ImageData(width, height);
    const row = width * 4;
    for (let yy = 0; yy < height; yy += 1)
      out.data.set(pixels.subarray((height - 1 - yy) * row, (height - yy) * row), yy * row);
    return out;
  }

  destroy(): void {
    this.regl.destroy();
  }
}
