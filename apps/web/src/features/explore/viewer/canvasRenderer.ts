import type { ViewState } from './camera';
import { primeBaseLayer, type FirstFrameImage } from './firstFrame';
import { colourPoints, type PointColours } from './pointColours';
import type { PointRenderer } from './renderer';
import {
  BaseLayerCache,
  createTarget,
  pixelTransform,
  reprojection,
  splat,
  type PixelTransform,
  type SplatPoints,
  type SplatTarget,
} from './splat';

/**
 * The embedding viewer's renderer: points are splatted on the CPU (`splat.ts`) into an ImageData
 * shown on a 2D canvas. A recolour rewrites one packed colour and one priority byte per point (a
 * gene's only at its non-zero cells); a full-detail frame is one pass over the points, or, when the
 * camera has not moved since the last one, a copy of its base layer plus the points drawn above it. While the camera moves, frames show the last full
 * frame reprojected to the new camera (one drawImage), and the owner asks for a full frame once the
 * motion pauses. Chosen when WebGL is software-rendered (see rendererChoice.ts).
 */
export class CanvasRenderer implements PointRenderer {
  readonly kind = 'cpu' as const;
  private readonly ctx: CanvasRenderingContext2D;
  private x: Float32Array = new Float32Array(0);
  private y: Float32Array = new Float32Array(0);
  private state: PointColours = {
    colour: new Uint32Array(0),
    pri: new Uint8Array(0),
    aboveBuf: new Uint32Array(0),
    above: new Uint32Array(0),
    baseColour: null,
  };
  private sel: Uint8Array | null = null;
  private readonly baseLayer = new BaseLayerCache();
  private image: ImageData | null = null;
  private target: SplatTarget | null = null;
  /** the last full frame (for reprojection while moving) and the transform it was drawn with */
  private readonly snapshot: HTMLCanvasElement;
  private snapshotTr: PixelTransform | null = null;

  constructor(readonly canvas: HTMLCanvasElement) {
    const ctx = canvas.getContext('2d', { alpha: false });
    if (!ctx)
      throw new Error(
        'this browser cannot draw on a 2D canvas; use a current Chrome, Edge, Firefox or Safari',
      );
    this.ctx = ctx;
    this.snapshot = document.createElement('canvas');
  }

  setPositions(x: Float32Array, y: Float32Array, first?: FirstFrameImage | null): void {
    this.x = x;
    this.y = y;
    if (first) primeBaseLayer(this.baseLayer, first, x, y);
    const none = new Uint32Array(0);
    this.state = {
      colour: new Uint32Array(x.length),
      pri: new Uint8Array(x.length).fill(1),
      aboveBuf: none,
      above: none,
      baseColour: null,
    };
    this.sel = null;
    this.snapshotTr = null;
  }

  /** See colourPoints (pointColours.ts): with `nz`, a gene recolour visits only its non-zero cells. */
  setColours(...args: Parameters<PointRenderer['setColours']>): void {
    colourPoints(this.state, ...args);
  }

  setSelection(mask: Uint8Array | null): void {
    this.sel = mask && mask.length === this.x.length ? mask : null;
  }

  /** `moving`: show the last full frame moved to the new camera instead of redrawing the points. */
  render(view: ViewState, pointSize: number, moving = false): void {
    const { width, height } = this.canvas;
    const tr = pixelTransform(view, width, height);
    if (moving && this.snapshotTr && this.snapshot.width === width && this.snapshot.height === height) {
      const { k, ox, oy } = reprojection(this.snapshotTr, tr);
      this.ctx.setTransform(1, 0, 0, 1, 0, 0);
      this.ctx.fillStyle = '#ffffff';
      this.ctx.fillRect(0, 0, width, height);
      this.ctx.imageSmoothingEnabled = false; // nearest: cheaper, and points stay crisp
      this.ctx.setTransform(k, 0, 0, k, ox, oy);
      this.ctx.drawImage(this.snapshot, 0, 0);
      this.ctx.setTransform(1, 0, 0, 1, 0, 0);
      return;
    }
    if (!this.image || this.image.width !== width || this.image.height !== height) {
      this.image = new ImageData(width, height);
      this.target = createTarget(width, height, new Uint32Array(this.image.data.buffer));
    }
    splat(this.target!, this.points(), tr, pointSize, this.baseLayer);
    this.ctx.putImageData(this.image, 0, 0);
    if (this.snapshot.width !== width || this.snapshot.height !== height) {
      this.snapshot.width = width;
      this.snapshot.height = height;
    }
    this.snapshot.getContext('2d')!.drawImage(this.canvas, 0, 0);
    this.snapshotTr = tr;
  }

  private points(): SplatPoints {
    const { colour, pri, above, baseColour } = this.state;
    return { x: this.x, y: this.y, colour, pri, sel: this.sel, above, baseColour };
  }

  /** Moving frames reproject the last full frame: no points drawn. */
  movingPoints(): number {
    return 0;
  }

  /** Nothing to adapt: a moving frame is one drawImage. */
  adaptMoving(): void {}

  /** Renders the view `scale`× larger off-screen and returns it as ImageData (top-down). */
  readImage(view: ViewState, pointSize: number, scale: number): ImageData {
    const maxSide = 16_384;
    const k = Math.max(1, Math.min(scale, Math.floor(maxSide / Math.max(view.width, view.height))));
    const width = Math.round(view.width * k);
    const height = Math.round(view.height * k);
    const out = new ImageData(width, height);
    const target = createTarget(width, height, new Uint32Array(out.data.buffer));
    splat(target, this.points(), pixelTransform(view, width, height), pointSize * k);
    return out;
  }

  destroy(): void {
    this.image = null;
    this.target = null;
    this.baseLayer.pixels = new Uint32Array(0);
    this.baseLayer.key = '';
    this.snapshot.width = 0;
    this.snapshot.height = 0;
  }
}
