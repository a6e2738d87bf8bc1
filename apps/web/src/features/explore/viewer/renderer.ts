import type { ViewState } from './camera';
import type { FirstFrameImage } from './firstFrame';

/** How `setColours` reads its values. */
export type RenderMode = 'categorical' | 'continuous' | 'none';

/** Which implementation draws the points (see rendererChoice.ts for the run-time rule). */
export type RendererKind = 'webgl' | 'cpu';

/**
 * What the embedding viewer needs from a point renderer. Implemented by `CanvasRenderer` (CPU
 * splatting on a 2D canvas, for software-rendered WebGL) and `WebglRenderer` (regl gl.POINTS, for
 * real GPUs). The renderer owns the canvas's drawing context; the viewer sizes the canvas.
 */
export interface PointRenderer {
  readonly kind: RendererKind;
  /**
   * New embedding: positions in [-1, 1]; clears colours and selection. `first`: its first frame,
   * drawn while it downloaded (firstFrame.ts), which a renderer may show instead of drawing it.
   */
  setPositions(x: Float32Array, y: Float32Array, first?: FirstFrameImage | null): void;
  /**
   * `values`: category codes (categorical, `colours` = palette) or raw values scaled by `1 / max`
   * into [0, 1] (continuous, `colours` = ramp); higher continuous values draw on top. `nz`
   * (continuous): ascending indices of the only non-zero values, so a renderer may skip the zeros.
   */
  setColours(
    mode: RenderMode,
    values: ArrayLike<number> | null,
    colours: string[],
    max?: number,
    nz?: Uint32Array | null,
  ): void;
  /** 1 = selected (others dimmed); null = no selection. */
  setSelection(mask: Uint8Array | null): void;
  /** Draws the view into the canvas (already sized by the owner); `moving`: a cheaper frame while the camera moves. */
  render(view: ViewState, pointSize: number, moving?: boolean): void;
  /** Points drawn per moving frame (0 = moving frames do not draw points: they reproject the last full frame). */
  movingPoints(): number;
  /** Adapts the moving-frame cost to the measured interval between moving frames. */
  adaptMoving(frameIntervalMs: number): void;
  /** Renders the view `scale`× larger off-screen and returns it top-down as ImageData. */
  readImage(view: ViewState, pointSize: number, scale: number): ImageData;
  destroy(): void;
}
