import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readDataset } from '@cellcloud/formats';
import { filesBundle } from '@cellcloud/formats/node-sources';
import type { Dataset } from '@cellcloud/formats/matrix';
import { hasSharedData, PBMC3K_LINEAGES, sharedData } from '@cellcloud/testkit';
import { majorityVote, transferPublicLabels, UNASSIGNED } from '../src/label-transfer';
import { runAnalysis } from '../src/run-analysis';
import { subsetCells } from '../src/sparse';

describe('label transfer: majority vote', () => {
  it('takes the most frequent label, breaks ties by the nearest, ignores "unknown", leaves weak majorities unassigned', () => {
    const ref = ['T', 'T', 'B', 'B', 'unknown', 'NK'];
    // three queries, k = 4 (neighbour indices into ref, nearest first)
    const nb = Int32Array.from([0, 1, 2, 5, 2, 0, 3, 1, 4, 4, 4, 5]);
    const v = majorityVote(nb, 4, ref, 0.5);
    expect(v.labels).toEqual(['T', 'B', UNASSIGNED]);
    expect(Array.from(v.confidence)).toEqual([0.5, 0.5, 0.25]);
    expect(majorityVote(nb, 4, ref, 0.6).labels).toEqual([UNASSIGNED, UNASSIGNED, UNASSIGNED]);
  });
});

const IFNB = 'ifnb_kang2018_subset';
const TENX = ['matrix.mtx.gz', 'genes.tsv.gz', 'barcodes.tsv.gz'];
const have = hasSharedData(
  ...TENX.map((f) => `${IFNB}/${f}`),
  ...TENX.map((f) => `pbmc3k/10x/${f}`),
  'pbmc3k/pbmc3k_seurat_labels.csv',
  'gene_ids/human_GRCh38-2024-A_features.tsv.gz',
);

const load = async (dir: string) =>
  readDataset(
    await filesBundle(
      dir,
      TENX.map((f) => sharedData(`${dir}/${f}`) as string),
    ),
  );

/**
 * The truth of the user's cells from their own counts: the coarse type whose canonical markers a
 * cell expresses while it expresses none of the other lineages' (T: CD3D/CD3E, B: MS4A1/CD79A,
 * NK: GNLY/NKG7 without CD3, monocyte: LYZ/CD14 without FCER1A). Ambiguous cells stay untyped.
 */
function markerTruth(d: Dataset): (string | undefined)[] {
  const row = new Map(d.genes.symbols.map((s, g) => [s, g]));
  const genes = ['CD3D', 'CD3E', 'MS4A1', 'CD79A', 'GNLY', 'NKG7', 'LYZ', 'CD14', 'FCER1A', 'PPBP'];
  const m = d.counts;
  return Array.from({ length: m.nCells }, (_, c) => {
    const x: Record<string, number> = Object.fromEntries(genes.map((g) => [g, 0]));
    for (let p = m.indptr[c]!; p < m.indptr[c + 1]!; p++)
      for (const g of genes) if (row.get(g) === m.indices[p]) x[g] = m.data[p]!;
    const t = x.CD3D! + x.CD3E!;
    const b = x.MS4A1! + x.CD79A!;
    const nk = x.GNLY! + x.NKG7!;
    const mono = x.LYZ! + x.CD14!;
    if (x.PPBP! > 0) return undefined;
    if (t >= 2 && b === 0 && mono === 0) return 'T cell';
    if (b >= 2 && t === 0 && mono <= 1 && nk === 0) return 'B cell';
    if (nk >= 4 && t === 0 && b === 0 && mono === 0) return 'NK cell';
    if (mono >= 4 && t === 0 && b === 0 && nk === 0 && x.FCER1A === 0) return 'Monocyte';
    return undefined;
  });
}

