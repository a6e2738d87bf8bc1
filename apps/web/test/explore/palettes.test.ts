import { describe, expect, it } from 'vitest';
import { deltaE } from '../../src/features/explore/viewer/colorSpace';
import { categoryColours, palette, paletteNames } from '../../src/features/explore/viewer/palettes';
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
