import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { readH5adBytes } from '@cellcloud/formats';
import { SHARED_DATA_DIR, sharedData } from '@cellcloud/testkit';
import { nodeResourceReader } from '@cellcloud/engine/cli/node-resources';
import { isTaskError, MemorySink, resultHandleFromDataset } from '@cellcloud/engine/tasks/kit';
import type { ResultHandle } from '@cellcloud/engine/tasks/kit';
import { definition as interactionTask, type InteractionParams } from '../../src/interaction/contract';
import {
  engine as interactionEngineTask,
  runInteraction,
  selectInteractionCells,
} from '../../src/interaction/engine';
import { loadCpdbDatabase, type CpdbDatabase } from '../../src/interaction/engine/database';
import { shuffleLabels } from '../../src/interaction/engine/permute-kernel';
import { LONG_TABLE_COLUMNS } from '../../src/interaction/engine/results';

const H5AD = sharedData('pbmc3k/pbmc3k.h5ad');
const LABELS = sharedData('pbmc3k/pbmc3k_seurat_labels.csv');
const CPDB = sharedData('cellphonedb_v5/interaction_input.csv.gz');
const GRCH38 = sharedData('gene_ids/human_GRCh38-2024-A_features.tsv.gz');
const resources = nodeResourceReader(SHARED_DATA_DIR);

async function run(result: ResultHandle, params: object, threads?: number) {
  const sink = new MemorySink();
  const out = await runInteraction(
    { result, params: interactionTask.params.parse(params), onProgress: () => {}, sink, resources },
    { threads },
  );
  return { ...out, sink };
}

/**
 * Brute force, written independently of the fast path: per interaction, partner values per cell
 * straight from the normalized matrix (genes of a protein averaged, a complex's subunits kept
 * apart), per-type means and expressing fractions by plain loops, the minimum over subunits, and
 * the p-value from the same label shuffles (shuffleLabels with the task's seed).
 */
function bruteForce(
  db: CpdbDatabase,
  result: ResultHandle,
  params: InteractionParams,
  partners: [number, number],
  typeNames: string[],
) {
  const sel = selectInteractionCells(result, params);
  const norm = result.normalized();
  const n = sel.cells.length;
  const valueOfGene = (g: number) => {
    const v = new Float64Array(n);
    sel.cells.forEach((c, j) => {
      for (let k = norm.indptr[c]!; k < norm.indptr[c + 1]!; k++)
        if (norm.indices[k] === g) v[j] = norm.data[k]!;
    });
    return v;
  };
  const proteinValues = (p: number) => {
    const genes: number[] = [];
    for (const row of db.genes) {
      if (row.protein !== p) continue;
      result.genes.symbols.forEach((s, g) => s === row.hgncSymbol && genes.push(g));
    }
    const v = new Float64Array(n);
    for (const g of genes) {
      const x = valueOfGene(g);
      for (let j = 0; j < n; j++) v[j]! += x[j]! / genes.length;
    }
    return Float32Array.from(v);
  };
  const subunits = (id: number) =>
    (db.multidata[id]!.isComplex ? db.complexes.get(id)! : [id]).map(proteinValues);
  const [A, B] = partners.map(subunits) as [Float32Array[], Float32Array[]];
  const codes = Int32Array.from(sel.labels, (l) => typeNames.indexOf(l));
  const nT = typeNames.length;
  const stat = (values: Float32Array[], lab: Int32Array, fraction: boolean) => {
    const out = new Float64Array(nT).fill(Infinity);
    for (const v of values) {
      const sum = new Float64Array(nT);
      const size = new Float64Array(nT);
      for (let j = 0; j < n; j++) {
        sum[lab[j]!]! += fraction ? (v[j]! > 0 ? 1 : 0) : v[j]!;
        size[lab[j]!]!++;
      }
      for (let t = 0; t < nT; t++) out[t] = Math.min(out[t]!, sum[t]! / size[t]!);
    }
    return out;
  };
  const pairMeans = (lab: Int32Array) => {
    const x = stat(A, lab, false);
    const y = stat(B, lab, false);
    const m: number[] = [];
    for (let a = 0; a < nT; a++)
      for (let b = 0; b < nT; b++) m.push(x[a]! > 0 && y[b]! > 0 ? (x[a]! + y[b]!) / 2 : 0);
    return m;
  };
  const real = pairMeans(codes);
  const fa = stat(A, codes, true);
  const fb = stat(B, codes, true);
  const greater = new Array<number>(nT * nT).fill(0);
  const shuffled = new Int32Array(n);
  for (let p = 0; p < params.iterations; p++) {
    shuffleLabels(codes, params.seed, p, shuffled);
    pairMeans(shuffled).forEach((m, q) => {
      if (m > real[q]!) greater[q]!++;
    });
  }
  const pvalues = real.map((m, q) => {
    const a = Math.floor(q / nT);
    const b = q % nT;
    return m === 0 || !(fa[a]! > params.threshold) || !(fb[b]! > params.threshold)
      ? 1
      : greater[q]! / params.iterations;
  });
  return { real, pvalues };
}

