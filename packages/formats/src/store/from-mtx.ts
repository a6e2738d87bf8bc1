import { tripletsToCsc } from '../csc';
import { contentChunks, isGzipSource, readText } from '../gzip';
import type { PositionalSink } from '../hdf5-write';
import { decompressedBudget } from '../limits';
import type { CountMatrix } from '../matrix';
import { MtxParser } from '../mtx-parse';
import { pick10xMtx, read10xMtxFiles, type ReadOptions } from '../read-10x-mtx';
import { sampleName, type SourceBundle } from '../sources';
import { finishBarcodes, finishGenes, parseBarcodes, parseFeatures } from '../tables';
import { CountStoreWriter, type CountStoreWriterOptions } from './writer';

export interface StoreWriteResult {
  bytes: number;
  nCells: number;
  nnz: number;
  geneIds: string[];
  geneSymbols: string[];
  barcodes: string[];
  /** The reader's notes, as readDataset gives them, plus the fallback's reason when there was one. */
  warnings: string[];
  /** False when the file had to be read whole (not sorted by cell, or cells × genes). */
  streamed: boolean;
}

export type StoreWriteOptions = ReadOptions & CountStoreWriterOptions & { sampleName?: string };

/** Thrown inside the streaming pass when the matrix cannot be streamed by cell. */
class NotStreamable {
  constructor(readonly reason: string) {}
}

/** Writes an in-memory matrix (the fallback paths) in pieces of `chunkCells` cells. */
export async function writeWholeMatrix(
  w: CountStoreWriter,
  m: CountMatrix,
  barcodes: string[],
): Promise<void> {
  const step = 8192;
  for (let c0 = 0; c0 < m.nCells; c0 += step) {
    const c1 = Math.min(m.nCells, c0 + step);
    const s = m.indptr[c0]!;
    const e = m.indptr[c1]!;
    const indptr = m.indptr.slice(c0, c1 + 1);
    for (let k = 0; k < indptr.length; k++) indptr[k] -= s;
    const block = {
      nGenes: m.nGenes,
      nCells: c1 - c0,
      indptr,
      indices: m.indices.subarray(s, e),
      data: m.data.subarray(s, e),
    };
    await w.addCells(block, barcodes.slice(c0, c1));
  }
}

/**
 * Streams a 10x MTX folder (matrix.mtx(.gz), features/genes, barcodes) into a count store
 * (docs/formats/count-store.md#from-uploads) without holding the matrix: entries arrive sorted by
 * cell (10x writes the matrix column by column), so every cell before the last one seen is
 * complete and goes to the writer. Genes and barcodes are finished as readDataset does (only
 * "Gene Expression" when other feature types exist; names made unique), so the store equals
 * readDataset's matrix. A matrix that is not sorted by cell, or is cells × genes, is read whole
 * with the in-memory reader instead, and a warning says so.
 */
