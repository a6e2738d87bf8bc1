/** A table cell as the result views show numbers: 3 decimals, exponent below 1e-3, integers as they are. */
export const fmtNumber = (v: unknown): string =>
  typeof v === 'number'
    ? Math.abs(v) >= 1e-3 || v === 0
      ? Number.isInteger(v)
        ? String(v)
        : v.toFixed(3)
      : v.toExponential(2)
    : String(v ?? '');
