import { describe, expect, it } from 'vitest';
import type { CnvHeatmapLayout } from '../../src/cnv/contract';
import {
  annotationBlocks,
  DIVERGING,
  geometry,
  heatmapSvg,
  renderBody,
} from '../../src/cnv/web/heatmapRender';

const layout: CnvHeatmapLayout = {
  rows: 4,
  bins: 3,
  vmin: 0.8,
  vmax: 1.2,
  groups: [
    { label: 'normal', reference: true, start: 0, count: 2 },
    {
      label: 'tumour',
      reference: false,
      start: 2,
      count: 2,
      subclones: [
        { label: 'HCL_1', start: 2, count: 1 },
        { label: 'HCL_2', start: 3, count: 1 },
      ],
    },
  ],
  chromosomes: [
    { name: 'chr1', startBin: 0, bins: 2 },
    { name: 'chr2', startBin: 2, bins: 1 },
  ],
  arms: [
    { arm: '1p', startBin: 0, bins: 1 },
    { arm: '1q', startBin: 1, bins: 1 },
    { arm: '2q', startBin: 2, bins: 1 },
  ],
  genesPerBin: 5,
  totalCells: 4,
  downsampled: false,
};

describe('CNV heat map drawing', () => {
  it('centres the diverging palette at 1: blue below, white in the middle, red above', () => {
    const rgb = (b: number) => [DIVERGING[b * 3]!, DIVERGING[b * 3 + 1]!, DIVERGING[b * 3 + 2]!];
    const [r0, , b0] = rgb(0);
    const [rm, gm, bm] = rgb(128);
    const [r1, , b1] = rgb(255);
    expect(b0).toBeGreaterThan(r0); // loss: blue
    expect(r1).toBeGreaterThan(b1); // gain: red
    expect(Math.min(rm, gm, bm)).toBeGreaterThan(235); // 1.0: near white
  });

  it('averages the cell rows that share a pixel row and reads each pixel column from its bin', () => {
    // rows 0-1 neutral (128), row 2 loss on bin 0 (0), row 3 gain on bin 2 (255)
    const bytes = Uint8Array.from([128, 128, 128, 128, 128, 128, 0, 128, 128, 128, 128, 255]);
    const px = renderBody(layout, bytes, 3, 2); // 2 pixel rows: cells 0-1 and cells 2-3
    const at = (x: number, y: number) => Array.from(px.slice((y * 3 + x) * 4, (y * 3 + x) * 4 + 3));
    const white = [DIVERGING[128 * 3], DIVERGING[128 * 3 + 1], DIVERGING[128 * 3 + 2]];
    expect(at(0, 0)).toEqual(white);
    expect(at(0, 1)).toEqual([DIVERGING[64 * 3], DIVERGING[64 * 3 + 1], DIVERGING[64 * 3 + 2]]); // (0 + 128) / 2
    expect(at(2, 1)).toEqual([DIVERGING[192 * 3], DIVERGING[192 * 3 + 1], DIVERGING[192 * 3 + 2]]); // (128 + 255) / 2 rounded
  });

  it('groups rows by type or by subclone, references first, and writes an SVG with chromosome labels', () => {
    expect(annotationBlocks(layout, 'type').map((b) => b.label)).toEqual(['normal', 'tumour']);
    expect(annotationBlocks(layout, 'subclone').map((b) => b.label)).toEqual(['normal', 'HCL_1', 'HCL_2']);
    const svg = heatmapSvg(layout, 'data:image/png;base64,AA==', geometry(800, 400), 'subclone', {
      legend: 'Relative expression',
    });
    expect(svg).toContain('>1</text>');
    expect(svg).toContain('>2</text>');
    expect(svg).toContain('HCL_2');
    expect(svg.startsWith('<svg')).toBe(true);
  });
});
