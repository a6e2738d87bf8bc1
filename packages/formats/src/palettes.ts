import { hexToOklab, oklchToHex } from './color-space';

/**
 * Shared by the explorer (web viewer) and the server's figure export (issue 21).
 *
 * The palettes of docs/product/entities.md#option-lists, docs/product/limits.md#palettes: Default (130 colours) and v1–v6 (v4 54, v5 and v6 30 each).
 * Fixed lists are classic qualitative sets; longer ones are generated in OKLCH with golden-angle
 * hue steps and alternating lightness, skipping any colour too close to one already chosen.
 */
export const paletteNames = ['Default', 'v1', 'v2', 'v3', 'v4', 'v5', 'v6'] as const;
export type PaletteName = (typeof paletteNames)[number];

/** The ten categorical colours of matplotlib's tab10 (Default / v1, and the CNV heat-map groups). */
export const CLASSIC10 = [
  '#1f77b4',
  '#ff7f0e',
  '#2ca02c',
  '#d62728',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#7f7f7f',
  '#bcbd22',
  '#17becf',
];
const TABLEAU20 = [
  '#4e79a7',
  '#a0cbe8',
  '#f28e2b',
  '#ffbe7d',
  '#59a14f',
  '#8cd17d',
  '#b6992d',
  '#f1ce63',
  '#499894',
  '#86bcb6',
  '#e15759',
  '#ff9d9a',
  '#79706e',
  '#bab0ac',
  '#d37295',
  '#fabfd2',
  '#b07aa1',
  '#d4a6c8',
  '#9d7660',
  '#d7b5a6',
];

interface GenOptions {
  lightness: number[];
  chroma: number[];
  hueStart: number;
  minDelta: number;
}

/**
 * Extends `seed` to n mutually distinct colours. Each colour is converted to OKLab once (the same
 * ΔE as `deltaE`): converting every chosen colour again for each candidate made the Default palette
 * cost 0.2–0.7 s on the explorer's main thread, at its first cluster colouring.
 */
export function generatePalette(n: number, seed: string[], opts: GenOptions): string[] {
  const out = [...seed.slice(0, n)];
  const labs = out.map(hexToOklab);
  let minDelta = opts.minDelta;
  let i = 0;
  while (out.length < n) {
    const hue = (opts.hueStart + i * 137.50776) % 360;
    const L = opts.lightness[i % opts.lightness.length]!;
    const C = opts.chroma[Math.floor(i / opts.lightness.length) % opts.chroma.length]!;
    const c = oklchToHex(L, C, hue);
    const q = hexToOklab(c);
    if (labs.every((p) => Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]) >= minDelta)) {
      out.push(c);
      labs.push(q);
    }
    i += 1;
    if (i % 2000 === 0) minDelta *= 0.9; // relax when the space is exhausted
  }
  return out;
}

const BUILT: Record<PaletteName, () => string[]> = {
  Default: () =>
    generatePalette(
      130,
      [...TABLEAU20.filter((_, i) => i % 2 === 0), ...TABLEAU20.filter((_, i) => i % 2 === 1)],
      {
        lightness: [0.62, 0.78, 0.5, 0.7, 0.42, 0.85],
        chroma: [0.17, 0.12, 0.08],
        hueStart: 20,
        minDelta: 0.06,
      },
    ),
  v1: () => [...CLASSIC10],
  v2: () => [...TABLEAU20],
  v3: () =>
    generatePalette(40, CLASSIC10, {
      lightness: [0.7, 0.55, 0.82],
      chroma: [0.16, 0.11],
      hueStart: 40,
      minDelta: 0.08,
    }),
  v4: () =>
    generatePalette(54, [], {
      lightness: [0.65, 0.8, 0.5],
      chroma: [0.18, 0.12, 0.08],
      hueStart: 0,
      minDelta: 0.08,
    }),
  v5: () =>
    generatePalette(30, [], { lightness: [0.85, 0.76], chroma: [0.1, 0.07], hueStart: 10, minDelta: 0.06 }),
  v6: () =>
    generatePalette(30, [], { lightness: [0.45, 0.58], chroma: [0.16, 0.12], hueStart: 200, minDelta: 0.07 }),
};

const cache = new Map<PaletteName, string[]>();

export function palette(name: PaletteName): readonly string[] {
  let p = cache.get(name);
  if (!p) {
    p = BUILT[name]();
    cache.set(name, p);
  }
  return p;
}

/** Colour of category i: the palette cycles when there are more categories than colours. */
export function categoryColours(
  name: PaletteName,
  count: number,
  overrides: ReadonlyMap<number, string> = new Map(),
): string[] {
  const p = palette(name);
  return Array.from({ length: count }, (_, i) => overrides.get(i) ?? p[i % p.length]!);
}
