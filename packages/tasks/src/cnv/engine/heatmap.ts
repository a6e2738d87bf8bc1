import type { CnvHeatmapLayout } from '../contract';
import { Random } from '@cellcloud/engine/tasks/kit';
import type { CnvAccumulation } from './accumulate';
import { type CnvCells, shuffleTake } from './cells';

/** Above this many analysed cells the heat map keeps a seeded, per-group proportional subsample. */
export const HEATMAP_MAX_ROWS = 50_000;

interface RowGroup {
  label: string;
  reference: boolean;
  rows: number[];
  subs?: Map<string, number[]>;
}

/**
 * Heat-map row order: reference types first (in selection order), then each observed type
 * (sorted) with its subclones (sorted) and, within a subclone, the dendrogram order `rowRank`.
 */
function rowGroups(c: CnvCells, subcloneOfPos: readonly string[], rowRank: Float64Array): RowGroup[] {
  const { cells, types, nRef, refGroups, refTypes } = c;
  const nA = cells.length;
  const out: RowGroup[] = [];
  refGroups.forEach((g, gi) => out.push({ label: refTypes[gi], reference: true, rows: Array.from(g) }));
  for (const t of c.observedTypes) {
    const subs = new Map<string, number[]>();
    for (let i = nRef; i < nA; i++) {
      if (types[cells[i]] !== t) continue;
      const l = subcloneOfPos[i];
      let a = subs.get(l);
      if (!a) subs.set(l, (a = []));
      a.push(i);
    }
    for (const rowsOfSub of subs.values()) rowsOfSub.sort((a, b) => rowRank[a]! - rowRank[b]!);
    const sorted = new Map(
      [...subs.entries()].sort((a, b) => a[0].localeCompare(b[0], undefined, { numeric: true })),
    );
    out.push({ label: t, reference: false, rows: [...sorted.values()].flat(), subs: sorted });
  }
  return out;
}

/** The same groups with `frac` of each group's rows kept (at least one), drawn with `seed`. */
function downsampleRows(groups: RowGroup[], frac: number, seed: number): RowGroup[] {
  const hr = new Random(seed);
  return groups.map((g) => {
    const keep = new Set(shuffleTake(hr, g.rows, Math.max(1, Math.floor(g.rows.length * frac))));
    const subs = g.subs
      ? new Map([...g.subs].map(([l, r]) => [l, r.filter((x) => keep.has(x))] as [string, number[]]))
      : undefined;
    return { ...g, rows: g.rows.filter((x) => keep.has(x)), subs };
  });
}

/** Chromosome and arm blocks along the bins. */
function binBlocks(acc: CnvAccumulation): Pick<CnvHeatmapLayout, 'chromosomes' | 'arms'> {
  const chromBlocks: CnvHeatmapLayout['chromosomes'] = [];
  const armBlocks: CnvHeatmapLayout['arms'] = [];
  for (let b = 0; b < acc.nBins; b++) {
    const arm = acc.armNames[acc.binArm[b]];
    const chr = `chr${arm.replace(/[pq]$/, '')}`;
    const lc = chromBlocks[chromBlocks.length - 1];
    if (lc && lc.name === chr) lc.bins++;
    else chromBlocks.push({ name: chr, startBin: b, bins: 1 });
    const la = armBlocks[armBlocks.length - 1];
    if (la && la.arm === arm) la.bins++;
    else armBlocks.push({ arm, startBin: b, bins: 1 });
  }
  return { chromosomes: chromBlocks, arms: armBlocks };
}

/**
 * The CNV heat map: one byte per row × bin (value mapped onto [vmin, vmax], symmetric around 1
 * from the mean per-cell minimum / maximum) and its layout (row groups with their subclones,
 * chromosome and arm blocks).
 */
export function cnvHeatmap(
  c: CnvCells,
  subcloneOfPos: readonly string[],
  rowRank: Float64Array,
  acc: CnvAccumulation,
  seed: number,
): { bytes: Uint8Array; layout: CnvHeatmapLayout } {
  const nA = c.cells.length;
  const { nBins, binVals } = acc;
  let rowsOrder = rowGroups(c, subcloneOfPos, rowRank);
  const downsampled = nA > HEATMAP_MAX_ROWS;
  if (downsampled) rowsOrder = downsampleRows(rowsOrder, HEATMAP_MAX_ROWS / nA, seed + 1);
  const nRows = rowsOrder.reduce((s, g) => s + g.rows.length, 0);
  const lo = acc.minSum / nA;
  const hi = acc.maxSum / nA;
  const delta = Math.max(1 - lo, hi - 1, 1e-6);
  const vmin = 1 - delta;
  const vmax = 1 + delta;
  const bytes = new Uint8Array(nRows * nBins);
  const groupsLayout: CnvHeatmapLayout['groups'] = [];
  let r = 0;
  for (const g of rowsOrder) {
    const start = r;
    const subclones: { label: string; start: number; count: number }[] = [];
    if (g.subs) {
      let s0 = r;
      for (const [l, rows] of g.subs) {
        if (rows.length) subclones.push({ label: l, start: s0, count: rows.length });
        s0 += rows.length;
      }
    }
    for (const i of g.rows) {
      for (let b = 0; b < nBins; b++) {
        const v = (binVals[i * nBins + b] - vmin) / (vmax - vmin);
        bytes[r * nBins + b] = Math.round(255 * Math.min(1, Math.max(0, v)));
      }
      r++;
    }
    groupsLayout.push({
      label: g.label,
      reference: g.reference,
      start,
      count: g.rows.length,
      ...(g.subs ? { subclones } : {}),
    });
  }
  const { chromosomes, arms } = binBlocks(acc);
  return {
    bytes,
    layout: {
      rows: nRows,
      bins: nBins,
      vmin,
      vmax,
      groups: groupsLayout,
      chromosomes,
      arms,
      genesPerBin: acc.genesPerBin,
      totalCells: nA,
      downsampled,
    },
  };
}
