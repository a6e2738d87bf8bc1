/**
 * Issue 14 "defaults that serve", checked on more than one dataset: the standard pipeline with every
 * default (runAnalysis with {}) against Debian's r-cran-seurat guided-tutorial clustering of the
 * same kept cells (scripts/compare/seurat-clustering.R), on pbmc3k, ifnb (both batches, read as one
 * sample: no batch correction on either side) and mouse10k (1,000 genes; every default but the
 * species and a minimum of 20 detected genes — see DATASETS). Needs
 * `apt-get install r-cran-seurat`.
 *   npx tsx scripts/compare/seurat-clustering.ts [pbmc3k|ifnb|mouse10k]…   (default: all three)
 * Prints per dataset: cells kept, our clusters, Seurat's clusters, ARI(ours, Seurat), ARI of ours
 * against our own run with another seed (seed 1: how far the dataset lets two equally good
 * clusterings agree — the ceiling for agreement with Seurat) and, for pbmc3k, both ARIs against
 * the Seurat tutorial labels; ends with one JSON line per dataset.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readDataset } from '@cellcloud/formats';
import { pathBundle } from '@cellcloud/formats/node-sources';
import { runAnalysis, type AnalysisResult } from '@cellcloud/engine/run-analysis';
import { adjustedRandIndex } from '@cellcloud/engine/stats/ari';
import { SHARED_DATA_DIR } from '@cellcloud/testkit';

const here = path.dirname(fileURLToPath(import.meta.url));
const DATASETS: Record<string, { dir: string; labels?: string; params?: Record<string, unknown> }> = {
  pbmc3k: { dir: 'pbmc3k/10x', labels: 'pbmc3k/pbmc3k_seurat_labels.csv' },
  ifnb: { dir: 'ifnb_kang2018_subset' },
  // 1,000 genes only (the first 1,000 of chr1), ~69 detected per cell: the default minimum of 200
  // detected genes would keep 14 cells, so the one change a researcher must make is that minimum.
  mouse10k: {
    dir: 'mouse10k_subset_scanpy',
    params: { species: 'Mus musculus', expressedGeneRange: { range: [20, 1000] } },
  },
};

/** Genes × cells MatrixMarket of the kept cells' raw counts (CellCloud's CSC-by-cell layout). */
function writeInputs(dir: string, r: AnalysisResult): void {
  const { counts } = r;
  const lines = [
    '%%MatrixMarket matrix coordinate integer general',
    `${counts.nGenes} ${counts.nCells} ${counts.data.length}`,
  ];
  for (let c = 0; c < counts.nCells; c++)
    for (let k = counts.indptr[c]!; k < counts.indptr[c + 1]!; k++)
      lines.push(`${counts.indices[k]! + 1} ${c + 1} ${Math.round(counts.data[k]!)}`);
  writeFileSync(path.join(dir, 'counts.mtx'), lines.join('\n') + '\n');
  writeFileSync(path.join(dir, 'genes.txt'), r.geneSymbols.join('\n') + '\n');
  writeFileSync(path.join(dir, 'barcodes.txt'), r.barcodes.join('\n') + '\n');
}

function csvMap(file: string): Map<string, string> {
  return new Map(
    readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(',') as [string, string]),
  );
}

async function compare(name: string): Promise<void> {
  const spec = DATASETS[name];
  if (!spec) throw new Error(`unknown dataset ${name}; one of ${Object.keys(DATASETS).join(', ')}`);
  // runAnalysis consumes the counts in place, so each run reads the files again
  const load = async () => readDataset(await pathBundle(path.join(SHARED_DATA_DIR, spec.dir)));
  const dataset = await load();
  const t0 = performance.now();
  const r = await runAnalysis([{ name, dataset }], spec.params ?? {});
  const ourSeconds = (performance.now() - t0) / 1000;
  const clusters = (a: AnalysisResult) =>
    a.obs.cluster!.kind === 'categorical' ? a.obs.cluster!.values : [];
  const ours = clusters(r);
  const again = await runAnalysis([{ name, dataset: await load() }], { ...spec.params, seed: 1 });
  // Scrublet is seeded too, so the kept cells may differ: compare the cells both runs kept
  const seed1 = new Map(clusters(again).map((c, i) => [again.barcodes[i]!, c]));
  const both = r.barcodes.map((b, i) => (seed1.has(b) ? i : -1)).filter((i) => i >= 0);
  const dir = mkdtempSync(path.join(tmpdir(), `cellcloud-seurat-${name}-`));
  try {
    writeInputs(dir, r);
    const t1 = performance.now();
    const run = spawnSync('Rscript', [path.join(here, 'seurat-clustering.R'), dir], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`Rscript failed:\n${run.stderr}`);
    const rSeconds = (performance.now() - t1) / 1000;
    const seurat = csvMap(path.join(dir, 'seurat_clusters.csv'));
    const theirs = r.barcodes.map((b) => seurat.get(b) ?? 'missing');
    const row: Record<string, unknown> = {
      dataset: name,
      cellsKept: r.barcodes.length,
      cellsInput: dataset.counts.nCells,
      ourClusters: new Set(ours).size,
      seuratClusters: new Set(theirs).size,
      ariOursVsSeurat: Number(adjustedRandIndex(ours, theirs).toFixed(3)),
      ariOursVsOursSeed1: Number(
        adjustedRandIndex(
          both.map((i) => ours[i]!),
          both.map((i) => seed1.get(r.barcodes[i]!)!),
        ).toFixed(3),
      ),
      ourSeconds: Number(ourSeconds.toFixed(1)),
      seuratSeconds: Number(rSeconds.toFixed(1)),
    };
    if (spec.labels) {
      const labels = csvMap(path.join(SHARED_DATA_DIR, spec.labels));
      const idx = r.barcodes.map((b, i) => (labels.has(b) ? i : -1)).filter((i) => i >= 0);
      const truth = idx.map((i) => labels.get(r.barcodes[i]!)!);
      row.labelledCells = idx.length;
      row.ariOursVsLabels = Number(
        adjustedRandIndex(
          idx.map((i) => ours[i]!),
          truth,
        ).toFixed(3),
      );
      row.ariSeuratVsLabels = Number(
        adjustedRandIndex(
          idx.map((i) => theirs[i]!),
          truth,
        ).toFixed(3),
      );
    }
    console.log(
      `${name}: ${row.cellsKept}/${row.cellsInput} cells kept; clusters ours ${row.ourClusters}, ` +
        `Seurat ${row.seuratClusters}; ARI ours vs Seurat ${row.ariOursVsSeurat}, ours vs ours (seed 1) ` +
        `${row.ariOursVsOursSeed1}` +
        (spec.labels
          ? `; vs tutorial labels: ours ${row.ariOursVsLabels}, Seurat ${row.ariSeuratVsLabels}`
          : ''),
    );
    console.log(JSON.stringify(row));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const picked = process.argv.slice(2);
for (const name of picked.length ? picked : Object.keys(DATASETS)) await compare(name);