describe.skipIf(!have)('label transfer: public pbmc3k → the ifnb stim half (Harmony)', () => {
  it('transfers annot_full onto the user cells with ≥ 90 % agreement on the marker-typed coarse types', async () => {
    // the public dataset as ingested: GRCh38 Ensembl ids (symbols kept), annot_full / annot_sub levels
    const pbmc = await load('pbmc3k/10x');
    const labels = new Map(
      readFileSync(sharedData('pbmc3k/pbmc3k_seurat_labels.csv')!, 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(',') as [string, string]),
    );
    const ensembl = new Map<string, string>();
    for (const line of gunzipSync(readFileSync(sharedData('gene_ids/human_GRCh38-2024-A_features.tsv.gz')!))
      .toString('utf8')
      .split('\n')) {
      const [id, sym] = line.split('\t');
      if (id && sym && !ensembl.has(sym)) ensembl.set(sym, id);
    }
    // (a symbol without a GRCh38 id gets a placeholder Ensembl-shaped id, still merged on its symbol)
    pbmc.genes = {
      ids: pbmc.genes.symbols.map((s, g) => ensembl.get(s) ?? `ENSG${String(90_000_000_000 + g)}`),
      symbols: pbmc.genes.symbols,
    };
    const sub = pbmc.cells.barcodes.map((b) => labels.get(b) ?? 'unknown');
    pbmc.cells.columns = {
      annot_sub: { kind: 'categorical', values: sub },
      annot_full: { kind: 'categorical', values: sub.map((l) => PBMC3K_LINEAGES[l] ?? 'unknown') },
    };
    // the user's sample: the IFN-β stimulated half of Kang 2018 (symbols only, no labels)
    const ifnb = await load(IFNB);
    const stimCells = ifnb.cells.barcodes.flatMap((b, i) => (b.startsWith('stim_') ? [i] : []));
    const stim: Dataset = {
      ...ifnb,
      counts: subsetCells(ifnb.counts, stimCells),
      cells: { barcodes: stimCells.map((c) => ifnb.cells.barcodes[c]!), columns: {} },
    };
    const truth = markerTruth(stim);
    const truthByBarcode = new Map(stim.cells.barcodes.map((b, i) => [`stim_${b}`, truth[i]]));

    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const result = await runAnalysis(
      [
        { name: 'pbmc3k_public', dataset: pbmc },
        { name: 'stim', dataset: stim },
      ],
      {
        doubletDetectionAndRemoval: false,
        batchEffectRemoval: { enabled: true, method: 'harmony' },
        pcValue: 20,
      },
    );
    const summary = transferPublicLabels(result, ['pbmc3k_public'])!;
    const cpu = process.cpuUsage(cpu0);
    expect(result.qc.batchCorrection).toBe('harmony');
    expect(summary.queryCells).toBeGreaterThan(800);
    // merged on symbols: the shared genes of the two samples are one row each
    expect(result.geneIds.length).toBeLessThan(pbmc.genes.ids.length + stim.genes.ids.length - 5000);

    const sample = result.obs['Sample ID']!.values as string[];
    const full = result.obs.annot_full!.values as string[];
    const conf = result.obs.annot_full_confidence!.values as Float64Array;
    const source = result.obs.annotation_source!.values as string[];
    let typed = 0;
    let agree = 0;
    let unassigned = 0;
    const miss = new Map<string, number>();
    result.barcodes.forEach((b, i) => {
      if (sample[i] !== 'stim') {
        expect(source[i]).toBe('public');
        expect(Number.isNaN(conf[i])).toBe(true);
        return;
      }
      expect(source[i]).toBe('transferred');
      expect(conf[i]).toBeGreaterThan(0);
      if (full[i] === UNASSIGNED) unassigned++;
      const want = truthByBarcode.get(b);
      if (!want) return;
      typed++;
      if (full[i] === want) agree++;
      else miss.set(`${want}→${full[i]}`, (miss.get(`${want}→${full[i]}`) ?? 0) + 1);
    });
    const share = agree / typed;
    console.info(
      `label transfer pbmc3k → ifnb stim: ${agree}/${typed} marker-typed cells agree (${(100 * share).toFixed(1)} %), ` +
        `${unassigned} unassigned of ${summary.queryCells}; pipeline+transfer ${((performance.now() - t0) / 1000).toFixed(1)} s wall, ` +
        `${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU; disagreements ${JSON.stringify(Object.fromEntries(miss))}`,
    );
    expect(typed).toBeGreaterThan(300);
    expect(share).toBeGreaterThanOrEqual(0.9);
    // the finer level is transferred too, with T-cell subtypes on T cells
    const subT = result.obs.annot_sub!.values as string[];
    const tSub = new Set(['Naive CD4 T', 'Memory CD4 T', 'CD8 T', UNASSIGNED]);
    result.barcodes.forEach((_, i) => {
      if (sample[i] === 'stim' && full[i] === 'T cell' && conf[i]! >= 0.8)
        expect(tSub.has(subT[i]!)).toBe(true);
    });
  }, 600_000);
});
