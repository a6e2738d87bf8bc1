import createREGL from 'regl';
import { hexToRgb } from './colorSpace';
import { clipTransform, type ViewState } from './camera';

/**
 * Minimal WebGL point renderer for millions of cells (regl). Positions are uploaded once; a recolour
 * replaces only the per-point value buffer (`subdata`) and the palette texture; pan/zoom changes two
 * uniforms. Continuous values also drive depth so expressing cells draw on top without sorting.
 */
export type RenderMode = 'categorical' | 'continuous' | 'none';

/** Above this many cells, pan/zoom frames draw a random subset of this size; the full set follows. */
export const LOD_POINTS = 250_000;

const VERT = `
precision highp float;
attribute float ax;
attribute float ay;
attribute float aval;
attribute float asel;
uniform vec2 s;
uniform vec2 t;
uniform float pointSize;
uniform float mode;
uniform float paletteSize;
uniform float hasSel;
uniform sampler2D palette;
varying vec4 vColor;
void main() {
  float z = 0.5;
  vec4 c = vec4(0.55, 0.55, 0.55, 1.0);
  if (mode < 0.5) {
    c = texture2D(palette, vec2((aval + 0.5) / paletteSize, 0.5));
  } else if (mode < 1.5) {
    c = texture2D(palette, vec2((aval * (paletteSize - 1.0) + 0.5) / paletteSize, 0.5));
    z = 0.9 - 0.8 * aval;
  }
  if (hasSel > 0.5) {
    if (asel > 0.5) { z = 0.05; } else { c = vec4(mix(c.rgb, vec3(0.88), 0.75), 1.0); z = 0.95; }
  }
  vColor = c;
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
  mode: number;
  paletteSize: number;
  hasSel: number;
  roundPoints: number;
  count: number;
}

export class PointRenderer {
  private readonly regl: createREGL.Regl;
  private readonly bx: createREGL.Buffer;
  private readonly by: createREGL.Buffer;
  private readonly bval: createREGL.Buffer;
  private readonly bsel: createREGL.Buffer;
  private readonly palette: createREGL.Texture2D;
  private readonly drawPoints: createREGL.DrawCommand;
  private count = 0;
  private mode: RenderMode = 'none';
  private paletteSize = 1;
  private hasSel = false;
  private readonly lod: createREGL.Elements | null;
  private lodCount = 0;
  private readonly drawLod: createREGL.DrawCommand | null;

  constructor(readonly canvas: HTMLCanvasElement) {
    this.regl = createREGL({ canvas, attributes: { antialias: false, depth: true, preserveDrawingBuffer: false }, optionalExtensions: ['OES_element_index_uint'] });
    this.bx = this.regl.buffer({ usage: 'static', type: 'float', length: 4 });
    this.by = this.regl.buffer({ usage: 'static', type: 'float', length: 4 });
    this.bval = this.regl.buffer({ usage: 'dynamic', type: 'float', length: 4 });
    this.bsel = this.regl.buffer({ usage: 'dynamic', type: 'uint8', length: 1 });
    this.palette = this.regl.texture({ width: 1, height: 1, data: new Uint8Array([140, 140, 140, 255]), min: 'nearest', mag: 'nearest' });
    const spec: createREGL.DrawConfig<Record<string, unknown>, Record<string, unknown>, Props> = {
      vert: VERT,
      frag: FRAG,
      attributes: {
        ax: { buffer: this.bx, size: 1 },
        ay: { buffer: this.by, size: 1 },
        aval: { buffer: this.bval, size: 1 },
        asel: { buffer: this.bsel, size: 1, normalized: false },
      },
      uniforms: {
        s: this.regl.prop<Props, 's'>('s'),
        t: this.regl.prop<Props, 't'>('t'),
        pointSize: this.regl.prop<Props, 'pointSize'>('pointSize'),
        mode: this.regl.prop<Props, 'mode'>('mode'),
        paletteSize: this.regl.prop<Props, 'paletteSize'>('paletteSize'),
        hasSel: this.regl.prop<Props, 'hasSel'>('hasSel'),
        roundPoints: this.regl.prop<Props, 'roundPoints'>('roundPoints'),
        palette: this.palette,
      },
      depth: { enable: true, func: 'lequal' },
      primitive: 'points' as const,
      count: this.regl.prop<Props, 'count'>('count'),
    };
    this.drawPoints = this.regl<Record<string, unknown>, Record<string, unknown>, Props>(spec);
    const canIndex = this.regl.hasExtension('OES_element_index_uint');
    this.lod = canIndex ? this.regl.elements({ primitive: 'points', type: 'uint32', data: new Uint32Array(1) }) : null;
    this.drawLod = this.lod ? this.regl<Record<string, unknown>, Record<string, unknown>, Props>({ ...spec, elements: this.lod }) : null;
  }

  setPositions(x: Float32Array, y: Float32Array): void {
    this.count = x.length;
    this.bx({ data: x, usage: 'static' });
    this.by({ data: y, usage: 'static' });
    this.bval({ data: new Float32Array(this.count), usage: 'dynamic' });
    this.bsel({ data: new Uint8Array(this.count), usage: 'dynamic', type: 'uint8' });
    this.hasSel = false;
    this.lodCount = 0;
    if (this.lod && this.count > LOD_POINTS) {
      // random subset drawn while the user pans/zooms (partial Fisher–Yates)
      const perm = new Uint32Array(this.count);
      for (let i = 0; i < this.count; i += 1) perm[i] = i;
      for (let i = 0; i < LOD_POINTS; i += 1) {
        const j = i + Math.floor(Math.random() * (this.count - i));
        const tmp = perm[i]!;
        perm[i] = perm[j]!;
        perm[j] = tmp;
      }
      this.lod({ primitive: 'points', type: 'uint32', data: perm.subarray(0, LOD_POINTS) });
      this.lodCount = LOD_POINTS;
    }
  }

  /** `values`: category codes (categorical) or values in [0, 1] (continuous); `colours`: palette / ramp. */
  setColours(mode: RenderMode, values: Float32Array | null, colours: string[]): void {
    this.mode = mode;
    // re-specify (orphan) instead of subdata: avoids a stall on a buffer the previous frame still uses
    if (values && values.length === this.count) this.bval({ data: values, usage: 'dynamic' });
    const n = Math.max(1, Math.min(4096, colours.length));
    const data = new Uint8Array(n * 4);
    for (let i = 0; i < n; i += 1) {
      const [r, g, b] = hexToRgb(colours[i] ?? '#8c8c8c');
      data.set([r, g, b, 255], i * 4);
    }
    this.palette({ width: n, height: 1, data, min: 'nearest', mag: 'nearest' });
    this.paletteSize = n;
  }

  setSelection(mask: Uint8Array | null): void {
    this.hasSel = mask !== null;
    if (mask && mask.length === this.count) this.bsel.subdata(mask);
  }

  private props(view: ViewState, pointSize: number): Props {
    const { s, t } = clipTransform(view);
    return {
      s,
      t,
      pointSize,
      mode: this.mode === 'categorical' ? 0 : this.mode === 'continuous' ? 1 : 2,
      paletteSize: this.paletteSize,
      hasSel: this.hasSel ? 1 : 0,
      roundPoints: pointSize > 2.5 ? 1 : 0,
      count: this.count,
    };
  }

  /** `interactive`: draw the random LOD subset only (pan/zoom in progress on a huge dataset). */
  render(view: ViewState, pointSize: number, interactive = false): void {
    this.regl.poll();
    this.regl.clear({ color: [1, 1, 1, 1], depth: 1 });
    if (this.count === 0) return;
    if (interactive && this.drawLod && this.lodCount > 0) this.drawLod({ ...this.props(view, pointSize), count: this.lodCount });
    else this.drawPoints(this.props(view, pointSize));
  }

  /** Points drawn per frame while interacting. */
  interactivePoints(): number {
    return this.lodCount > 0 ? this.lodCount : this.count;
  }

  /** Renders the view `scale`× larger off-screen and returns it top-down as ImageData. */
  readImage(view: ViewState, pointSize: number, scale: number): ImageData {
    const max = this.regl.limits.maxRenderbufferSize;
    const k = Math.max(1, Math.min(scale, Math.floor(max / Math.max(view.width, view.height))));
    const width = Math.round(view.width * k);
    const height = Math.round(view.height * k);
    const fbo = this.regl.framebuffer({ width, height, depth: true });
    let pixels: Uint8Array = new Uint8Array(0);
    fbo.use(() => {
      this.regl.clear({ color: [1, 1, 1, 1], depth: 1 });
      this.drawPoints(this.props({ ...view, width, height }, pointSize * k));
      pixels = this.regl.read({ framebuffer: fbo }) as Uint8Array;
    });
    fbo.destroy();
    const out = new ImageData(width, height);
    const row = width * 4;
    for (let yy = 0; yy < height; yy += 1) out.data.set(pixels.subarray((height - 1 - yy) * row, (height - yy) * row), yy * row);
    return out;
  }

  destroy(): void {
    this.regl.destroy();
  }
}
