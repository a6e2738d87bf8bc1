import { FormatError } from './errors';
import {
  datasetAt,
  groupAt,
  type H5File,
  type H5Group,
  numbers,
  requireDataset,
  strings,
  withH5,
} from './h5-io';
import type { Dataset } from './matrix';
import { checkCounts, csrToCanonical } from './csc';
import type { ReadOptions } from './read-10x-mtx';
import { finishTables } from './tables';

/** 10x HDF5 (CellRanger v3 "matrix/" with features/, or v2 "<genome>/" with genes, gene_names). */
export async function read10xH5Bytes(
  bytes: Uint8Array,
  file: string,
  opts: ReadOptions = {},
): Promise<Dataset> {
  return withH5(bytes, file, (f) => read10xH5File(f, file, opts));
}

export function is10xH5(f: H5File): boolean {
  const m = groupAt(f, 'matrix');
  if (m && groupAt(m, 'features')) return true;
  return f.keys().some((k) => {
    const g = groupAt(f, k);
    return !!g && !!datasetAt(g, 'genes') && !!datasetAt(g, 'barcodes') && !!datasetAt(g, 'indptr');
  });
}

function read10xH5File(f: H5File, file: string, opts: ReadOptions): Dataset {
  const warnings: string[] = [];
  let g: H5Group | undefined = groupAt(f, 'matrix');
  let ids: string[];
  let symbols: string[];
  let featureTypes: string[] | undefined;
  if (g && groupAt(g, 'features')) {
    const feat = groupAt(g, 'features')!;
    ids = strings(requireDataset(feat, 'id', file), file);
    symbols = strings(requireDataset(feat, 'name', file), file);
    const ft = datasetAt(feat, 'feature_type');
    if (ft) featureTypes = strings(ft, file);
  } else {
    const genomes = f.keys().filter((k) => {
      const x = groupAt(f, k);
      return !!x && !!datasetAt(x, 'genes');
    });
    if (genomes.length === 0)
      throw new FormatError('h5.missing_field', { file, field: 'matrix/features or <genome>/genes' });
    if (genomes.length > 1)
      warnings.push(
        `${file}: ${genomes.length} genomes found (${genomes.join(', ')}); read "${genomes[0]}".`,
      );
    g = groupAt(f, genomes[0]!)!;
    ids = strings(requireDataset(g, 'genes', file), file);
    const names = datasetAt(g, 'gene_names');
    symbols = names ? strings(names, file) : ids;
  }
  const barcodes = strings(requireDataset(g, 'barcodes', file), file);
  const shape = Array.from(numbers(requireDataset(g, 'shape', file), file));
  const data = numbers(requireDataset(g, 'data', file), file);
  const indices = numbers(requireDataset(g, 'indices', file), file);
  const indptr = numbers(requireDataset(g, 'indptr', file), file);
  const [nGenes, nCells] = shape as [number, number];
  if (nGenes !== ids.length) {
    throw new FormatError('mtx.gene_count_mismatch', {
      file,
      matrixGenes: nGenes,
      listFile: `${g.path}/features`,
      listed: ids.length,
    });
  }
  if (nCells !== barcodes.length || indptr.length !== nCells + 1) {
    throw new FormatError('mtx.barcode_count_mismatch', {
      file,
      matrixCells: indptr.length - 1,
      listFile: `${g.path}/barcodes`,
      listed: barcodes.length,
    });
  }
  const check = checkCounts(data);
  if (!check.ok && (check.negative || check.notFinite || !opts.allowNonInteger)) {
    throw new FormatError(
      check.notFinite ? 'counts.not_finite' : check.negative ? 'counts.negative' : 'counts.non_integer',
      { file, where: `${g.path}/data`, value: check.value },
    );
  }
  if (!check.ok) warnings.push(`${file}: the matrix holds non-integer values; they were kept as they are.`);
  const counts = csrToCanonical(indptr, indices, data, nCells, nGenes, file);
  const fin = finishTables(
    counts,
    { ids, symbols, ...(featureTypes ? { featureTypes } : {}) },
    barcodes,
    warnings,
  );
  return {
    counts: fin.counts,
    genes: fin.genes,
    cells: { barcodes: fin.barcodes, columns: {} },
    embeddings: {},
    format: '10x-h5',
    warnings,
  };
}
