import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as echarts from 'echarts';
import type { EChartsOption } from 'echarts';

/**
 * Server-side rendering of the result figures (issue 21, `figures` download): an ECharts option
 * to an SVG string (`echarts.init(null, null, { renderer: 'svg', ssr: true })`), the SVG to a PNG
 * with sharp/librsvg at PNG_SCALE (as svg-to-tiff does), and the points of a large embedding drawn
 * straight into an RGBA buffer (rasterScatter) so an SVG never holds one element per cell.
 */
export type FigureOption = EChartsOption;
export interface Figure {
  /** File stem inside the zip, e.g. `embedding/umap_by_cluster`. */
  name: string;
  title: string;
  width: number;
  height: number;
  svg: string;
}

/** PNG pixels per SVG unit (a 900 × 700 SVG gives a 1800 × 1400 PNG). */
export const PNG_SCALE = 2;
/** Text font of every figure: Noto Sans CJK renders both languages; the PNG needs it installed. */
export const FIGURE_FONT = "'Noto Sans CJK SC', 'Noto Sans SC', 'Noto Sans', 'DejaVu Sans', sans-serif";

export function renderSvg(option: FigureOption, width: number, height: number): string {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption({
      animation: false,
      backgroundColor: '#ffffff',
      textStyle: { fontFamily: FIGURE_FONT },
      ...option,
    });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

/**
 * Points the fontconfig of this process (librsvg's font lookup) at CELLCLOUD_CJK_FONT_DIR besides
 * the system fonts, as the methods PDF finds Noto Sans CJK there. Must run before sharp loads.
 */
export function useCjkFontDir(dir = process.env.CELLCLOUD_CJK_FONT_DIR): void {
  if (!dir || !existsSync(dir) || process.env.FONTCONFIG_FILE) return;
  const conf = path.join(mkdtempSync(path.join(tmpdir(), 'cellcloud-fonts-')), 'fonts.conf');
  const system = ['/etc/fonts/fonts.conf'].filter((f) => existsSync(f));
  writeFileSync(
    conf,
    `<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>${system
      .map((f) => `<include ignore_missing="yes">${f}</include>`)
      .join('')}<dir>${dir.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</dir></fontconfig>`,
  );
  process.env.FONTCONFIG_FILE = conf;
}

type Sharp = typeof import('sharp').default;
let sharpModule: Promise<Sharp> | undefined;
const loadSharp = () => (sharpModule ??= import('sharp').then((m) => m.default));

export async function svgToPng(svg: string): Promise<Uint8Array> {
  const sharp = await loadSharp();
  const out = await sharp(Buffer.from(svg, 'utf8'), { density: 72 * PNG_SCALE, limitInputPixels: 1e9 })
    .flatten({ background: '#ffffff' })
    .png({ compressionLevel: 6 })
    .toBuffer();
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

const hexRgb = (hex: string): [number, number, number] => {
  const n = parseInt(hex.replace('#', '').slice(0, 6), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
};

/**
 * Draws points (x, y already in pixels of a width × height box) as filled discs of `radius` into
 * RGBA, in the given order (later points on top), and encodes it as a PNG data URI for an SVG
 * <image>: the plot of a large embedding without one SVG element per cell.
 */
export async function rasterScatter(
  width: number,
  height: number,
  points: { x: Float32Array; y: Float32Array; colour: Uint16Array },
  colours: string[],
  radius: number,
): Promise<string> {
  const rgba = new Uint8Array(width * height * 4);
  const rgb = colours.map(hexRgb);
  const r = Math.max(0.5, radius);
  const r2 = r * r;
  const span = Math.ceil(r);
  for (let i = 0; i < points.x.length; i++) {
    const cx = points.x[i]!;
    const cy = points.y[i]!;
    if (!Number.isFinite(cx) || !Number.isFinite(cy)) continue;
    const [cr, cg, cb] = rgb[points.colour[i]! % rgb.length]!;
    for (let dy = -span; dy <= span; dy++) {
      const py = Math.round(cy) + dy;
      if (py < 0 || py >= height) continue;
      for (let dx = -span; dx <= span; dx++) {
        const px = Math.round(cx) + dx;
        if (px < 0 || px >= width || dx * dx + dy * dy > r2) continue;
        const o = (py * width + px) * 4;
        rgba[o] = cr;
        rgba[o + 1] = cg;
        rgba[o + 2] = cb;
        rgba[o + 3] = 255;
      }
    }
  }
  const sharp = await loadSharp();
  const png = await sharp(rgba, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

/** Inserts an <image> covering (x, y, w, h) just before the SVG's closing tag. */
export function withImage(svg: string, href: string, x: number, y: number, w: number, h: number): string {
  const end = svg.lastIndexOf('</svg>');
  const image = `<image x="${x}" y="${y}" width="${w}" height="${h}" preserveAspectRatio="none" href="${href}" xlink:href="${href}"/>`;
  return `${svg.slice(0, end)}${image}${svg.slice(end)}`;
}
