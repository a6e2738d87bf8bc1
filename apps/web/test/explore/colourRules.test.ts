import { describe, expect, it } from 'vitest';
import { checkCustomColour } from '../../src/features/explore/viewer/colourRules';

const current = new Map([
  ['B', '#1f77b4'],
  ['NK', '#FF7F0E'],
]);

describe('custom colours (docs/product/validation.md#colours)', () => {
  it('accepts a new #RRGGBB colour and lower-cases it', () => {
    expect(checkCustomColour('B', '#ABCDEF', current)).toEqual({ ok: true, colour: '#abcdef' });
  });
  it('refuses anything but #RRGGBB', () => {
    for (const bad of ['#abc', 'red', '123456', '#12345g', '#1234567']) {
      expect(checkCustomColour('B', bad, current)).toEqual({ ok: false, reason: 'invalidHex' });
    }
  });
  it('refuses a colour another cluster of the subset already has (case-insensitive)', () => {
    expect(checkCustomColour('B', '#ff7f0e', current)).toEqual({
      ok: false,
      reason: 'duplicate',
      conflictWith: 'NK',
    });
  });
  it('allows re-entering the cluster’s own colour', () => {
    expect(checkCustomColour('B', '#1F77B4', current).ok).toBe(true);
  });
});
