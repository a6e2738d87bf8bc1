import { describe, expect, it } from 'vitest';
import { dataToScreen, HOME, zoomAt } from '../../src/features/explore/viewer/camera';
import {
  BaseLayerCache,
  createTarget,
  dimColour,
  packColour,
  pixelTransform,
  reprojection,
  splat,
  valuePriority,
  type SplatPoints,
} from '../../src/features/explore/viewer/splat';

const WHITE = 0xffffffff;
const RED = packColour('#ff0000');
const BLUE = packColour('#0000ff');

function points(
  coords: Array<[number, number]>,
  colour: number[],
  pri: number[],
  sel: number[] | null = null,
): SplatPoints {
  return {
    x: Float32Array.from(coords.map((c) => c[0])),
    y: Float32Array.from(coords.map((c) => c[1])),
    colour: Uint32Array.from(colour),
    pri: Uint8Array.from(pri),
    sel: sel ? Uint8Array.from(sel) : null,
  };
}

/** pixels of the target that are not white, as "x,y" → colour */
function painted(t: { width: number; pixels: Uint32Array }): Map<string, number> {
  const out = new Map<string, number>();
  t.pixels.forEach((c, k) => c !== WHITE && out.set(`${k % t.width},${Math.floor(k / t.width)}`, c));
  return out;
}

