import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';

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
