import { describe, expect, it } from 'vitest';
import { HOME, zoomAt } from '../../src/features/explore/viewer/camera';
import {
  firstFrameOf,
  firstFrameSplatter,
  primeBaseLayer,
} from '../../src/features/explore/viewer/firstFrame';
import { colourPoints, type PointColours } from '../../src/features/explore/viewer/pointColours';
import { BaseLayerCache, createTarget, pixelTransform, splat } from '../../src/features/explore/viewer/splat';

/** 3,000 random points in [-1.2, 1.2] × [-1, 1] (some off the canvas) */
function cloud(n: number, seed: number): { x: Float32Array; y: Float32Array } {
  let s = seed;
  const rand = () => (s = (s * 1103515245 + 12345) >>> 0) / 4294967296;
  return {
    x: Float32Array.from({ length: n }, () => rand() * 2.4 - 1.2),
    y: Float32Array.from({ length: n }, () => rand() * 2 - 1),
  };
}

/** What the CPU renderer draws for uncoloured points at `camera` (colourPoints 'none', then splat). */
function uncoloured(
  x: Float32Array,
  y: Float32Array,
  width: number,
  height: number,
  size: number,
  camera = HOME,
  cache?: BaseLayerCache,
): Uint32Array {
  const n = x.length;
  const none = new Uint32Array(0);
  const s: PointColours = {
    colour: new Uint32Array(n),
    pri: new Uint8Array(n),
    aboveBuf: none,
    above: none,
    baseColour: null,
  };
  colourPoints(s, 'none', null, []);
  const target = createTarget(width, height);
  const tr = pixelTransform({ ...camera, width, height }, width, height);
  splat(
    target,
    { x, y, colour: s.colour, pri: s.pri, sel: null, above: s.above, baseColour: s.baseColour },
    tr,
    size,
    cache,
  );
  return target.pixels;
}

describe('first frame splatted as the positions arrive', () => {
  it('sizes the frame as the viewer sizes its canvas and points', () => {
    expect(firstFrameOf(1199.6, 700, 2_000_000, 1)).toEqual({ width: 1200, height: 700, size: 1.5 });
    expect(firstFrameOf(300, 560, 3000, 2)).toEqual({ width: 600, height: 1120, size: 10 });
  });

  it('draws, piece by piece, the pixels the renderer draws for the whole embedding uncoloured', () => {
    const { x, y } = cloud(3000, 5);
    for (const frame of [
      firstFrameOf(90, 60, 3000, 1),
      firstFrameOf(70, 50, 600_000, 1),
      firstFrameOf(40, 40, 50_000, 2),
    ]) {
      const f = firstFrameSplatter(frame);
      // uneven pieces, in order, as download chunks come
      for (const [from, to] of [
        [0, 1],
        [1, 700],
        [700, 701],
        [701, 3000],
      ] as const)
        f.add(x, y, from, to);
      const image = f.image();
      expect(image.pixels).toEqual(uncoloured(x, y, frame.width, frame.height, frame.size));
    }
  });

  it('primes the base layer: the first frame is shown as drawn, and only at its own camera, size and positions', () => {
    const { x, y } = cloud(3000, 9);
    const frame = firstFrameOf(80, 50, 3000, 1);
    const f = firstFrameSplatter(frame);
    f.add(x, y, 0, x.length);
    const image = f.image();
    const expected = uncoloured(x, y, frame.width, frame.height, frame.size);
    // a marked pixel proves the frame comes from the primed layer, not from a new pass
    const marked = { frame, pixels: image.pixels.slice() };
    marked.pixels[0] = 0xff00ff00;
    const cache = new BaseLayerCache();
    primeBaseLayer(cache, marked, x, y);
    const shown = uncoloured(x, y, frame.width, frame.height, frame.size, HOME, cache);
    expect(shown[0]).toBe(0xff00ff00);
    expect(shown.subarray(1)).toEqual(expected.subarray(1));
    // the cache holds a copy: drawing into it later leaves the first frame as delivered
    expect(cache.pixels).not.toBe(marked.pixels);
    // another camera, point size or positions: drawn from the points
    const zoomed = zoomAt({ ...HOME, width: frame.width, height: frame.height }, 10, 10, 2);
    const other = new BaseLayerCache();
    primeBaseLayer(other, marked, x, y);
    expect(uncoloured(x, y, frame.width, frame.height, frame.size, zoomed, other)).toEqual(
      uncoloured(x, y, frame.width, frame.height, frame.size, zoomed),
    );
    const again = new BaseLayerCache();
    primeBaseLayer(again, marked, x, y);
    expect(uncoloured(x, y, frame.width, frame.height, 3, HOME, again)).toEqual(
      uncoloured(x, y, frame.width, frame.height, 3),
    );
    const moved = x.map((v) => v * 0.5);
    const third = new BaseLayerCache();
    primeBaseLayer(third, marked, x, y);
    expect(uncoloured(moved, y, frame.width, frame.height, frame.size, HOME, third)).toEqual(
      uncoloured(moved, y, frame.width, frame.height, frame.size),
    );
  });
});
