import type { Monocle2Heatmap } from '../contract';
import { round } from '../../_shared/engine/trajectory/common';
import type { nsBasis } from '../../_shared/engine/trajectory/nb-glm';
import { wardCut } from './diff-test';

/**
 * genSmoothCurves at 100 pseudotimes over 0–10 from each gene's fitted spline coefficients, and the
 * smoothed heat map of the given top genes (log10(curve + 1), row-scaled and clipped at ±3, rows
 * clustered by ward.D2 on (1 − cor)/2 into as many clusters as States).
 */
export function smoothedHeatmap(
  basis: ReturnType<typeof nsBasis>,
  heatRows: readonly { g: number; beta: Float64Array | undefined }[],
  symbols: readonly string[],
  nStates: number,
): { grid: number[]; curve: (beta: Float64Array) => number[]; heat: Monocle2Heatmap } {
  const grid = Array.from({ length: 100 }, (_, i) => (10 * i) / 99);
  const gridX = grid.map((t) => [1, ...basis.design(t)]);
  const curve = (beta: Float64Array) =>
    gridX.map((x) =>
      Math.exp(
        Math.min(
          30,
          x.reduce((s, v, a) => s + v * beta[a]!, 0),
        ),
      ),
    );
  const heatGenes: string[] = [];
  const values: number[][] = [];
  for (const r of heatRows) {
    const m = curve(r.beta!).map((v) => Math.log10(v + 1));
    const mean = m.reduce((a, b) => a + b, 0) / m.length;
    const sd = Math.sqrt(m.reduce((a, b) => a + (b - mean) ** 2, 0) / (m.length - 1));
    if (!(sd > 0) || !m.every(Number.isFinite)) continue;
    heatGenes.push(symbols[r.g]!);
    values.push(m.map((v) => round(Math.max(-3, Math.min(3, (v - mean) / sd)), 4)));
  }
  const nh = values.length;
  const dist = new Float64Array(nh * nh);
  for (let a = 0; a < nh; a++) {
    for (let b = a + 1; b < nh; b++) {
      let s = 0;
      for (let t = 0; t < 100; t++) s += values[a]![t]! * values[b]![t]!;
      const cor = s / 99; // rows are standardised
      dist[a * nh + b] = dist[b * nh + a] = (1 - cor) / 2;
    }
  }
  const clusters = nh ? Array.from(wardCut(dist, nh, Math.min(nStates, nh))) : [];
  const heat: Monocle2Heatmap = {
    pseudotime: grid.map((t) => round(t, 3)),
    genes: heatGenes,
    clusters,
    values,
  };
  return { grid, curve, heat };
}
