import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Locator } from 'playwright-core';

/**
 * The shipped 10x PBMC TCR contig table (gzipped) with its cell barcodes re-assigned to the
 * barcodes of a gene-expression sample (`barcodes.tsv.gz` of its 10x folder): the two 10x runs
 * share no cells, so the V(D)J browser tests derive a matched pair.
 */
export function matchedContigs(gexDir: string, contigsGz: string): Buffer {
  const gexBarcodes = gunzipSync(readFileSync(`${gexDir}/barcodes.tsv.gz`))
    .toString()
    .trim()
    .split('\n');
  const [head, ...lines] = gunzipSync(readFileSync(contigsGz)).toString().trim().split('\n');
  const map = new Map<string, string>();
  const out = lines.map((l) => {
    const comma = l.indexOf(',');
    const bc = l.slice(0, comma);
    if (!map.has(bc)) map.set(bc, gexBarcodes[map.size % gexBarcodes.length]!);
    return map.get(bc)! + l.slice(comma);
  });
  return gzipSync([head, ...out].join('\n') + '\n');
}

/** Attaches the matched contigs to the contig upload of the V(D)J run panel `panel`. */
export async function attachMatchedContigs(panel: Locator, gexDir: string, contigsGz: string): Promise<void> {
  await panel
    .getByTestId('task-upload-contigs')
    .locator('input[type=file]')
    .setInputFiles({
      name: 'filtered_contig_annotations.csv.gz',
      mimeType: 'application/gzip',
      buffer: matchedContigs(gexDir, contigsGz),
    });
}
