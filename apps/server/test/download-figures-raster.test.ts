import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { labelsOf } from '../src/jobs/figures/labels';
import { svgToPng } from '../src/jobs/figures/render';
import { embeddingFigure, RASTER_MIN_CELLS } from '../src/jobs/figures/result-figures';
import { TEST_DB } from './support/harness';

/**
 * Issue 21: an embedding with more than RASTER_MIN_CELLS cells is drawn as one embedded PNG of its
 * points inside an SVG with vector axes and legend — never one SVG element per cell. No database:
 * runs once (the PGlite pass).
 */
describe.skipIf(TEST_DB !== 'pglite')('figures: large embeddings are rasterized', () => {
  it('draws 60,000 cells as an <image> in a small SVG whose PNG renders at twice its size', async () => {
    const n = 60_000;
    const values = new Float32Array(2 * n);
    const codes = new Uint16Array(n);
    for (let c = 0; c < n; c++) {
      const k = c % 3;
      const a = (c * 2.399963) % (2 * Math.PI);
      const r = Math.sqrt((c % 997) / 997);
      values[2 * c] = k * 4 + r * Math.cos(a);
      values[2 * c + 1] = (k % 2) * 3 + r * Math.sin(a);
      codes[c] = k;
    }
    expect(n).toBeGreaterThan(RASTER_MIN_CELLS);
    const f = await embeddingFigure(
      { name: 'umap', values },
      { key: 'cluster', labels: ['0', '1', '2'], codes },
      labelsOf('en-US'),
    );
    expect(f.svg.match(/<image /g)).toHaveLength(1);
    expect(f.svg).toContain('href="data:image/png;base64,');
    // axes, legend and title only: far fewer elements than cells, and a modest file
    expect((f.svg.match(/<(path|circle|text)\b/g) ?? []).length).toBeLessThan(200);
    expect(f.svg.length).toBeLessThan(2_000_000);
    for (const label of ['0', '1', '2']) expect(f.svg).toContain(`>${label}</text>`);
    const png = await sharp(await svgToPng(f.svg)).metadata();
    expect([png.width, png.height]).toEqual([2 * f.width, 2 * f.height]);
  });
});
