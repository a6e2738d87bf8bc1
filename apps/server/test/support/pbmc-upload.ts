import { sharedData } from '@cellcloud/testkit';
import { fileFrom, uploadSample, waitParsed } from '../files-helpers';
import type { TestServer } from './harness';

/** pbmc3k's 10x folder and the Ensembl gene lists an upload needs (undefined when not installed). */
export const PBMC_10X = sharedData('pbmc3k/10x');
export const GENE_LISTS = sharedData('gene_ids');

/** Uploads pbmc3k (10x MTX) as sample "pbmc3k" and waits until it is parsed; returns the upload id. */
export async function uploadPbmc3k(s: TestServer, token: string): Promise<string> {
  const files = ['matrix.mtx.gz', 'genes.tsv.gz', 'barcodes.tsv.gz'].map((f) => fileFrom(`${PBMC_10X}/${f}`));
  const up = await uploadSample(s, token, 'pbmc3k', files);
  const parsed = await waitParsed(s, token, up.id);
  if (parsed.state !== 'completed') throw new Error(`pbmc3k upload ended ${parsed.state}`);
  return up.id;
}
