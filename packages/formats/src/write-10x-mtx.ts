import { gzipSync } from 'fflate';
import type { CountMatrix, GeneTable } from './matrix';
import { concatChunks } from './sources';

/** 10x v3 MTX files (matrix.mtx, features.tsv, barcodes.tsv), gzipped unless `gzip: false`. */
export interface TenxMtxOutput {
  'matrix.mtx': Uint8Array;
  'features.tsv': Uint8Array;
  'barcodes.tsv': Uint8Array;
}

/**
 * The MatrixMarket text of a cell-major matrix, one chunk of ~`linesPerChunk` entries at a time
 * (a 100k-cell matrix is never one string). `value(k, cell)` replaces the stored value of entry `k`
 * (e.g. normalized on the fly from the counts, without a second matrix).
 */
export function* matrixMarketChunks(
  m: CountMatrix,
  field: 'integer' | 'real',
  value: (k: number, cell: number) => number = (k) => m.data[k]!,
  linesPerChunk = 65_536,
): Generator<Uint8Array> {
  const enc = new TextEncoder();
  yield enc.encode(
    `%%MatrixMarket matrix coordinate ${field} general\n%\n${m.nGenes} ${m.nCells} ${m.indptr[m.nCells]}\n`,
  );
  let lines: string[] = [];
  for (let j = 0; j < m.nCells; j++) {
    for (let k = m.indptr[j]!; k < m.indptr[j + 1]!; k++)
      lines.push(`${m.indices[k]! + 1} ${j + 1} ${value(k, j)}`);
    if (lines.length >= linesPerChunk) {
      yield enc.encode(lines.join('\n') + '\n');
      lines = [];
    }
  }
  if (lines.length) yield enc.encode(lines.join('\n') + '\n');
}

/** features.tsv of 10x v3: id, symbol, feature type. */
export function featuresTsv(genes: GeneTable): string {
  return (
    genes.ids
      .map((id, g) => `${id}\t${genes.symbols[g]}\t${genes.featureTypes?.[g] ?? 'Gene Expression'}`)
      .join('\n') + '\n'
  );
}

/** `field: 'real'` for non-integer values (e.g. log-normalized data); integer counts by default. */
export function write10xMtx(
  counts: CountMatrix,
  genes: GeneTable,
  barcodes: string[],
  opts: { gzip?: boolean; field?: 'integer' | 'real' } = {},
): TenxMtxOutput {
  const enc = new TextEncoder();
  const z = (b: Uint8Array) => (opts.gzip === false ? b : gzipSync(b, { level: 6 }));
  return {
    'matrix.mtx': z(concatChunks([...matrixMarketChunks(counts, opts.field ?? 'integer')])),
    'features.tsv': z(enc.encode(featuresTsv(genes))),
    'barcodes.tsv': z(enc.encode(barcodes.join('\n') + '\n')),
  };
}
