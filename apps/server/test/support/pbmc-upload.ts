import { readDataset } from '@cellcloud/formats';
import { folderBundle } from '@cellcloud/formats/node-sources';
import { write10xMtx } from '@cellcloud/formats/write-10x-mtx';
import { sharedData } from '@cellcloud/testkit';
import { fileFrom, uploadSample, waitParsed, type FileToSend } from '../files-helpers';
import { firstCells } from './first-cells';
import type { TestServer } from './harness';

/** pbmc3k's 10x folder and the Ensembl gene lists an upload needs (undefined when not installed). */
export const PBMC_10X = sharedData('pbmc3k/10x');
export const GENE_LISTS = sharedData('gene_ids');

/**
 * Uploads pbmc3k (10x MTX) as sample "pbmc3k" and waits until it is parsed; returns the upload id.
 * With `cells`, only pbmc3k's first `cells` cells (all genes), written as 10x v3 MTX files.
 */
export async function uploadPbmc3k(s: TestServer, token: string, cells?: number): Promise<string> {
  let files: FileToSend[];
  if (cells === undefined) {
    files = ['matrix.mtx.gz', 'genes.tsv.gz', 'barcodes.tsv.gz'].map((f) => fileFrom(`${PBMC_10X}/${f}`));
  } else {
    const d = firstCells(await readDataset(await folderBundle(PBMC_10X!)), cells);
    const mtx = write10xMtx(d.counts, d.genes, d.cells.barcodes);
    files = Object.entries(mtx).map(([name, bytes]) => ({
      name: `${name}.gz`,
      bytes,
      role: 'data' as const,
    }));
  }
  const up = await uploadSample(s, token, 'pbmc3k', files);
  const parsed = await waitParsed(s, token, up.id);
  if (parsed.state !== 'completed') throw new Error(`pbmc3k upload ended ${parsed.state}`);
  return up.id;
}
