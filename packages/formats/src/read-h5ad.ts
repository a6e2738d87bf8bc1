import { FormatError } from './errors';
import {
  type DataFrame,
  type MatrixElement,
  notCountsReason,
  readDataFrame,
  readMatrixElement,
  readObsm,
  toCanonical,
} from './h5ad-elements';
import { child, groupAt, type H5File, withH5 } from './h5-io';
import type { Dataset, GeneTable } from './matrix';
import type { ReadOptions } from './read-10x-mtx';
import { finishTables } from './tables';

/**
 * AnnData .h5ad: raw counts are taken from layers["counts"], else raw.X, else X — the first one
 * that holds non-negative integers. Normalized-only files are refused with a message saying so.
 */
export async function readH5adBytes(
  bytes: Uint8Array,
  file: string,
  opts: ReadOptions = {},
): Promise<Dataset> {
  return withH5(bytes, file, (f) => readH5adFile(f, file, opts));
}

export function isH5ad(f: H5File): boolean {
  const keys = f.keys();
  return keys.includes('obs') && keys.includes('var') && keys.includes('X');
}

const ENSEMBL = /^ENS[A-Z]*G\d{6,}/;
const SYMBOL_COLUMNS = ['gene_symbols', 'gene_symbol', 'feature_name', 'gene_name', 'gene_names', 'symbol'];
const ID_COLUMNS = ['gene_ids', 'gene_id', 'ensembl_id', 'feature_id'];

/** Gene ids and symbols from a var dataframe (scanpy puts symbols in the index, ids in gene_ids). */
export function geneTable(v: DataFrame): GeneTable {
  const idCol = ID_COLUMNS.find((c) => v.strings[c]);
  const symCol = SYMBOL_COLUMNS.find((c) => v.strings[c]);
  const featureTypes = v.strings['feature_types'] ?? v.strings['feature_type'];
  const extra = featureTypes ? { featureTypes } : {};
  if (idCol) return { ids: v.strings[idCol]!, symbols: symCol ? v.strings[symCol]! : v.index, ...extra };
  if (symCol && v.index.some((x) => ENSEMBL.test(x)))
    return { ids: v.index, symbols: v.strings[symCol]!, ...extra };
  return { ids: v.index, symbols: v.index, ...extra };
}

interface Candidate {
  where: string;
  element: MatrixElement;
  var: DataFrame;
}

function readH5adFile(f: H5File, file: string, opts: ReadOptions): Dataset {
  const warnings: string[] = [];
  const obs = readDataFrame(child(f, 'obs'), 'obs', file);
  const nCells = obs.index.length;
  let mainVar: DataFrame | undefined;
  const getVar = () => (mainVar ??= readDataFrame(child(f, 'var'), 'var', file));
  const sources: { where: string; load: () => Candidate | undefined }[] = [
    {
      where: 'layers["counts"]',
      load: () => {
        const layers = groupAt(f, 'layers');
        const e = layers && child(layers, 'counts');
        return e
          ? { where: 'layers["counts"]', element: readMatrixElement(e, file), var: getVar() }
          : undefined;
      },
    },
    {
      where: 'raw.X',
      load: () => {
        const raw = groupAt(f, 'raw');
        const e = raw && child(raw, 'X');
        return raw && e
          ? {
              where: 'raw.X',
              element: readMatrixElement(e, file),
              var: readDataFrame(child(raw, 'var'), 'raw/var', file),
            }
          : undefined;
      },
    },
    {
      where: 'X',
      load: () => {
        const e = child(f, 'X');
        return e ? { where: 'X', element: readMatrixElement(e, file), var: getVar() } : undefined;
      },
    },
  ];
  const rejected: string[] = [];
  let chosen: Candidate | undefined;
  let fallback: Candidate | undefined;
  for (const s of sources) {
    const c = s.load();
    if (!c) continue;
    const reason = notCountsReason(c.element);
    if (!reason) {
      chosen = c;
      break;
    }
    rejected.push(`${c.where} ${reason}`);
    if (!fallback && !reason.startsWith('has negative')) fallback = c;
  }
  if (!chosen && opts.allowNonInteger && fallback) {
    chosen = fallback;
    warnings.push(
      `${file}: no integer counts found; read non-integer values from ${fallback.where} as they are.`,
    );
  }
  if (!chosen) {
    throw new FormatError('h5ad.normalized_only', {
      file,
      detail: rejected.length ? rejected.join('; ') : 'no X',
    });
  }
  const [rows, cols] = chosen.element.shape;
  if (rows !== nCells) {
    throw new FormatError('mtx.barcode_count_mismatch', {
      file: `${file} ${chosen.where}`,
      matrixCells: rows,
      listFile: 'obs',
      listed: nCells,
    });
  }
  const genes = geneTable(chosen.var);
  if (cols !== genes.ids.length) {
    throw new FormatError('mtx.gene_count_mismatch', {
      file: `${file} ${chosen.where}`,
      matrixGenes: cols,
      listFile: chosen.where === 'raw.X' ? 'raw/var' : 'var',
      listed: genes.ids.length,
    });
  }
  if (chosen.where !== 'X')
    warnings.push(
      `${file}: raw counts read from ${chosen.where}${rejected.length ? ` (${rejected.join('; ')})` : ''}.`,
    );
  const counts = toCanonical(chosen.element, file, chosen.where);
  const fin = finishTables(counts, genes, obs.index, warnings);
  return {
    counts: fin.counts,
    genes: fin.genes,
    cells: { barcodes: fin.barcodes, columns: obs.columns },
    embeddings: readObsm(groupAt(f, 'obsm'), nCells, file),
    format: 'h5ad',
    warnings,
  };
}
