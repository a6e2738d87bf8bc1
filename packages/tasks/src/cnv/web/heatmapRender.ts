import type { CnvHeatmapLayout } from '../contract';
import { GROUP_COLOURS } from '../../_shared/figures/violin-box';

/**
 * The inferCNV heat map drawn from data/heatmap.bin (Uint8, rows × bins; value = vmin + b/255 ·
 * (vmax − vmin), symmetric around 1): cells as rows (references on top, then observed cells by
 * type and subclone), genes in genome order as columns (bins of consecutive genes of one arm),
 * chromosome boundaries, a diverging blue–white–red palette centred at 1 (inferCNV's RdBu: blue =
 * loss, red = gain). Pure functions: the canvas component and the exports share them.
 */

/** Diverging palette, 256 entries RGB, centred at byte 127.5 (value 1). */
export const DIVERGING: Uint8Array = (() => {
  const stops: [number, [number, number, number]][] = [
    [0, [5, 48, 97]],
    [0.25, [67, 147, 195]],
    [0.5, [247, 247, 247]],
    [0.75, [214, 96, 77]],
    [1, [103, 0, 31]],
  ];
  const out = new Uint8Array(256 * 3);
  for (let i = 0; i < 256; i++) {
    const x = i / 255;
    let k = 0;
    while (k < stops.length - 2 && x > stops[k + 1]![0]) k++;
    const [x0, c0] = stops[k]!;
    const [x1, c1] = stops[k + 1]!;
    const f = (x - x0) / (x1 - x0);
    for (let j = 0; j < 3; j++) out[i * 3 + j] = Math.round(c0[j]! + f * (c1[j]! - c0[j]!));
  }
  return out;
})();

/**
 * RGBA pixels of the heat-map body at width × height. Each pixel row averages the rows it covers
 * (more cells than pixels) or repeats a row (fewer); each pixel column reads its bin.
 */
export function renderBody(
  layout: Pick<CnvHeatmapLayout, 'rows' | 'bins'>,
  bytes: Uint8Array,
  width: number,
  height: number,
): Uint8ClampedArray {
  const { rows, bins } = layout;
  const px = new Uint8ClampedArray(width * height * 4);
  const acc = new Float64Array(bins);
  const binOfX = Int32Array.from({ length: width }, (_, x) =>
    Math.min(bins - 1, Math.floor((x * bins) / width)),
  );
  for (let y = 0; y < height; y++) {
    const r0 = Math.floor((y * rows) / height);
    const r1 = Math.max(r0 + 1, Math.floor(((y + 1) * rows) / height));
    acc.fill(0);
    for (let r = r0; r < r1 && r < rows; r++) {
      const o = r * bins;
      for (let b = 0; b < bins; b++) acc[b]! += bytes[o + b]!;
    }
    const n = Math.min(r1, rows) - r0;
    for (let x = 0; x < width; x++) {
      const v = Math.round(acc[binOfX[x]!]! / n);
      const o = (y * width + x) * 4;
      px[o] = DIVERGING[v * 3]!;
      px[o + 1] = DIVERGING[v * 3 + 1]!;
      px[o + 2] = DIVERGING[v * 3 + 2]!;
      px[o + 3] = 255;
    }
  }
  return px;
}

export interface HeatmapGeometry {
  width: number;
  height: number;
  /** body rectangle */
  left: number;
  top: number;
  bodyW: number;
  bodyH: number;
  /** annotation bar (left of the body) */
  barX: number;
  barW: number;
  /** colour legend (right) */
  legendX: number;
}

export function geometry(width: number, height: number, scale = 1): HeatmapGeometry {
  const labelW = 170 * scale;
  const barW = 14 * scale;
  const legendW = 110 * scale;
  const top = 28 * scale;
  const bottom = 8 * scale;
  const left = labelW + barW + 4 * scale;
  return {
    width,
    height,
    left,
    top,
    bodyW: Math.max(10, width - left - legendW),
    bodyH: Math.max(10, height - top - bottom),
    barX: labelW,
    barW,
    legendX: width - legendW + 12 * scale,
  };
}

