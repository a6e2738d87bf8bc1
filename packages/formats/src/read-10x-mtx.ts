import { tripletsToCsc } from './csc';
import { FormatError } from './errors';
import { contentChunks, isGzipSource, readText } from './gzip';
import { decompressedBudget } from './limits';
import type { Dataset } from './matrix';
import { parseMtx } from './mtx-parse';
import { baseName, type ByteSource, dirName, sampleName, type SourceBundle } from './sources';
import { finishTables, parseBarcodes, parseFeatures } from './tables';

export interface ReadOptions {
  /** Accept non-negative non-integer values (reported in `warnings`) instead of failing. */
  allowNonInteger?: boolean;
}

export interface TenxMtxFiles {
  matrix: ByteSource;
  features: ByteSource;
  barcodes: ByteSource;
  /** "v3" when the gene list is features.tsv, "v2" for genes.tsv. */
  version: 'v2' | 'v3';
}

const MATRIX = /(^|[._-])matrix\.mtx(\.gz)?$/i;
const FEATURES = /(^|[._-])features\.tsv(\.gz)?$/i;
const GENES = /(^|[._-])genes\.tsv(\.gz)?$/i;
const BARCODES = /(^|[._-])barcodes\.tsv(\.gz)?$/i;

/** All 10x MTX triplets in a bundle (one per folder that holds a matrix, its genes and barcodes). */
export function find10xMtx(bundle: SourceBundle): TenxMtxFiles[] {
  const found: TenxMtxFiles[] = [];
  for (const matrix of bundle.entries.filter((e) => MATRIX.test(baseName(e.name)))) {
    const dir = dirName(matrix.name);
    const siblings = bundle.entries.filter((e) => dirName(e.name) === dir);
    const features = siblings.find((e) => FEATURES.test(baseName(e.name)));
    const genes = siblings.find((e) => GENES.test(baseName(e.name)));
    const barcodes = siblings.find((e) => BARCODES.test(baseName(e.name)));
    const list = features ?? genes;
    if (list && barcodes) found.push({ matrix, features: list, barcodes, version: features ? 'v3' : 'v2' });
  }
  return found;
}

/** Pick the 10x triplet to read: the only one, else the one whose path says "filtered". */
export function pick10xMtx(bundle: SourceBundle): TenxMtxFiles {
  const all = find10xMtx(bundle);
  const filtered = all.filter((f) => /filtered/i.test(f.matrix.name) && !/raw/i.test(f.matrix.name));
  // Several matrices: only the 10x outs layout (one filtered matrix beside raw ones) is
  // unambiguous; anything else is refused rather than half-read.
  if (all.length > 1 && filtered.length !== 1) {
    throw new FormatError('source.ambiguous', {
      file: bundle.name,
      count: all.length,
      names: all
        .map((f) => f.matrix.name)
        .slice(0, 4)
        .join(', '),
    });
  }
  const chosen = filtered[0] ?? all[0];
  if (!chosen) {
    const hasMatrix = bundle.entries.some((e) => MATRIX.test(baseName(e.name)));
    const expected = hasMatrix
      ? 'barcodes.tsv(.gz) and features.tsv(.gz) or genes.tsv(.gz) beside matrix.mtx'
      : 'matrix.mtx(.gz)';
    throw new FormatError('source.missing_file', { file: bundle.name, expected });
  }
  return chosen;
}

export async function read10xMtxFiles(
  files: TenxMtxFiles,
  sample: string,
  opts: ReadOptions = {},
): Promise<Dataset> {
  const warnings: string[] = [];
  const feat = parseFeatures(await readText(files.features), files.features.name, files.version === 'v3');
  warnings.push(...feat.warnings);
  const bc = parseBarcodes(await readText(files.barcodes), files.barcodes.name, sampleName(sample));
  warnings.push(...bc.warnings);
  const nGenes = feat.genes.ids.length;
  const nCells = bc.barcodes.length;
  let transposed = false;
  const checkShape = ({ rows, cols }: { rows: number; cols: number }) => {
    if (rows === nGenes && cols === nCells) return;
    if (rows === nCells && cols === nGenes) {
      transposed = true;
      return;
    }
    if (rows !== nGenes) {
      throw new FormatError('mtx.gene_count_mismatch', {
        file: files.matrix.name,
        matrixGenes: rows,
        listFile: files.features.name,
        listed: nGenes,
      });
    }
    throw new FormatError('mtx.barcode_count_mismatch', {
      file: files.matrix.name,
      matrixCells: cols,
      listFile: files.barcodes.name,
      listed: nCells,
    });
  };
  const contentBytes = (await isGzipSource(files.matrix))
    ? decompressedBudget(files.matrix.size)
    : files.matrix.size;
  const t = await parseMtx(contentChunks(files.matrix), files.matrix.name, {
    ...opts,
    onHeader: checkShape,
    contentBytes,
  });
  const geneIdx = transposed ? t.col : t.row;
  const cellIdx = transposed ? t.row : t.col;
  if (transposed) warnings.push(`${files.matrix.name}: the matrix is cells × genes; it was read transposed.`);
  if (t.nonInteger)
    warnings.push(`${files.matrix.name}: the matrix holds non-integer values; they were kept as they are.`);
  const { matrix, duplicates } = tripletsToCsc(geneIdx, cellIdx, t.val, nGenes, nCells);
  if (duplicates)
    warnings.push(`${files.matrix.name}: ${duplicates} repeated (gene, cell) entries were summed.`);
  const fin = finishTables(matrix, feat.genes, bc.barcodes, warnings);
  return {
    counts: fin.counts,
    genes: fin.genes,
    cells: { barcodes: fin.barcodes, columns: {} },
    embeddings: {},
    format: '10x-mtx',
    warnings,
  };
}

/** Read the 10x MTX folder (or unpacked archive) in the bundle. */
export async function read10xMtx(bundle: SourceBundle, opts: ReadOptions = {}): Promise<Dataset> {
  const files = pick10xMtx(bundle);
  const ds = await read10xMtxFiles(files, bundle.name, opts);
  const count = find10xMtx(bundle).length;
  if (count > 1)
    ds.warnings.push(
      `${bundle.name}: ${count} matrices found; read ${files.matrix.name}. Upload one sample per dataset.`,
    );
  return ds;
}
