import { gzipSync } from 'fflate';
import type { CountMatrix, GeneTable } from './matrix';
import { concatChunks } from './sources';

/** 10x v3 MTX files (matrix.mtx, features.tsv, barcodes.tsv), gzipped unless `gzip: false`. */
export interface TenxMtxOutput {
  'matrix.mtx': Uint8Array;
  'features.tsv': Uint8Array;
  'barcodes.tsv': Uint8Array;
}

function matrixText(m: CountMatrix, field: 'integer' | 'real'): Uint8Array {
  const parts: string[] = [
    `%%MatrixMarket matrix coordinate ${field} general\n%\n${m.nGenes} ${m.nCells} ${m.indptr[m.nCells]}\n`,
  ];
  const enc = new TextEncoder();
  const chunks: Uint8Array[] = [];
  let lines: string[] = [];
  for (let j = 0; j < m.nCells; j++) {
    for (let k = m.indptr[j]!; k < m.indptr[j + 1]!; k++)
      lines.push(`${m.indices[k]! + 1} ${j + 1} ${m.data[k]}`);
    if (lines.length > 100_000) {
      chunks.push(enc.encode(lines.join('\n') + '\n'));
      lines = [];
    }
  }
  if (lines.length) chunks.push(enc.encode(lines.join('\n') + '\n'));
  chunks.unshift(enc.encode(parts[0]!));
  return concatChunks(chunks);
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
  const features =
    genes.ids
      .map((id, g) => `${id}\t${genes.symbols[g]}\t${genes.featureTypes?.[g] ?? 'Gene Expression'}`)
      .join('\n') + '\n';
  return {
    'matrix.mtx': z(matrixText(counts, opts.field ?? 'integer')),
    'features.tsv': z(enc.encode(features)),
    'barcodes.tsv': z(enc.encode(barcodes.join('\n') + '\n')),
  };
}