/** Row blocks of the annotation bar: by cell type, or by subclone within the observed types. */
export function annotationBlocks(
  layout: CnvHeatmapLayout,
  by: 'type' | 'subclone',
): { label: string; start: number; count: number; reference: boolean }[] {
  const out: { label: string; start: number; count: number; reference: boolean }[] = [];
  for (const g of layout.groups) {
    if (by === 'subclone' && !g.reference && g.subclones?.length) {
      for (const s of g.subclones)
        out.push({ label: s.label, start: s.start, count: s.count, reference: false });
    } else out.push({ label: g.label, start: g.start, count: g.count, reference: g.reference });
  }
  return out;
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Draws labels, annotation bar, chromosome lines and legend on a 2D context (canvas and export). */
export function drawDecorations(
  ctx: CanvasRenderingContext2D,
  layout: CnvHeatmapLayout,
  g: HeatmapGeometry,
  by: 'type' | 'subclone',
  labels: { legend: string },
  scale = 1,
): void {
  ctx.fillStyle = '#fff';
  ctx.font = `${11 * scale}px sans-serif`;
  ctx.textBaseline = 'middle';
  const yOf = (row: number) => g.top + (row / layout.rows) * g.bodyH;
  const colours = new Map<string, string>();
  annotationBlocks(layout, by).forEach((b) => {
    if (!colours.has(b.label)) colours.set(b.label, GROUP_COLOURS[colours.size % GROUP_COLOURS.length]!);
    const y0 = yOf(b.start);
    const y1 = yOf(b.start + b.count);
    ctx.fillStyle = colours.get(b.label)!;
    ctx.fillRect(g.barX, y0, g.barW, Math.max(1, y1 - y0));
    if (y1 - y0 >= 9 * scale) {
      ctx.fillStyle = '#222';
      ctx.textAlign = 'right';
      ctx.fillText(
        b.label.length > 26 ? `${b.label.slice(0, 25)}…` : b.label,
        g.barX - 4 * scale,
        (y0 + y1) / 2,
        g.barX - 6 * scale,
      );
    }
  });
  // reference / observed separator
  const refRows = layout.groups.filter((x) => x.reference).reduce((s, x) => s + x.count, 0);
  ctx.strokeStyle = '#000';
  ctx.lineWidth = 2 * scale;
  ctx.beginPath();
  ctx.moveTo(g.barX, yOf(refRows));
  ctx.lineTo(g.left + g.bodyW, yOf(refRows));
  ctx.stroke();
  // chromosome boundaries and labels
  ctx.lineWidth = 1 * scale;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'alphabetic';
  for (const c of layout.chromosomes) {
    const x0 = g.left + (c.startBin / layout.bins) * g.bodyW;
    const x1 = g.left + ((c.startBin + c.bins) / layout.bins) * g.bodyW;
    ctx.beginPath();
    ctx.moveTo(x0, g.top);
    ctx.lineTo(x0, g.top + g.bodyH);
    ctx.stroke();
    ctx.fillStyle = '#222';
    if (x1 - x0 > 10 * scale) ctx.fillText(c.name.replace(/^chr/, ''), (x0 + x1) / 2, g.top - 8 * scale);
  }
  ctx.strokeRect(g.left, g.top, g.bodyW, g.bodyH);
  // legend: vertical colour bar vmax (top) … vmin (bottom)
  const lh = Math.min(180 * scale, g.bodyH);
  for (let i = 0; i < lh; i++) {
    const v = Math.round(255 * (1 - i / lh));
    ctx.fillStyle = `rgb(${DIVERGING[v * 3]},${DIVERGING[v * 3 + 1]},${DIVERGING[v * 3 + 2]})`;
    ctx.fillRect(g.legendX, g.top + i, 12 * scale, 1);
  }
  ctx.fillStyle = '#222';
  ctx.textAlign = 'left';
  ctx.font = `${10 * scale}px sans-serif`;
  ctx.fillText(layout.vmax.toFixed(2), g.legendX + 15 * scale, g.top + 8 * scale);
  ctx.fillText('1.00', g.legendX + 15 * scale, g.top + lh / 2);
  ctx.fillText(layout.vmin.toFixed(2), g.legendX + 15 * scale, g.top + lh);
  ctx.fillText(labels.legend, g.legendX - 4 * scale, g.top + lh + 16 * scale);
}

/** SVG of the heat map: the body as an embedded PNG (data URL), labels and lines as vectors. */
export function heatmapSvg(
  layout: CnvHeatmapLayout,
  bodyPngDataUrl: string,
  g: HeatmapGeometry,
  by: 'type' | 'subclone',
  labels: { legend: string },
): string {
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${g.width}" height="${g.height}" viewBox="0 0 ${g.width} ${g.height}">`,
  );
  parts.push(`<rect width="100%" height="100%" fill="#fff"/>`);
  parts.push(
    `<image x="${g.left}" y="${g.top}" width="${g.bodyW}" height="${g.bodyH}" preserveAspectRatio="none" xlink:href="${bodyPngDataUrl}"/>`,
  );
  const yOf = (row: number) => g.top + (row / layout.rows) * g.bodyH;
  const colours = new Map<string, string>();
  for (const b of annotationBlocks(layout, by)) {
    if (!colours.has(b.label)) colours.set(b.label, GROUP_COLOURS[colours.size % GROUP_COLOURS.length]!);
    const y0 = yOf(b.start);
    const h = Math.max(1, yOf(b.start + b.count) - y0);
    parts.push(
      `<rect x="${g.barX}" y="${y0}" width="${g.barW}" height="${h}" fill="${colours.get(b.label)}"/>`,
    );
    if (h >= 9)
      parts.push(
        `<text x="${g.barX - 4}" y="${y0 + h / 2}" font-size="11" font-family="sans-serif" text-anchor="end" dominant-baseline="middle">${esc(b.label.length > 26 ? `${b.label.slice(0, 25)}…` : b.label)}</text>`,
      );
  }
  const refRows = layout.groups.filter((x) => x.reference).reduce((s, x) => s + x.count, 0);
  parts.push(
    `<line x1="${g.barX}" x2="${g.left + g.bodyW}" y1="${yOf(refRows)}" y2="${yOf(refRows)}" stroke="#000" stroke-width="2"/>`,
  );
  for (const c of layout.chromosomes) {
    const x0 = g.left + (c.startBin / layout.bins) * g.bodyW;
    const x1 = g.left + ((c.startBin + c.bins) / layout.bins) * g.bodyW;
    parts.push(
      `<line x1="${x0}" x2="${x0}" y1="${g.top}" y2="${g.top + g.bodyH}" stroke="#000" stroke-width="1"/>`,
    );
    if (x1 - x0 > 10)
      parts.push(
        `<text x="${(x0 + x1) / 2}" y="${g.top - 8}" font-size="11" font-family="sans-serif" text-anchor="middle">${esc(c.name.replace(/^chr/, ''))}</text>`,
      );
  }
  parts.push(
    `<rect x="${g.left}" y="${g.top}" width="${g.bodyW}" height="${g.bodyH}" fill="none" stroke="#000"/>`,
  );
  const lh = Math.min(180, g.bodyH);
  parts.push(`<defs><linearGradient id="cnvlegend" x1="0" y1="0" x2="0" y2="1">`);
  for (let i = 0; i <= 8; i++) {
    const v = Math.round(255 * (1 - i / 8));
    parts.push(
      `<stop offset="${i / 8}" stop-color="rgb(${DIVERGING[v * 3]},${DIVERGING[v * 3 + 1]},${DIVERGING[v * 3 + 2]})"/>`,
    );
  }
  parts.push(`</linearGradient></defs>`);
  parts.push(`<rect x="${g.legendX}" y="${g.top}" width="12" height="${lh}" fill="url(#cnvlegend)"/>`);
  const t = (y: number, s: string) =>
    `<text x="${g.legendX + 15}" y="${y}" font-size="10" font-family="sans-serif">${esc(s)}</text>`;
  parts.push(
    t(g.top + 8, layout.vmax.toFixed(2)),
    t(g.top + lh / 2, '1.00'),
    t(g.top + lh, layout.vmin.toFixed(2)),
  );
  parts.push(
    `<text x="${g.legendX - 4}" y="${g.top + lh + 16}" font-size="10" font-family="sans-serif">${esc(labels.legend)}</text>`,
  );
  parts.push('</svg>');
  return parts.join('');
}
