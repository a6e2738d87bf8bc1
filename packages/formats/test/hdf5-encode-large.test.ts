import { describe, expect, it } from 'vitest';
import { encodeStrings } from '../src/hdf5-encode';

describe('fixed-length strings for large obs indexes', () => {
  it('encodes 500,000 barcodes (Math.max over a spread overflowed the call stack at synth500k)', () => {
    const values = Array.from({ length: 500_000 }, (_, i) => `synth500k_${(i % 10) + 1}_CELL${i}-1`);
    values[123_456] = 'a-longer-barcode-than-the-others-1';
    const { dtype, raw } = encodeStrings(values);
    expect(dtype).toEqual({ kind: 'string', length: 34 });
    expect(raw.length).toBe(500_000 * 34);
    const at = (i: number) =>
      new TextDecoder().decode(raw.subarray(i * 34, (i + 1) * 34)).replace(/\0+$/, '');
    expect(at(0)).toBe('synth500k_1_CELL0-1');
    expect(at(123_456)).toBe('a-longer-barcode-than-the-others-1');
    expect(at(499_999)).toBe('synth500k_10_CELL499999-1');
  });
});
