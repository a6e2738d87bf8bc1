import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { readH5adBytes } from '@cellcloud/formats';
import type { Dataset } from '@cellcloud/formats/matrix';
import { sharedData } from '@cellcloud/testkit';
import { carryInputColumns } from '../src/carry-input';
import { runAnalysis } from '../src/run-analysis';
import { mergeDatasets } from '../src/steps/inputs';
import { runSubcluster } from '../src/subcluster';
import { writeOutputs } from '../src/write-outputs';

const H5AD = sharedData('pbmc3k/pbmc3k.h5ad');

/** Cells [from, to) of a dataset as a dataset of its own (counts, obs columns, obsm rows). */
function sliceCells(ds: Dataset, from: number, to: number, dropColumns: string[] = []): Dataset {
  const m = ds.counts;
  const p0 = m.indptr[from]!;
  const p1 = m.indptr[to]!;
  const columns: Dataset['cells']['columns'] = {};
  for (const [k, c] of Object.entries(ds.cells.columns)) {
    if (dropColumns.includes(k)) continue;
    columns[k] =
      c.kind === 'categorical'
        ? { kind: 'categorical', values: c.values.slice(from, to) }
        : { kind: 'numeric', values: c.values.slice(from, to) };
  }
  const embeddings: Dataset['embeddings'] = {};
  for (const [k, e] of Object.entries(ds.embeddings))
    embeddings[k] = { dims: e.dims, values: e.values.slice(from * e.dims, to * e.dims) };
  return {
    ...ds,
    counts: {
      nGenes: m.nGenes,
      nCells: to - from,
      indptr: Float64Array.from(m.indptr.subarray(from, to + 1), (p) => p - p0),
      indices: m.indices.slice(p0, p1),
      data: m.data.slice(p0, p1),
    },
    cells: { barcodes: ds.cells.barcodes.slice(from, to), columns },
    embeddings,
  };
}

describe.skipIf(!H5AD)(
  'user labels carried through the analysis (pbmc3k.h5ad: obs label, seurat_cluster; obsm X_umap)',
  () => {
    let ds: Dataset;
    beforeAll(async () => {
      ds = await readH5adBytes(new Uint8Array(await readFile(H5AD!)), 'pbmc3k.h5ad');
    });

    it('merging samples keeps the union of obs columns (missing → "unknown"/NaN) and common embeddings', () => {
      const a = sliceCells(ds, 0, 300);
      const b = sliceCells(ds, 300, 500, ['label', 'nCount_RNA']);
      const merged = mergeDatasets([
        { name: 'A', dataset: a },
        { name: 'B', dataset: b },
      ]);
      const label = merged.columns.label!;
      expect(label.kind).toBe('categorical');
      expect(label.values.slice(0, 300)).toEqual(ds.cells.columns.label!.values.slice(0, 300));
      expect(new Set((label.values as string[]).slice(300))).toEqual(new Set(['unknown']));
      const n = merged.columns.nCount_RNA!;
      expect(n.kind).toBe('numeric');
      expect(Number.isNaN(n.values[350] as number)).toBe(true);
      expect(merged.embeddings.X_umap?.values.length).toBe(500 * 2);
      // carried to the cells that survive, by barcode
      const obs = {};
      const emb = { umap: { dims: 2, values: new Float32Array(4) } };
      carryInputColumns(merged, [merged.barcodes[310]!, merged.barcodes[5]!], obs, emb);
      expect((obs as Record<string, { values: string[] }>).label.values).toEqual([
        'unknown',
        ds.cells.columns.label!.values[5],
      ]);
      expect(Object.keys(emb)).toEqual(['umap', 'umap_input']);
    });

    it('an analysed annotated h5ad shows label and seurat_cluster as annotation levels, numeric obs as values, its UMAP as an embedding', async () => {
      const result = await runAnalysis([{ name: 'pbmc3k', dataset: sliceCells(ds, 0, 600) }], {
        doubletDetectionAndRemoval: false,
        expressedGeneRange: { state: 'manual', range: [200, 5000] },
      });
      const files = new Map<string, Uint8Array>();
      const manifest = await writeOutputs(result, { write: async (p, bytes) => void files.set(p, bytes) });
      const kinds = Object.fromEntries(manifest.obs.map((o) => [o.key, o.kind]));
      expect(kinds.label).toBe('categorical');
      expect(kinds.seurat_cluster).toBe('categorical');
      expect(kinds.nCount_RNA).toBe('numeric');
      expect(manifest.embeddings.map((e) => e.name)).toContain('umap_input');
      const labels = manifest.obs.find((o) => o.key === 'label');
      expect(labels?.kind === 'categorical' && labels.labels).toEqual(
        expect.arrayContaining(['B', 'NK', 'CD14+ Mono']),
      );
      // and in the downloadable analysis.h5ad
      const back = await readH5adBytes(files.get('analysis.h5ad')!, 'analysis.h5ad');
      expect(back.cells.columns.label?.kind).toBe('categorical');
      expect(Object.keys(back.embeddings)).toContain('X_umap_input');
    });

    it('a sub-celltype analysis keeps the parent levels of its cells (the parent cluster as cluster_input)', async () => {
      const cells = Array.from({ length: 400 }, (_, i) => i * 2);
      const r = await runSubcluster({
        name: 'child',
        counts: ds.counts,
        genes: ds.genes,
        barcodes: ds.cells.barcodes,
        cells,
        parentParams: {},
        child: {},
        obs: { ...ds.cells.columns, cluster: ds.cells.columns.seurat_cluster! },
      });
      const label = r.obs.label;
      expect(label?.kind).toBe('categorical');
      expect(label?.values[1]).toBe(ds.cells.columns.label!.values[2]);
      expect(r.obs.cluster_input?.values[3]).toBe(ds.cells.columns.seurat_cluster!.values[6]);
      expect(r.obs.nCount_RNA).toBeUndefined(); // numeric parent QC values are recomputed, not carried
    });
  },
);
