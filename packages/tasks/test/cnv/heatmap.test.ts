import { definition as cnvTask } from '../../src/cnv/contract';
import { describe, expect, it } from 'vitest';
import { cnvAccumulator } from '../../src/cnv/engine/accumulate';
import type { CnvCells } from '../../src/cnv/engine/cells';
import { cnvHeatmap, HEATMAP_MAX_ROWS } from '../../src/cnv/engine/heatmap';

/**
 * The CNV heat map above HEATMAP_MAX_ROWS analysed cells (a path the real-data tests do not
 * reach): the accumulator reduces 60,000 cells × 300 genes, and the heat map keeps a seeded,
 * per-group proportional subsample whose layout matches its bytes.
 */
const p = cnvTask.params.parse({ groupBy: 'cell_type', reference: ['ref'] });
const nRef = 10_000;
const nObs = 50_000;
const nA = nRef + nObs;
const G = 300;
const armOfGene = Array.from({ length: G }, (_, k) => (k < 100 ? '1p' : k < 200 ? '1q' : '2p'));

function setup() {
  const { onKept, emit, acc } = cnvAccumulator(nA, nRef, armOfGene, p);
  onKept(Int32Array.from({ length: G }, (_, k) => k));
  const v = new Float64Array(G);
  for (let pos = 0; pos < nA; pos++) {
    // references at 1 (± a little), observed cells lose 1p
    for (let k = 0; k < G; k++) v[k] = 1 + ((pos * 7 + k) % 5) * 0.002 - (pos >= nRef && k < 100 ? 0.2 : 0);
    emit(pos, v);
  }
  const types = Array.from({ length: nA }, (_, c) =>
    c < nRef ? 'ref' : c < nRef + 30_000 ? 'tumA' : 'tumB',
  );
  const cells: CnvCells = {
    types,
    sampleOf: new Array<string>(nA).fill('all'),
    hasSample: false,
    cells: Uint32Array.from({ length: nA }, (_, i) => i),
    nRef,
    nRefAvailable: nRef,
    refTypes: ['ref'],
    refGroups: [Uint32Array.from({ length: nRef }, (_, i) => i)],
    observed: Array.from({ length: nObs }, (_, i) => nRef + i),
    observedTypes: ['tumA', 'tumB'],
  };
  const subclones = types.map((t, i) => (t === 'ref' ? t : i % 3 ? 'HCL_1' : 'HCL_2'));
  const rowRank = Float64Array.from({ length: nA }, (_, i) => nA - i);
  return { acc, cells, subclones, rowRank };
}

describe('cnv heat map above HEATMAP_MAX_ROWS cells', () => {
  it('keeps a proportional seeded subsample whose groups, subclones and bytes agree', () => {
    const { acc, cells, subclones, rowRank } = setup();
    expect(acc.nBins).toBe(G); // 300 genes → one gene per bin
    expect(acc.armNames).toEqual(['1p', '1q', '2p']);
    const { bytes, layout } = cnvHeatmap(cells, subclones, rowRank, acc, 7);
    expect(nA).toBeGreaterThan(HEATMAP_MAX_ROWS);
    expect(layout.downsampled).toBe(true);
    expect(layout.totalCells).toBe(nA);
    const frac = HEATMAP_MAX_ROWS / nA;
    expect(layout.groups.map((g) => [g.label, g.reference, g.count])).toEqual([
      ['ref', true, Math.floor(nRef * frac)],
      ['tumA', false, Math.floor(30_000 * frac)],
      ['tumB', false, Math.floor(20_000 * frac)],
    ]);
    expect(layout.rows).toBe(layout.groups.reduce((s, g) => s + g.count, 0));
    expect(bytes.length).toBe(layout.rows * layout.bins);
    let start = 0;
    for (const g of layout.groups) {
      expect(g.start).toBe(start);
      start += g.count;
      if (g.subclones) {
        expect(g.subclones.map((s) => s.label)).toEqual(['HCL_1', 'HCL_2']);
        expect(g.subclones.reduce((s, x) => s + x.count, 0)).toBe(g.count);
      }
    }
    expect(layout.arms.map((a) => [a.arm, a.bins])).toEqual([
      ['1p', 100],
      ['1q', 100],
      ['2p', 100],
    ]);
    expect(layout.chromosomes.map((c) => [c.name, c.bins])).toEqual([
      ['chr1', 200],
      ['chr2', 100],
    ]);
    // colours: references mid-scale everywhere, observed rows darker on 1p than on 1q
    const mean = (row0: number, rows: number, b0: number, b1: number) => {
      let s = 0;
      for (let r = row0; r < row0 + rows; r++) for (let b = b0; b < b1; b++) s += bytes[r * G + b]!;
      return s / (rows * (b1 - b0));
    };
    const [ref, tumA] = layout.groups;
    expect(Math.abs(mean(ref!.start, ref!.count, 0, G) - 128)).toBeLessThan(8);
    expect(mean(tumA!.start, tumA!.count, 0, 100)).toBeLessThan(
      mean(tumA!.start, tumA!.count, 100, 200) - 40,
    );
    // the subsample is fixed by the seed and changes with it
    const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.length).equals(b);
    expect(same(cnvHeatmap(cells, subclones, rowRank, acc, 7).bytes, bytes)).toBe(true);
    const other = cnvHeatmap(cells, subclones, rowRank, acc, 8);
    expect(other.layout.rows).toBe(layout.rows);
    expect(same(other.bytes, bytes)).toBe(false);
  });
});
