import { hexToOklab, oklabToHex } from './colorSpace';

/** Continuous colour ramp for gene expression / numeric columns: light grey → orange → dark red. */
const STOPS = ['#dcdcdc', '#fdbb84', '#ef6548', '#b30000', '#4a0000'];

export function expressionRamp(steps = 64): string[] {
  const labs = STOPS.map(hexToOklab);
  return Array.from({ length: steps }, (_, i) => {
    const t = (i / (steps - 1)) * (labs.length - 1);
    const k = Math.min(labs.length - 2, Math.floor(t));
    const f = t - k;
    const a = labs[k]!;
    const b = labs[k + 1]!;
    return oklabToHex([a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f]);
  });
}