describe.skipIf(!H5AD || !LABELS || !CPDB)('interaction (CellPhoneDB statistical method) on pbmc3k', () => {
  let result: ResultHandle;
  let db: CpdbDatabase;
  beforeAll(async () => {
    const ds = await readH5adBytes(new Uint8Array(await readFile(H5AD!)), path.basename(H5AD!));
    const rows = (await readFile(LABELS!, 'utf8')).trim().split('\n').slice(1);
    const labelOf = new Map(rows.map((l) => l.split(',') as [string, string]));
    const values = ds.cells.barcodes.map((b) => labelOf.get(b) ?? 'NA');
    result = resultHandleFromDataset(ds, {
      species: 'human',
      extraObs: { tutorial_label: { kind: 'categorical', values } },
    });
    db = await loadCpdbDatabase(resources);
  });

  it('runs with the tutorial labels: CellPhoneDB tables, the product long table, count network, top 30', async () => {
    const { summary, sink } = await run(result, { groupBy: 'tutorial_label' }, 2);
    expect(summary.geneIdKind).toBe('hgnc_symbol');
    expect(summary.cellTypes.map((t) => t.name)).toContain('CD14+ Mono');
    expect(summary.cellTypes.find((t) => t.name === 'Naive CD4 T')).toEqual({
      name: 'Naive CD4 T',
      cells: 697,
      sampled: 500,
    });
    expect(summary.pairs).toHaveLength(81);
    expect(summary.nInteractions).toBeGreaterThan(100);
    expect(summary.top30).toHaveLength(30);
    const long = sink.tables.get('interactions')!;
    expect(long.columns).toEqual([...LONG_TABLE_COLUMNS]);
    expect(long.rows).toHaveLength(summary.nSignificant);
    expect(long.rows.every((r) => (r[6] as number) <= 0.05)).toBe(true);
    const sig = sink.tables.get('significant_means')!;
    const ranks = sig.rows.map((r) => r[sig.columns.indexOf('rank')] as number);
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
    expect(sink.tables.get('top30')!.rows.map((r) => r[1])).toEqual(sig.rows.slice(0, 30).map((r) => r[1]));
    const net = sink.tables.get('count_network')!;
    expect(net.rows.reduce((s, r) => s + (r[2] as number), 0)).toBe(summary.nSignificant);
    // CCL5 (T/NK) towards monocytes' CCR1 is a classic PBMC chemokine call
    const meta = sink.datas.get('interactions.json') as {
      interactions: { pair: string; categories: string[] }[];
    };
    expect(
      meta.interactions.some((i) => i.pair.startsWith('CCL') && i.categories.includes('chemokines')),
    ).toBe(true);
    for (const t of ['means', 'pvalues', 'deconvoluted'])
      expect(sink.tables.get(t)!.rows.length).toBeGreaterThan(0);
  });

  it('means and p-values equal a brute-force computation for a handful of interactions (complexes included)', async () => {
    const params = interactionTask.params.parse({ groupBy: 'tutorial_label', iterations: 200, seed: 7 });
    const { result: fast } = await run(result, params, 2);
    const nP = fast.pairs.length;
    const picks = [
      fast.interactions.findIndex((it) => it.interactingPair === 'CCL5_CCR1'),
      fast.interactions.findIndex((it) => it.a.isComplex || it.b.isComplex),
      fast.interactions.findIndex((it) => it.interactingPair.includes('integrin')),
      0,
      Math.floor(fast.interactions.length / 2),
      fast.interactions.length - 1,
    ].filter((i) => i >= 0);
    expect(picks.length).toBeGreaterThanOrEqual(5);
    let inter = 0;
    let union = 0;
    for (const i of picks) {
      const it = fast.interactions[i]!;
      const brute = bruteForce(db, result, params, [it.a.id, it.b.id], fast.typeNames);
      for (let q = 0; q < nP; q++) {
        const a = fast.means[i * nP + q]!;
        const b = brute.real[q]!;
        expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-6 * Math.max(Math.abs(a), Math.abs(b)));
        expect(fast.pvalues[i * nP + q]).toBe(brute.pvalues[q]);
        const sf = fast.pvalues[i * nP + q]! <= 0.05;
        const sb = brute.pvalues[q]! <= 0.05;
        if (sf && sb) inter++;
        if (sf || sb) union++;
      }
    }
    expect(union).toBeGreaterThan(0);
    expect(inter / union).toBe(1);
  });

  it('the same seed gives identical output whatever the thread count; another seed changes the p-values only (no sampling at 1000 per type)', async () => {
    const params = { groupBy: 'tutorial_label', iterations: 100, seed: 3, cellsPerType: 1000 };
    const one = await run(result, params, 1);
    const two = await run(result, params, 2);
    expect(Array.from(two.result.pvalues)).toEqual(Array.from(one.result.pvalues));
    expect(two.sink.tables.get('significant_means')).toEqual(one.sink.tables.get('significant_means'));
    const other = await run(result, { ...params, seed: 4 }, 2);
    expect(Array.from(other.result.means)).toEqual(Array.from(one.result.means));
    expect(Array.from(other.result.pvalues)).not.toEqual(Array.from(one.result.pvalues));
  });

  it('a subset of cell types and a restriction run; one cell type is refused with a clear message', async () => {
    const sub = await run(result, {
      groupBy: 'tutorial_label',
      cellTypes: ['B', 'NK', 'DC'],
      iterations: 50,
    });
    expect(sub.summary.cellTypes.map((t) => t.name)).toEqual(['B', 'DC', 'NK']);
    expect(sub.summary.pairs).toHaveLength(9);
    const err = await run(result, {
      groupBy: 'tutorial_label',
      restrict: [{ key: 'tutorial_label', values: ['B'] }],
    }).catch((e) => e);
    expect(isTaskError(err) && err.key).toBe('common.oneGroup');
    expect(interactionTask.messages['en-US']).toBeDefined();
  });

  it.skipIf(!GRCH38)(
    'a dataset keyed by Ensembl ids is matched on them and gives the same interactions',
    async () => {
      const ds = await readH5adBytes(new Uint8Array(await readFile(H5AD!)), path.basename(H5AD!));
      const rows = gunzipSync(await readFile(GRCH38!))
        .toString('utf8')
        .trim()
        .split('\n');
      const ensOf = new Map<string, string>();
      for (const l of rows) {
        const [id, name] = l.split('\t') as [string, string];
        if (!ensOf.has(name)) ensOf.set(name, id);
      }
      const ids = ds.genes.symbols.map((s) => ensOf.get(s) ?? s);
      expect(ids.filter((x) => x.startsWith('ENSG')).length).toBeGreaterThan(ids.length / 2);
      const rowsLabel = (await readFile(LABELS!, 'utf8')).trim().split('\n').slice(1);
      const labelOf = new Map(rowsLabel.map((l) => l.split(',') as [string, string]));
      const values = ds.cells.barcodes.map((b) => labelOf.get(b) ?? 'NA');
      const byEnsembl = resultHandleFromDataset(
        { ...ds, genes: { ids, symbols: ds.genes.symbols } },
        { species: 'human', extraObs: { tutorial_label: { kind: 'categorical', values } } },
      );
      const params = { groupBy: 'tutorial_label', iterations: 50 };
      const sym = await run(result, params, 2);
      const ens = await run(byEnsembl, params, 2);
      expect(sym.summary.geneIdKind).toBe('hgnc_symbol');
      expect(ens.summary.geneIdKind).toBe('ensembl');
      const a = new Map(sym.result.interactions.map((it, i) => [it.db.idCp, i]));
      const common = ens.result.interactions
        .map((it, i) => [a.get(it.db.idCp), i] as const)
        .filter(([x]) => x !== undefined);
      const union = new Set([...a.keys(), ...ens.result.interactions.map((it) => it.db.idCp)]).size;
      console.log(
        `symbols ${sym.result.interactions.length}, Ensembl ${ens.result.interactions.length} interactions, ${common.length} in common`,
      );
      expect(common.length / union).toBeGreaterThanOrEqual(0.9);
      // same genes → same means wherever both runs map the interaction to the same genes
      const nP = sym.result.pairs.length;
      let same = 0;
      for (const [x, y] of common) {
        const m1 = Array.from(sym.result.means.subarray(x! * nP, (x! + 1) * nP));
        const m2 = Array.from(ens.result.means.subarray(y * nP, (y + 1) * nP));
        if (m1.every((v, q) => v === m2[q])) same++;
      }
      expect(same / common.length).toBeGreaterThanOrEqual(0.95);
    },
  );

  it('a mouse dataset gets the human-only message', async () => {
    const ds = await readH5adBytes(new Uint8Array(await readFile(H5AD!)), 'pbmc3k.h5ad');
    const mouse = resultHandleFromDataset(ds, { species: 'Mus musculus' });
    const err = await interactionEngineTask
      .run({
        result: mouse,
        params: interactionTask.params.parse({ groupBy: 'label' }),
        onProgress: () => {},
        sink: new MemorySink(),
        resources,
      })
      .catch((e) => e);
    expect(isTaskError(err) && err.key).toBe('common.speciesHumanOnly');
    expect(err.params).toEqual({ species: 'Mus musculus' });
  });
});
