/**
 * Synthetic atlases on disk without the memory (issue 33): N cells written as samples of 50,000
 * cells (a sample has fewer than 100,000 cells, docs/product/validation.md#analysis-rules), one
 * count store file per sample (docs/formats/count-store.md), generated and written one sample at a
 * time — memory is one sample's matrix, whatever N. Same profile seed in every sample (the same
 * 10 clusters and markers as `bench:engine`'s synth100k…synth500k), another cell seed per sample.
 *
 *   npx tsx scripts/synth/atlas.ts <cells> [dir]   → dir/sample_NN.ccs, dir/truth.bin, dir/atlas.json
 *
 * `ensureAtlas` caches by size under the temporary folder, so a benchmark generates only once.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { syntheticDataset } from '@cellcloud/engine/synthetic';
import { CountStoreWriter } from '@cellcloud/formats/store';

export const SAMPLE_CELLS = 50_000;

export interface AtlasManifest {
  cells: number;
  genes: number;
  nnz: number;
  bytes: number;
  /** Sample names and their store files (relative to the atlas folder), in cell order. */
  samples: { name: string; file: string; cells: number }[];
  generateSeconds: number;
}

/** The atlas folder of `cells` cells under the temporary folder, generated if absent. */
export async function ensureAtlas(
  cells: number,
  dir?: string,
): Promise<{ dir: string; manifest: AtlasManifest }> {
  const root = dir ?? path.join(tmpdir(), `cellcloud-atlas-${cells}`);
  const manifestFile = path.join(root, 'atlas.json');
  if (existsSync(manifestFile))
    return { dir: root, manifest: JSON.parse(readFileSync(manifestFile, 'utf8')) as AtlasManifest };
  mkdirSync(root, { recursive: true });
  const t0 = performance.now();
  const sizes: number[] = [];
  for (let left = cells; left > 0; left -= SAMPLE_CELLS) sizes.push(Math.min(SAMPLE_CELLS, left));
  // truth: one byte per cell (10 clusters), in sample order
  const truthFd = openSync(path.join(root, 'truth.bin'), 'w');
  const manifest: AtlasManifest = { cells, genes: 20_000, nnz: 0, bytes: 0, samples: [], generateSeconds: 0 };
  try {
    for (let s = 0; s < sizes.length; s++) {
      const syn = syntheticDataset({
        nCells: sizes[s],
        nGenes: 20_000,
        nClusters: 10,
        seed: 7,
        cellSeed: 100 + s,
      });
      const name = `atlas_${String(s + 1).padStart(2, '0')}`;
      const file = `${name}.ccs`;
      const fd = openSync(path.join(root, file), 'w');
      try {
        const { genes, cells: table, counts } = syn.dataset;
        const writer = new CountStoreWriter(
          {
            write: async (bytes, position) => {
              let done = 0;
              while (done < bytes.length)
                done += writeSync(fd, bytes, done, bytes.length - done, position + done);
            },
          },
          { geneIds: genes.ids, geneSymbols: genes.symbols, sampleName: name },
        );
        await writer.addCells(counts, table.barcodes);
        const written = await writer.finish();
        manifest.nnz += written.nnz;
        manifest.bytes += written.bytes;
      } finally {
        closeSync(fd);
      }
      writeSync(truthFd, Uint8Array.from(syn.truth));
      manifest.samples.push({ name, file, cells: sizes[s] });
      process.stderr.write(`  atlas ${cells}: sample ${s + 1}/${sizes.length} written\n`);
    }
  } finally {
    closeSync(truthFd);
  }
  manifest.generateSeconds = Number(((performance.now() - t0) / 1000).toFixed(1));
  writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
  return { dir: root, manifest };
}

/** The true cluster of each cell, in the atlas's cell order. */
export function atlasTruth(dir: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(dir, 'truth.bin')));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const cells = Number(process.argv[2]);
  if (!Number.isInteger(cells) || cells <= 0) {
    console.error('usage: npx tsx scripts/synth/atlas.ts <cells> [dir]');
    process.exit(2);
  }
  const { dir, manifest } = await ensureAtlas(cells, process.argv[3]);
  console.log(
    `${dir}: ${manifest.cells} cells in ${manifest.samples.length} samples, ${manifest.nnz} non-zeros, ` +
      `${(manifest.bytes / 2 ** 20).toFixed(0)} MiB (${(manifest.bytes / manifest.nnz).toFixed(2)} B per non-zero), ` +
      `generated in ${manifest.generateSeconds} s`,
  );
}
