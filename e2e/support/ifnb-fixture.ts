import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

/**
 * Writes the cells [from, to) of the ifnb 10x triplet in `src` (columns 1–1000 are the control
 * half, 1001–2000 the IFN-β stimulated half) as a 10x triplet in `dir`; returns the three paths.
 */
export function splitTriplet(src: string, dir: string, from: number, to: number): string[] {
  const lines = gunzipSync(readFileSync(path.join(src, 'matrix.mtx.gz')))
    .toString('utf8')
    .split('\n');
  const header: string[] = [];
  let i = 0;
  while (lines[i]!.startsWith('%')) header.push(lines[i++]!);
  const [genes] = lines[i++]!.split(/\s+/).map(Number);
  const entries: string[] = [];
  for (; i < lines.length; i++) {
    const l = lines[i]!;
    if (!l) continue;
    const [g, c, v] = l.split(/\s+/);
    const col = Number(c);
    if (col > from && col <= to) entries.push(`${g} ${col - from} ${v}`);
  }
  const mtx = [...header, `${genes} ${to - from} ${entries.length}`, ...entries, ''].join('\n');
  const barcodes = gunzipSync(readFileSync(path.join(src, 'barcodes.tsv.gz')))
    .toString('utf8')
    .split('\n')
    .slice(from, to);
  writeFileSync(path.join(dir, 'matrix.mtx.gz'), gzipSync(mtx));
  writeFileSync(path.join(dir, 'barcodes.tsv.gz'), gzipSync(`${barcodes.join('\n')}\n`));
  writeFileSync(path.join(dir, 'genes.tsv.gz'), readFileSync(path.join(src, 'genes.tsv.gz')));
  return ['matrix.mtx.gz', 'genes.tsv.gz', 'barcodes.tsv.gz'].map((f) => path.join(dir, f));
}
