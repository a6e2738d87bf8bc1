import { describe, expect, it } from 'vitest';
import { deltaE, oklchToHex } from '../../src/features/explore/viewer/colorSpace';
import {
  categoryColours,
  generatePalette,
  palette,
  paletteNames,
} from '../../src/features/explore/viewer/palettes';
import { HEX_COLOUR } from '../../src/features/explore/viewer/colourRules';
import { expressionRamp } from '../../src/features/explore/viewer/gradient';

describe('palettes (docs/product/limits.md#palettes)', () => {
  it('have the specified sizes', () => {
    expect(palette('Default')).toHaveLength(130);
    expect(palette('v4')).toHaveLength(54);
    expect(palette('v5')).toHaveLength(30);
    expect(palette('v6')).toHaveLength(30);
  });

  it.each(paletteNames)('%s holds valid, unique, visually distinct #RRGGBB colours', (name) => {
    const p = palette(name);
    expect(p.length).toBeGreaterThanOrEqual(10);
    for (const c of p) expect(c).toMatch(HEX_COLOUR);
    expect(new Set(p.map((c) => c.toLowerCase())).size).toBe(p.length);
    let min = Infinity;
    for (let i = 0; i < p.length; i += 1)
      for (let j = i + 1; j < p.length; j += 1) min = Math.min(min, deltaE(p[i]!, p[j]!));
    expect(min).toBeGreaterThan(0.02);
  });

  it('generates the colours the pairwise deltaE rule picks (labs converted once)', () => {
    const opts = { lightness: [0.62, 0.78, 0.5], chroma: [0.17, 0.12], hueStart: 20, minDelta: 0.09 };
    const seed = ['#4e79a7', '#f28e2b'];
    // the rule spelled out with deltaE on hex strings, as before the conversion was cached
    const expected = [...seed];
    let minDelta = opts.minDelta;
    for (let i = 0; expected.length < 40; i += 1) {
      if (i > 0 && i % 2000 === 0) minDelta *= 0.9;
      const L = opts.lightness[i % 3]!;
      const C = opts.chroma[Math.floor(i / 3) % 2]!;
      const c = oklchToHex(L, C, (opts.hueStart + i * 137.50776) % 360);
      if (expected.every((o) => deltaE(o, c) >= minDelta)) expected.push(c);
    }
    expect(generatePalette(40, seed, opts)).toEqual(expected);
  });

  it('cycles past the end and applies overrides', () => {
    const p = palette('v1');
    const cols = categoryColours('v1', p.length + 2, new Map([[1, '#000000']]));
    expect(cols[p.length]).toBe(p[0]);
    expect(cols[1]).toBe('#000000');
  });

  it('expression ramp goes from light to dark', () => {
    const r = expressionRamp(16);
    expect(r).toHaveLength(16);
    expect(deltaE(r[0]!, '#dcdcdc')).toBeLessThan(0.01);
    expect(deltaE(r[15]!, '#4a0000')).toBeLessThan(0.01);
  });
});
