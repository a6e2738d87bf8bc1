import { HOME } from './camera';
import { NEUTRAL } from './pointColours';
import { defaultPointSize } from './scatterPoints';
import {
  baseLayerKey,
  clear,
  createTarget,
  packColour,
  pixelTransform,
  splatFixed,
  type BaseLayerCache,
} from './splat';

/**
 * The first frame of an embedding drawn while its positions download: the artifact worker splats
 * each decoded piece of the positions at once, in the uncoloured grey of the CPU renderer, at the
 * home camera of a canvas of the size the viewer will have. The viewer then shows it without a
 * pass over the points (`primeBaseLayer`): the same pixels as `splat` of those points with no
 * colouring (a canvas of another size draws as before).
 */
export interface FirstFrame {
  /** canvas size in device pixels */
  width: number;
  height: number;
  /** point size in device pixels */
  size: number;
}

export interface FirstFrameImage {
  frame: FirstFrame;
  /** packed RGBA (splat.ts), width × height */
  pixels: Uint32Array;
}

/** The first frame of a canvas of cssWidth × cssHeight CSS pixels showing nCells cells (sizes as EmbeddingViewer sets them). */
export function firstFrameOf(cssWidth: number, cssHeight: number, nCells: number, dpr: number): FirstFrame {
  return {
    width: Math.round(Math.max(1, cssWidth) * dpr),
    height: Math.round(Math.max(1, cssHeight) * dpr),
    size: defaultPointSize(nCells) * dpr,
  };
}

const homeTransform = (f: FirstFrame) =>
  pixelTransform({ ...HOME, width: f.width, height: f.height }, f.width, f.height);

/** Splats positions piece by piece (cells from..to−1 of each call) into the first frame. */
export function firstFrameSplatter(frame: FirstFrame): {
  add(x: Float32Array, y: Float32Array, from: number, to: number): void;
  image(): FirstFrameImage;
} {
  const target = createTarget(frame.width, frame.height);
  clear(target);
  const tr = homeTransform(frame);
  const grey = packColour(NEUTRAL);
  return {
    add: (x, y, from, to) => splatFixed(target, x, y, from, to, tr, frame.size, grey),
    image: () => ({ frame, pixels: target.pixels }),
  };
}

/**
 * Makes `cache` hold the first frame as the base layer of (x, y) at the home camera: the next frame
 * at that camera, size and colouring copies it instead of drawing the points. The pixels are copied
 * (the cache redraws into its own array later).
 */
export function primeBaseLayer(
  cache: BaseLayerCache,
  image: FirstFrameImage,
  x: Float32Array,
  y: Float32Array,
): void {
  const { frame } = image;
  if (image.pixels.length !== frame.width * frame.height) return;
  cache.pixels = image.pixels.slice();
  cache.key = baseLayerKey(frame.width, frame.height, homeTransform(frame), frame.size, packColour(NEUTRAL));
  cache.x = x;
  cache.y = y;
}
