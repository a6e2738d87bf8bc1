import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { unzip } from '@cellcloud/formats/archive';
import { readH5adBytes } from '@cellcloud/formats/read-h5ad';
import { sharedData } from '@cellcloud/testkit';
import { seuratBundle } from '../src/jobs/download.seurat-bundle';
import { TEST_DB } from './support/harness';

/**
 * Issue 21: the Seurat bundle of a real dataset (pbmc3k.h5ad: counts, the tutorial labels and
 * clusters, its UMAP) loads in Debian's r-cran-seurat with the bundled `load_seurat.R`, with the
 * same cells, genes, clusters and embedding. Needs Rscript with Seurat (`apt-get install
 * r-cran-seurat`); skipped with a message where it is not installed. No database: runs once
 * (the PGlite pass).
 */
const h5ad = sharedData('pbmc3k/pbmc3k.h5ad');
const hasSeurat =
  spawnSync('Rscript', ['-e', 'suppressPackageStartupMessages(library(Seurat))'], { encoding: 'utf8' })
    .status === 0;
if (!hasSeurat)
  console.warn('⚠ skipped: Rscript with Seurat is not installed (apt-get install r-cran-seurat)');

describe.skipIf(!h5ad || !hasSeurat || TEST_DB !== 'pglite')('Seurat bundle in R', () => {
  it('load_seurat.R builds a Seurat object with the same cells, genes, clusters and UMAP', async () => {
    const ds = await readH5adBytes(new Uint8Array(readFileSync(h5ad!)), 'pbmc3k.h5ad');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cc-seurat-'));
    try {
      for (const e of unzip(seuratBundle(ds), 'bundle.zip')) {
        const p = path.join(dir, e.name);
        mkdirSync(path.dirname(p), { recursive: true });
        writeFileSync(p, await e.read(0, e.size));
      }
      const check = `source("load_seurat.R")
cat("CELLS", ncol(obj), "\\n")
cat("GENES", nrow(obj), "\\n")
cat("REDUCTIONS", paste(Reductions(obj), collapse = ","), "\\n")
cat("DATA", sum(GetAssayData(obj, slot = "data")[, 1] > 0), "\\n")
tab <- table(obj$seurat_cluster)
cat("CLUSTERS", paste(names(tab), as.integer(tab), sep = "=", collapse = ","), "\\n")
cat("FIRST", colnames(obj)[1], "\\n")`;
      const r = spawnSync('Rscript', ['-e', check], { cwd: dir, encoding: 'utf8', timeout: 240_000 });
      expect(r.status, r.stderr).toBe(0);
      const line = (k: string) => new RegExp(`^${k} (.*?)\\s*$`, 'm').exec(r.stdout)?.[1] ?? '';
      expect(Number(line('CELLS'))).toBe(ds.counts.nCells);
      expect(Number(line('GENES'))).toBe(ds.counts.nGenes);
      expect(line('REDUCTIONS').split(',')).toContain('umap');
      expect(line('FIRST')).toBe(ds.cells.barcodes[0]);
      // non-zero normalized values of cell 1 = its detected genes
      expect(Number(line('DATA'))).toBe(ds.counts.indptr[1]! - ds.counts.indptr[0]!);
      const col = ds.cells.columns['seurat_cluster']!;
      const counts = new Map<string, number>();
      for (const v of col.values) counts.set(String(v), (counts.get(String(v)) ?? 0) + 1);
      const fromR = Object.fromEntries(
        line('CLUSTERS')
          .split(',')
          .map((kv) => kv.split('=') as [string, string])
          .map(([k, n]) => [k, Number(n)]),
      );
      expect(fromR).toEqual(Object.fromEntries(counts));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
