import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { definition as vdjTask, vdjParams, type VdjParams } from '../../src/vdj/contract';
import type { CellColumn } from '@cellcloud/formats/matrix';
import { sharedData } from '@cellcloud/testkit';
import { isTaskError, MemorySink, resultHandleFromDataset } from '@cellcloud/engine/tasks/kit';
import type { ResultHandle } from '@cellcloud/engine/tasks/kit';
import { engine as vdjEngine } from '../../src/vdj/engine';
import { diversityOf } from '../../src/vdj/engine/diversity';

/**
 * Issue 19: the V(D)J task on the two real 10x contig files. The expectations are computed in
 * the test straight from the CSV text (a plain independent pass), never hard-coded.
 */
const tcrFile = sharedData('vdj_10x/vdj_nextgem_hs_pbmc3_t_filtered_contig_annotations.csv.gz');
const bcrFile = sharedData('vdj_10x/sc5p_v2_hs_melanoma_10k_b_filtered_contig_annotations.csv.gz');

/** A GEX-like result whose cells are the given barcodes (+ extra cells without receptor), 3 clusters. */
function gexResult(barcodes: string[], opts: { samples?: string[] } = {}): ResultHandle {
  const n = barcodes.length;
  const counts = {
    nGenes: 1,
    nCells: n,
    indptr: Float64Array.from({ length: n + 1 }, (_, i) => i),
    indices: new Uint32Array(n),
    data: new Float32Array(n).fill(1),
  };
  const columns: Record<string, CellColumn> = {
    cluster: { kind: 'categorical', values: barcodes.map((_, i) => String(i % 3)) },
  };
  if (opts.samples) columns['Sample ID'] = { kind: 'categorical', values: opts.samples };
  return resultHandleFromDataset(
    { counts, genes: { ids: ['G'], symbols: ['G'] }, cells: { barcodes, columns }, embeddings: {} },
    { species: 'human' },
  );
}

/** Independent reading of the CSV: header index, rows as records. */
function rowsOf(bytes: Uint8Array): Record<string, string>[] {
  const [head, ...lines] = new TextDecoder().decode(bytes).trim().split('\n');
  const cols = head!.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i]!, v])));
}

async function run(
  result: ResultHandle,
  uploads: Record<string, Uint8Array>,
  params: Partial<VdjParams> = {},
) {
  const sink = new MemorySink();
  const summary = await vdjEngine.run({
    result,
    params: vdjParams.parse(params),
    onProgress: () => {},
    sink,
    resources: {
      readBytes: async () => new Uint8Array(),
      readText: async () => '',
      exists: async () => false,
      list: async () => [],
    },
    uploads,
  });
  expect(vdjTask.summary.safeParse(summary).success).toBe(true);
  return { summary, sink };
}

const col = (sink: MemorySink, table: string, name: string) => {
  const t = sink.tables.get(table)!;
  const i = t.columns.indexOf(name);
  return t.rows.map((r) => r[i]);
};

