import { gzipSync } from 'fflate';
import { cellBlocksOf, type CellBlocks } from './cell-blocks';
import type { CountMatrix, GeneTable } from './matrix';
import { concatChunks } from './sources';

/** 10x v3 MTX files (matrix.mtx, features.tsv, barcodes.tsv), gzipped unless `gzip: false`. */
export interface TenxMtxOutput {
  'matrix.mtx': Uint8Array;
  'features.tsv': Uint8Array;
  'barcodes.tsv': Uint8Array;
}

/** Consecutive cells [start, end) holding at most `maxEntries` entries (at least one cell each). */
export function* cellRanges(m: CellBlocks, maxEntries = 1 << 20): Generator<[number, number]> {
  for (let j0 = 0; j0 < m.nCells;) {
    let j1 = j0 + 1;
    while (j1 < m.nCells && m.indptr[j1 + 1]! - m.indptr[j0]! <= maxEntries) j1++;
    yield [j0, j1];
    j0 = j1;
  }
}

/**
 * The MatrixMarket text of a cell-major matrix, one chunk of ~`linesPerChunk` entries at a time,
 * reading the matrix a block of cells at a time (a 100k-cell matrix is never one string nor, from
 * an .h5ad, one array). `value(x, cell)` replaces each stored value `x` (e.g. normalized on the
 * fly from the counts, without a second matrix).
 */
export function* matrixMarketChunks(
  m: CellBlocks,
  field: 'integer' | 'real',
  value?: (x: number, cell: number) => number,
  linesPerChunk = 65_536,
): Generator<Uint8Array> {
  const enc = new TextEncoder();
  yield enc.encode(
    `%%MatrixMarket matrix coordinate ${field} general\n%\n${m.nGenes} ${m.nCells} ${m.indptr[m.nCells]}\n`,
  );
  let lines: string[] = [];
  for (const [j0, j1] of cellRanges(m)) {
    const base = m.indptr[j0]!;
    const { indices, data } = m.entries(base, m.indptr[j1]!);
    for (let j = j0; j < j1; j++) {
      for (let k = m.indptr[j]! - base, end = m.indptr[j + 1]! - base; k < end; k++)
        lines.push(`${indices[k]! + 1} ${j + 1} ${value ? value(data[k]!, j) : data[k]}`);
      if (lines.length >= linesPerChunk) {
        yield enc.encode(lines.join('\n') + '\n');
        lines = [];
      }
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
    'matrix.mtx': z(concatChunks([...matrixMarketChunks(cellBlocksOf(counts), opts.field ?? 'integer')])),
    'features.tsv': z(enc.encode(featuresTsv(genes))),
    'barcodes.tsv': z(enc.encode(barcodes.join('\n') + '\n')),
  };
}