describe('CPU point splatting', () => {
  const view = { ...HOME, width: 20, height: 10 };
  const tr = pixelTransform(view, 20, 10);

  it('packs #RRGGBB as little-endian RGBA and dims like the selection shader did', () => {
    const bytes = new Uint8Array(Uint32Array.of(packColour('#102030')).buffer);
    expect(Array.from(bytes)).toEqual([0x10, 0x20, 0x30, 255]);
    const dim = new Uint8Array(Uint32Array.of(dimColour(packColour('#000000'))).buffer);
    expect(Array.from(dim)).toEqual([168, 168, 168, 255]);
  });

  it('puts a point where the camera maps it, covering the pixels whose centres its square holds', () => {
    const t = createTarget(20, 10);
    // data (0, 0) → screen centre (10, 5): a 2-pixel point covers pixels 9..10 × 4..5
    splat(t, points([[0, 0]], [RED], [1]), tr, 2);
    expect([...painted(t).keys()].sort()).toEqual(['10,4', '10,5', '9,4', '9,5']);
    const [sx, sy] = dataToScreen(view, 0.5, -0.5);
    const t1 = createTarget(20, 10);
    splat(t1, points([[0.5, -0.5]], [RED], [1]), tr, 1);
    expect([...painted(t1).keys()]).toEqual([`${Math.floor(sx)},${Math.floor(sy)}`]);
  });

  it('draws large points as discs and clips at the edges', () => {
    const t = createTarget(20, 10);
    splat(t, points([[0, 0]], [RED], [1]), tr, 6);
    const p = painted(t);
    expect(p.size).toBe(32); // the 6×6 square 7..12 × 2..7 minus its 4 corners
    expect(p.has('7,3') && p.has('12,7') === false && !p.has('7,2')).toBe(true);
    const edge = createTarget(20, 10); // x = −2 is the left edge (unit = 5 px); (5, 5) is off-screen
    splat(
      edge,
      points(
        [
          [-2, 0],
          [5, 5],
        ],
        [RED, RED],
        [1, 1],
      ),
      tr,
      4,
    );
    expect(painted(edge).size).toBeGreaterThan(0);
    expect([...painted(edge).keys()].every((k) => Number(k.split(',')[0]) < 2)).toBe(true);
  });

  it('keeps higher priorities on top regardless of order, later points winning ties', () => {
    const t = createTarget(20, 10);
    splat(
      t,
      points(
        [
          [0, 0],
          [0, 0],
        ],
        [BLUE, RED],
        [valuePriority(1), valuePriority(0)],
      ),
      tr,
      1,
    );
    expect([...painted(t).values()]).toEqual([BLUE]);
    splat(
      t,
      points(
        [
          [0, 0],
          [0, 0],
        ],
        [BLUE, RED],
        [1, 1],
      ),
      tr,
      1,
    );
    expect([...painted(t).values()]).toEqual([RED]);
    splat(
      t,
      points(
        [
          [0, 0],
          [0, 0],
          [0, 0],
        ],
        [BLUE, RED, BLUE],
        [9, 9, 1],
      ),
      tr,
      1,
    );
    expect([...painted(t).values()]).toEqual([RED]);
  });

  it('draws the selection on top and dims the rest under everything', () => {
    const t = createTarget(20, 10);
    splat(
      t,
      points(
        [
          [0, 0],
          [0, 0],
        ],
        [BLUE, RED],
        [1, 254],
        [1, 0],
      ),
      tr,
      1,
    );
    expect([...painted(t).values()]).toEqual([BLUE]);
    const far = createTarget(20, 10);
    splat(far, points([[0.5, 0]], [RED], [1], [0]), tr, 1);
    expect([...painted(far).values()]).toEqual([dimColour(RED)]);
  });

  it('draws the same picture from the base layer (cached) and the list of points above it', () => {
    // 4,000 points on a 60 × 40 target: most at priority 1 in the base colour, some above
    const n = 4000;
    let seed = 11;
    const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296;
    const x = Float32Array.from({ length: n }, () => rand() * 2.4 - 1.2);
    const y = Float32Array.from({ length: n }, () => rand() * 2 - 1);
    const ramp = [RED, BLUE, packColour('#00ff00'), packColour('#123456')];
    const pri = new Uint8Array(n);
    const colour = new Uint32Array(n);
    const above: number[] = [];
    for (let i = 0; i < n; i += 1) {
      const w = rand() < 0.7 ? 0 : rand();
      pri[i] = valuePriority(w);
      colour[i] = pri[i] === 1 ? RED : ramp[1 + Math.floor(w * 2.99)]!;
      if (pri[i] !== 1) above.push(i);
    }
    const p: SplatPoints = { x, y, colour, pri, sel: null };
    const wide = pixelTransform({ ...HOME, width: 60, height: 40 }, 60, 40);
    for (const size of [1.5, 3, 5]) {
      const plain = createTarget(60, 40);
      splat(plain, p, wide, size);
      const cache = new BaseLayerCache();
      const hinted = { ...p, above: Uint32Array.from(above), baseColour: RED };
      const first = createTarget(60, 40);
      splat(first, hinted, wide, size, cache);
      expect(first.pixels).toEqual(plain.pixels);
      expect(cache.key).not.toBe('');
      const again = createTarget(60, 40); // from the cached base layer
      splat(again, hinted, wide, size, cache);
      expect(again.pixels).toEqual(plain.pixels);
      // without a shared base colour: plain base pass, listed points above it
      const listed = createTarget(60, 40);
      splat(listed, { ...p, above: Uint32Array.from(above) }, wide, size, cache);
      expect(listed.pixels).toEqual(plain.pixels);
    }
    // a cached base layer is not reused for another camera or other positions
    const cache = new BaseLayerCache();
    const hinted = { ...p, above: Uint32Array.from(above), baseColour: RED };
    splat(createTarget(60, 40), hinted, wide, 3, cache);
    const zoomed = pixelTransform(
      { ...zoomAt({ ...HOME, width: 60, height: 40 }, 30, 20, 2), width: 60, height: 40 },
      60,
      40,
    );
    const a = createTarget(60, 40);
    splat(a, hinted, zoomed, 3, cache);
    const b = createTarget(60, 40);
    splat(b, p, zoomed, 3);
    expect(a.pixels).toEqual(b.pixels);
    const shifted = { ...hinted, x: x.map((v) => v * 0.5) };
    const c = createTarget(60, 40);
    splat(c, shifted, zoomed, 3, cache);
    const d = createTarget(60, 40);
    splat(d, { ...p, x: shifted.x }, zoomed, 3);
    expect(c.pixels).toEqual(d.pixels);
  });

  it('reprojects a frame drawn with one camera to where its pixels belong under another', () => {
    const moved = zoomAt(view, 3, 7, 2.5);
    const to = pixelTransform({ ...moved, width: 20, height: 10 }, 20, 10);
    const { k, ox, oy } = reprojection(tr, to);
    for (const [x, y] of [
      [0.3, -0.2],
      [-0.8, 0.6],
    ] as const) {
      const before = [x * tr.sx + tr.bx, y * tr.sy + tr.by];
      const after = [x * to.sx + to.bx, y * to.sy + to.by];
      expect(k * before[0]! + ox).toBeCloseTo(after[0]!, 9);
      expect(k * before[1]! + oy).toBeCloseTo(after[1]!, 9);
    }
  });
});