export async function writeStoreFrom10xMtx(
  bundle: SourceBundle,
  sink: PositionalSink,
  opts: StoreWriteOptions = {},
): Promise<StoreWriteResult> {
  const files = pick10xMtx(bundle);
  const warnings: string[] = [];
  const feat = parseFeatures(await readText(files.features), files.features.name, files.version === 'v3');
  warnings.push(...feat.warnings);
  const bc = parseBarcodes(await readText(files.barcodes), files.barcodes.name, sampleName(bundle.name));
  warnings.push(...bc.warnings);
  const later: string[] = [];
  const fin = finishGenes(feat.genes, later);
  const barcodes = finishBarcodes(bc.barcodes, later);
  const nGenesIn = feat.genes.ids.length;
  const nGenes = fin.genes.ids.length;
  const nCells = barcodes.length;
  const header = {
    geneIds: fin.genes.ids,
    geneSymbols: fin.genes.symbols,
    ...(opts.sampleName !== undefined ? { sampleName: opts.sampleName } : {}),
  };
  // old gene row → kept row, or -1
  const rowMap = new Int32Array(nGenesIn);
  for (let g = 0, k = 0; g < nGenesIn; g++) rowMap[g] = !fin.keep || fin.keep[g] ? k++ : -1;

  const w = new CountStoreWriter(sink, header, opts);
  const file = files.matrix.name;
  const contentBytes = (await isGzipSource(files.matrix))
    ? decompressedBudget(files.matrix.size)
    : files.matrix.size;
  const parser = new MtxParser(file, {
    ...(opts.allowNonInteger !== undefined ? { allowNonInteger: opts.allowNonInteger } : {}),
    contentBytes,
    onHeader: ({ rows, cols }) => {
      if (rows !== nGenesIn || cols !== nCells) throw new NotStreamable('its shape is not genes × cells');
    },
  });
  // entries of the cells not yet handed to the writer, in file order
  let gene = new Uint32Array(1 << 16);
  let cell = new Uint32Array(1 << 16);
  let val = new Float32Array(1 << 16);
  let pending = 0;
  let done = 0; // cells [0, done) are written
  let duplicates = 0;
  const flush = async (upTo: number) => {
    // entries of cells < upTo form a prefix of the pending ones (sorted by cell)
    let n = 0;
    while (n < pending && cell[n]! < upTo) n++;
    const g = gene.slice(0, n);
    const c = cell.slice(0, n);
    for (let k = 0; k < n; k++) c[k] -= done;
    const r = tripletsToCsc(g, c, val.slice(0, n), nGenes, upTo - done);
    duplicates += r.duplicates;
    await w.addCells(r.matrix, barcodes.slice(done, upTo));
    gene.copyWithin(0, n, pending);
    cell.copyWithin(0, n, pending);
    val.copyWithin(0, n, pending);
    pending -= n;
    done = upTo;
  };
  const take = async (t: { row: Uint32Array; col: Uint32Array; val: Float32Array; count: number }) => {
    if (t.count === 0) return;
    if (pending + t.count > gene.length) {
      const cap = Math.max(pending + t.count, gene.length * 2);
      const grow = <A extends Uint32Array | Float32Array>(a: A, b: A): A => (
        b.set(a.subarray(0, pending)),
        b
      );
      gene = grow(gene, new Uint32Array(cap));
      cell = grow(cell, new Uint32Array(cap));
      val = grow(val, new Float32Array(cap));
    }
    let last = pending > 0 ? cell[pending - 1]! : done;
    for (let k = 0; k < t.count; k++) {
      const c = t.col[k]!;
      if (c < last)
        throw new NotStreamable(
          `entries are not sorted by cell (line of cell ${c + 1} after cell ${last + 1})`,
        );
      last = c;
      const g = rowMap[t.row[k]!]!;
      if (g < 0) continue;
      gene[pending] = g;
      cell[pending] = c;
      val[pending++] = t.val[k]!;
    }
    if (last > done) await flush(last);
  };
  let nonInteger = false;
  try {
    for await (const chunk of contentChunks(files.matrix)) {
      parser.push(chunk);
      await take(parser.take());
    }
    const rest = parser.finish();
    nonInteger = rest.nonInteger;
    await take(rest);
    await flush(nCells);
  } catch (e) {
    if (!(e instanceof NotStreamable)) throw e;
    const ds = await read10xMtxFiles(files, bundle.name, opts);
    const again = new CountStoreWriter(sink, header, { ...opts, startAt: w.position });
    await writeWholeMatrix(again, ds.counts, ds.cells.barcodes);
    const r = await again.finish();
    const note = `${file}: ${e.reason}; it was read whole in memory to build the count store.`;
    return {
      ...r,
      ...header,
      barcodes: ds.cells.barcodes,
      warnings: [...ds.warnings, note],
      streamed: false,
    };
  }
  if (nonInteger) warnings.push(`${file}: the matrix holds non-integer values; they were kept as they are.`);
  if (duplicates) warnings.push(`${file}: ${duplicates} repeated (gene, cell) entries were summed.`);
  const r = await w.finish();
  return { ...r, ...header, barcodes, warnings: [...warnings, ...later], streamed: true };
}