describe.skipIf(!tcrFile)('V(D)J on the 10x PBMC TCR contigs', () => {
  const gz = readFileSync(tcrFile!);
  const rows = rowsOf(gunzipSync(gz));
  const barcodes = [...new Set(rows.map((r) => r.barcode!))];

  it('per-chain counts, paired cells and the top clonotypes equal a plain pass over the CSV', async () => {
    const extra = ['AAAAAAAAAAAAAAAA-1', 'CCCCCCCCCCCCCCCC-1']; // GEX cells without a receptor
    const result = gexResult([...barcodes, ...extra]);
    const { summary, sink } = await run(result, { contigs: new Uint8Array(gz) });

    // independent expectation: productive TRA/TRB contigs; per cell and chain best by reads, then UMIs
    const prod = rows.filter(
      (r) => r.productive!.toLowerCase() === 'true' && (r.chain === 'TRA' || r.chain === 'TRB'),
    );
    expect(summary.productiveContigs).toBe(prod.length);
    const best = new Map<string, { tra: Record<string, string>[]; trb: Record<string, string>[] }>();
    for (const r of prod) {
      const e = best.get(r.barcode!) ?? { tra: [], trb: [] };
      (r.chain === 'TRA' ? e.tra : e.trb).push(r);
      best.set(r.barcode!, e);
    }
    const pick = (list: Record<string, string>[]) => {
      if (list.length === 0) return null;
      const sorted = [...list].sort(
        (a, b) => Number(b.reads) - Number(a.reads) || Number(b.umis) - Number(a.umis),
      );
      const [x, y] = sorted;
      if (y && x!.reads === y.reads && x!.umis === y.umis) return 'tie';
      return x!;
    };
    let paired = 0;
    let ambiguous = 0;
    const cloneCount = new Map<string, number>();
    const finalChains = new Map<string, number>();
    const gene = (r: Record<string, string>) =>
      [r.v_gene, r.d_gene, r.j_gene].filter((g) => g && g !== 'None').join('-');
    for (const e of best.values()) {
      const a = pick(e.tra);
      const b = pick(e.trb);
      if (a === 'tie' || b === 'tie') {
        ambiguous++;
        continue;
      }
      if (!a || !b) continue;
      paired++;
      finalChains.set('TRA', (finalChains.get('TRA') ?? 0) + 1);
      finalChains.set('TRB', (finalChains.get('TRB') ?? 0) + 1);
      const ct = `${gene(a)}_${gene(b)}`;
      cloneCount.set(ct, (cloneCount.get(ct) ?? 0) + 1);
    }
    expect(summary.pairedCells).toBe(paired);
    expect(summary.ambiguousCells).toBe(ambiguous);
    expect(summary.cellsKept).toBe(paired);
    expect(summary.cellsMatched).toBe(barcodes.length);
    const qc = sink.tables.get('chain_qc')!.rows.filter((r) => r[1] === 'final');
    expect(Object.fromEntries(qc.map((r) => [r[2], r[3]]))).toEqual(Object.fromEntries(finalChains));
    const rawTra = rows.filter((r) => r.chain === 'TRA').length;
    expect(sink.tables.get('chain_qc')!.rows.find((r) => r[1] === 'raw' && r[2] === 'TRA')![3]).toBe(rawTra);
    const top = [...cloneCount.entries()].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).slice(0, 5);
    expect(summary.top).toEqual(top.map(([clonotype, cells]) => ({ clonotype, cells })));

    // per-cell columns: classes by clone size (Single 1, Medium 2–10, Large ≥ 11), None without receptor
    const cls = sink.cells.get('vdj_class')!;
    expect(cls.kind).toBe('categorical');
    const values = cls.values as string[];
    expect(values.slice(-2)).toEqual(['None', 'None']);
    const cellsTable = sink.tables.get('cells')!;
    const fi = cellsTable.columns.indexOf('frequency');
    const ci = cellsTable.columns.indexOf('class');
    for (const r of cellsTable.rows) {
      const f = r[fi] as number;
      expect(r[ci]).toBe(f === 1 ? 'Single' : f <= 10 ? 'Medium' : 'Large');
    }
    expect(summary.classes.Single! + (summary.classes.Medium ?? 0) + (summary.classes.Large ?? 0)).toBe(
      paired,
    );
    // class share per cluster includes the cells without a clonotype
    const byGroup = sink.tables.get('class_by_group')!;
    const none = byGroup.rows.filter((r) => r[1] === 'None').reduce((n, r) => n + (r[2] as number), 0);
    expect(none).toBe(result.nCells - paired);
    // diversity per sample uses the same clone sizes
    const d = diversityOf([...cloneCount.values()]);
    expect(col(sink, 'diversity', 'chao1')[0]).toBeCloseTo(d.chao1, 9);
    expect(col(sink, 'diversity', 'clonotypes')[0]).toBe(cloneCount.size);
  });

  it('keeps single-chain cells when pairedOnly is off', async () => {
    const { summary } = await run(
      gexResult(barcodes),
      { contigs: new Uint8Array(gz) },
      { pairedOnly: false },
    );
    expect(summary.cellsKept).toBeGreaterThan(summary.pairedCells);
  });

  it('refuses wrong files with clear messages', async () => {
    const result = gexResult(barcodes);
    const fail = async (bytes: Uint8Array, key: string) => {
      const e = await run(result, { contigs: bytes }).then(
        () => null,
        (x: unknown) => x,
      );
      expect(isTaskError(e), String(e)).toBe(true);
      expect((e as { key: string }).key).toBe(key);
      expect(vdjTask.messages['en-US'][key]).toBeTruthy();
      expect(vdjTask.messages['zh-CN'][key]).toBeTruthy();
    };
    const mtx = sharedData('pbmc3k/10x/matrix.mtx.gz');
    if (mtx) await fail(new Uint8Array(readFileSync(mtx)), 'vdj.notContigs');
    const text = new TextDecoder().decode(gunzipSync(gz));
    const noProductive = text.replace(/,productive,/, ',prod,');
    await fail(new TextEncoder().encode(noProductive), 'vdj.missingColumns');
    const other = gexResult(['NOTACELL-1', 'NOTACELL-2']);
    const e = await run(other, { contigs: new Uint8Array(gz) }).catch((x: unknown) => x);
    expect((e as { key?: string }).key).toBe('vdj.noMatch');
    const none = await run(result, {}).catch((x: unknown) => x);
    expect((none as { key?: string }).key).toBe('vdj.noContigs');
  });
});

