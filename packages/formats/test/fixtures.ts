import type { Dataset } from '../src/matrix';

/** A small deterministic dataset (genes × cells) with duplicated symbols and empty cells. */
export function smallDataset(nGenes = 40, nCells = 25, seed = 7): Dataset {
  let s = seed;
  const rand = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const indptr = new Float64Array(nCells + 1);
  const indices: number[] = [];
  const data: number[] = [];
  for (let j = 0; j < nCells; j++) {
    for (let g = 0; g < nGenes; g++) {
      if (j % 11 !== 10 && rand() < 0.3) {
        indices.push(g);
        data.push(1 + Math.floor(rand() * 20));
      }
    }
    indptr[j + 1] = indices.length;
  }
  const ids = Array.from({ length: nGenes }, (_, g) => `ENSG${String(100000000000 + g).slice(1)}`);
  const symbols = Array.from({ length: nGenes }, (_, g) =>
    g === 0 ? 'MT-CO1' : g === 5 ? 'GENE4' : `GENE${g}`,
  );
  const barcodes = Array.from(
    { length: nCells },
    (_, j) => `${Array.from({ length: 16 }, (_, p) => 'ACGT'[Math.floor(j / 4 ** p) % 4]).join('')}-1`,
  );
  return {
    counts: { nGenes, nCells, indptr, indices: Uint32Array.from(indices), data: Float32Array.from(data) },
    genes: { ids, symbols, featureTypes: ids.map(() => 'Gene Expression') },
    cells: { barcodes, columns: {} },
    embeddings: {},
    format: '10x-mtx',
    warnings: [],
  };
}

/** A ustar archive built by hand (for the tar reader tests). */
export function makeTar(files: Record<string, Uint8Array>): Uint8Array {
  const blocks: Uint8Array[] = [];
  const enc = new TextEncoder();
  for (const [name, data] of Object.entries(files)) {
    const h = new Uint8Array(512);
    h.set(enc.encode(name).subarray(0, 100), 0);
    h.set(enc.encode('0000644\0'), 100);
    h.set(enc.encode('0000000\0'), 108);
    h.set(enc.encode('0000000\0'), 116);
    h.set(enc.encode(data.length.toString(8).padStart(11, '0') + '\0'), 124);
    h.set(enc.encode('00000000000\0'), 136);
    h[156] = '0'.charCodeAt(0);
    h.set(enc.encode('ustar\0' + '00'), 257);
    h.fill(32, 148, 156);
    let sum = 0;
    for (const b of h) sum += b;
    h.set(enc.encode(sum.toString(8).padStart(6, '0') + '\0 '), 148);
    blocks.push(h);
    const body = new Uint8Array(Math.ceil(data.length / 512) * 512);
    body.set(data);
    blocks.push(body);
  }
  blocks.push(new Uint8Array(1024));
  const out = new Uint8Array(blocks.reduce((a, b) => a + b.length, 0));
  let off = 0;
  for (const b of blocks) {
    out.set(b, off);
    off += b.length;
  }
  return out;
}

/** Strict equality of two count matrices (structure and values). */
export function sameCounts(a: Dataset['counts'], b: Dataset['counts']): boolean {
  if (a.nGenes !== b.nGenes || a.nCells !== b.nCells || a.indices.length !== b.indices.length) return false;
  for (let j = 0; j <= a.nCells; j++) if (a.indptr[j] !== b.indptr[j]) return false;
  for (let k = 0; k < a.indices.length; k++)
    if (a.indices[k] !== b.indices[k] || a.data[k] !== b.data[k]) return false;
  return true;
}
