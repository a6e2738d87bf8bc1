import { describe, expect, it } from 'vitest';
import { HOME } from '../../src/features/explore/viewer/camera';
import { expressionRamp } from '../../src/features/explore/viewer/gradient';
import { colourPoints, type PointColours } from '../../src/features/explore/viewer/pointColours';
import { BaseLayerCache, createTarget, pixelTransform, splat } from '../../src/features/explore/viewer/splat';

function state(n: number): PointColours {
  const none = new Uint32Array(0);
  return {
    colour: new Uint32Array(n),
    pri: new Uint8Array(n),
    aboveBuf: none,
    above: none,
    baseColour: null,
  };
}

/** A sparse gene over n cells: ~30 % expressed, values up to 4; dense values and ascending non-zeros. */
function gene(n: number, seed: number): { values: Float32Array; nz: Uint32Array; max: number } {
  let s = seed;
  const rand = () => (s = (s * 1103515245 + 12345) >>> 0) / 4294967296;
  const values = new Float32Array(n);
  const nz: number[] = [];
  for (let i = 0; i < n; i += 1)
    if (rand() < 0.3) {
      values[i] = rand() * 4;
      nz.push(i);
    }
  return { values, nz: Uint32Array.from(nz), max: Math.max(...values) };
}

describe('point colours of the CPU renderer', () => {
  const ramp = expressionRamp(64);

  it('colours a gene from its non-zero cells exactly as from the dense values', () => {
    const n = 5000;
    const dense = state(n);
    const sparse = state(n);
    // the sparse state first holds another colouring: every stale entry must be overwritten
    colourPoints(
      sparse,
      'categorical',
      Uint32Array.from({ length: n }, (_, i) => i % 7),
      ['#ff0000', '#00ff00'],
    );
    for (const seed of [3, 4]) {
      const g = gene(n, seed);
      colourPoints(dense, 'continuous', g.values, ramp, g.max);
      colourPoints(sparse, 'continuous', g.values, ramp, g.max, g.nz);
      expect(sparse.colour).toEqual(dense.colour);
      expect(sparse.pri).toEqual(dense.pri);
      expect(Array.from(sparse.above)).toEqual(Array.from(dense.above));
      expect(sparse.baseColour).toBe(dense.baseColour);
      expect(dense.baseColour).toBe(dense.colour[g.values.indexOf(0)]);
      // every listed point is above the base priority, every other one at it
      const listed = new Set(sparse.above);
      expect(Array.from(sparse.pri).every((q, i) => (q !== 1) === listed.has(i))).toBe(true);
    }
  });

  it('notes a shared base colour only when every base point has it', () => {
    const s = state(4);
    colourPoints(s, 'categorical', Uint32Array.of(0, 1, 0, 1), ['#ff0000', '#0000ff']);
    expect(s.baseColour).toBeNull();
    expect(s.above.length).toBe(0);
    colourPoints(s, 'categorical', Uint32Array.of(1, 1, 1, 1), ['#ff0000', '#0000ff']);
    expect(s.baseColour).toBe(s.colour[0]);
    colourPoints(s, 'none', null, []);
    expect(s.baseColour).toBe(s.colour[0]);
    // negative values fall outside the ramp (neutral grey) at the base priority: no shared colour
    colourPoints(s, 'continuous', Float32Array.of(0, -1, 2, 0), ramp, 2);
    expect(s.baseColour).toBeNull();
    expect(Array.from(s.above)).toEqual([2]);
  });

  it('draws a sparse gene recolour with the cached base layer as the plain two-pass splat', () => {
    const n = 3000;
    const x = Float32Array.from({ length: n }, (_, i) => Math.sin(i * 1.7) * 0.9);
    const y = Float32Array.from({ length: n }, (_, i) => Math.cos(i * 0.9) * 0.9);
    const tr = pixelTransform({ ...HOME, width: 50, height: 40 }, 50, 40);
    const s = state(n);
    const cache = new BaseLayerCache();
    for (const seed of [7, 8, 9]) {
      const g = gene(n, seed);
      colourPoints(s, 'continuous', g.values, ramp, g.max, g.nz);
      const fast = createTarget(50, 40);
      splat(
        fast,
        { x, y, colour: s.colour, pri: s.pri, sel: null, above: s.above, baseColour: s.baseColour },
        tr,
        2,
        cache,
      );
      const plain = createTarget(50, 40);
      splat(plain, { x, y, colour: s.colour, pri: s.pri, sel: null }, tr, 2);
      expect(fast.pixels).toEqual(plain.pixels);
    }
  });
});