describe.skipIf(!bcrFile)('V(D)J on the 10x melanoma BCR contigs in a two-sample result', () => {
  it('matches <sample>_<barcode> cells with the -1 suffix stripped and treats IGK like IGL', async () => {
    const gz = readFileSync(bcrFile!);
    const rows = rowsOf(gunzipSync(gz));
    const barcodes = [...new Set(rows.map((r) => r.barcode!))];
    // the analysis stored the cells as melanoma_<barcode without -1>, plus another sample
    const cells = [...barcodes.map((b) => `melanoma_${b.replace(/-1$/, '')}`), 'other_AAAC', 'other_AAAG'];
    const samples = [...barcodes.map(() => 'melanoma'), 'other', 'other'];
    const { summary, sink } = await run(gexResult(cells, { samples }), { contigs: new Uint8Array(gz) });
    expect(summary.receptor).toBe('BCR');
    expect(summary.chains).toEqual(['IGH', 'IGL']);
    expect(summary.cellsMatched).toBe(barcodes.length);
    expect(sink.tables.get('matching')!.rows[0]!.slice(1)).toEqual([
      'melanoma',
      rows.length,
      barcodes.length,
      barcodes.length,
      0,
    ]);
    const light = new Set(rows.filter((r) => r.chain === 'IGK' || r.chain === 'IGL').map((r) => r.barcode));
    const heavy = new Set(rows.filter((r) => r.chain === 'IGH').map((r) => r.barcode));
    expect(summary.pairedCells + summary.ambiguousCells).toBeLessThanOrEqual(
      [...heavy].filter((b) => light.has(b)).length,
    );
    expect(summary.samples).toEqual(['melanoma']);
  });
});

describe('diversity indices (immunarch repDiversity definitions)', () => {
  it('equal their formulas on a hand-made repertoire', () => {
    const d = diversityOf([3, 2, 1, 1]);
    const p = [3, 2, 1, 1].map((x) => x / 7);
    expect(d.clonotypes).toBe(4);
    expect(d.cells).toBe(7);
    expect(d.chao1).toBeCloseTo(4 + (2 * 2) / (2 * 1), 12); // S + F1²/(2 F2)
    expect(d.hill_q0).toBe(4);
    expect(d.hill_q1).toBeCloseTo(Math.exp(-p.reduce((s, x) => s + x * Math.log(x), 0)), 12);
    expect(d.hill_q2).toBeCloseTo(49 / 15, 12);
    expect(d.inv_simpson).toBeCloseTo(49 / 15, 12);
    expect(d.d50).toBe(2); // 3 + 2 of 7 cells ≥ 50 %
    expect(diversityOf([1, 1, 1]).chao1).toBe(3 + (3 * 2) / 2); // no doubletons: bias-corrected
    expect(diversityOf([10]).d50).toBe(1);
  });
});
