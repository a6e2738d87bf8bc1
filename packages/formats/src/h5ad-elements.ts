import { checkCounts, csrToCanonical, transposeCompressed } from './csc';
import { FormatError } from './errors';
import {
  attrJson,
  attrString,
  child,
  datasetAt,
  groupAt,
  type H5Dataset,
  type H5Group,
  isDataset,
  isGroup,
  numbers,
  requireDataset,
  shapeOf,
  strings,
} from './h5-io';
import type { CellColumn, CountMatrix } from './matrix';

/** Reading AnnData on-disk elements (anndata ≥ 0.7 encodings, plus the older sparse/categorical styles). */

export interface MatrixElement {
  /** cells × genes as stored. */
  shape: [number, number];
  kind: 'csr' | 'csc' | 'dense';
  ptr?: ArrayLike<number>;
  idx?: ArrayLike<number>;
  values: ArrayLike<number>;
}

export function readMatrixElement(e: H5Group | H5Dataset, file: string): MatrixElement {
  if (isDataset(e)) {
    const shape = shapeOf(e);
    if (shape.length !== 2)
      throw new FormatError('h5.bad_field', {
        file,
        field: e.path,
        detail: `expected a 2-D matrix, shape is [${shape.join(', ')}]`,
      });
    return { shape: shape as [number, number], kind: 'dense', values: numbers(e, file) };
  }
  const enc = attrString(e, 'encoding-type') ?? attrString(e, 'h5sparse_format');
  const kind =
    enc === 'csr_matrix' || enc === 'csr' ? 'csr' : enc === 'csc_matrix' || enc === 'csc' ? 'csc' : undefined;
  if (!kind)
    throw new FormatError('h5.bad_field', {
      file,
      field: e.path,
      detail: `unsupported matrix encoding "${enc ?? 'none'}"`,
    });
  const shapeAttr = attrJson(e, 'shape') ?? attrJson(e, 'h5sparse_shape');
  if (!Array.isArray(shapeAttr) || shapeAttr.length !== 2)
    throw new FormatError('h5.missing_field', { file, field: `${e.path} shape attribute` });
  return {
    shape: [Number(shapeAttr[0]), Number(shapeAttr[1])],
    kind,
    ptr: numbers(requireDataset(e, 'indptr', file), file),
    idx: numbers(requireDataset(e, 'indices', file), file),
    values: numbers(requireDataset(e, 'data', file), file),
  };
}

/** Describe why a matrix element is not raw counts, or undefined when it is. */
export function notCountsReason(m: MatrixElement): string | undefined {
  const c = checkCounts(m.values);
  if (c.ok) return undefined;
  return c.negative ? `has negative values such as ${c.value}` : `has non-integer values such as ${c.value}`;
}

/** The element as the canonical CSC-by-cell matrix. */
export function toCanonical(m: MatrixElement, file: string, path: string): CountMatrix {
  const [nCells, nGenes] = m.shape;
  if (m.kind === 'csr') return csrToCanonical(m.ptr!, m.idx!, m.values, nCells, nGenes, `${file} ${path}`);
  if (m.kind === 'csc') return transposeCompressed(m.ptr!, m.idx!, m.values, nGenes, nCells);
  const v = m.values;
  const indptr = new Float64Array(nCells + 1);
  for (let i = 0; i < nCells; i++) {
    let n = 0;
    for (let g = i * nGenes, end = g + nGenes; g < end; g++) if (v[g] !== 0) n++;
    indptr[i + 1] = indptr[i]! + n;
  }
  const indices = new Uint32Array(indptr[nCells]!);
  const data = new Float32Array(indptr[nCells]!);
  let w = 0;
  for (let i = 0; i < nCells; i++) {
    const base = i * nGenes;
    for (let g = 0; g < nGenes; g++) {
      const x = v[base + g]!;
      if (x !== 0) {
        indices[w] = g;
        data[w++] = x;
      }
    }
  }
  return { nGenes, nCells, indptr, indices, data };
}

export interface DataFrame {
  index: string[];
  columns: Record<string, CellColumn>;
  /** String-valued columns kept as strings (gene ids, feature types, …). */
  strings: Record<string, string[]>;
}

function columnOrder(g: H5Group): string[] {
  const v = attrJson(g, 'column-order');
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === 'string') return [v];
  return g.keys().filter((k) => k !== '__categories' && k !== (attrString(g, '_index') ?? '_index'));
}

/** Codes → labels; -1 is pandas' missing value, any other code outside the categories is an error. */
function decodeCategorical(
  codes: ArrayLike<number>,
  categories: string[],
  file: string,
  field: string,
): string[] {
  const out = new Array<string>(codes.length);
  for (let k = 0; k < codes.length; k++) {
    const c = codes[k]!;
    if (c === -1) out[k] = 'NA';
    else if (Number.isInteger(c) && c >= 0 && c < categories.length) out[k] = categories[c]!;
    else
      throw new FormatError('h5.bad_field', {
        file,
        field,
        detail: `code ${c} of row ${k + 1} is outside the ${categories.length} categories`,
      });
  }
  return out;
}

function categoryLabels(d: H5Dataset, file: string): string[] {
  const v = d.value;
  if (Array.isArray(v)) return strings(d, file);
  return Array.from(numbers(d, file), (x) => String(x));
}

/** An AnnData dataframe group (obs / var / raw/var). */
export function readDataFrame(e: H5Group | H5Dataset | undefined, field: string, file: string): DataFrame {
  if (!e) throw new FormatError('h5.missing_field', { file, field });
  if (!isGroup(e))
    throw new FormatError('h5.bad_field', {
      file,
      field,
      detail:
        'expected a dataframe group (files written by anndata < 0.7 are not supported; re-save with a current anndata)',
    });
  const g = e;
  const indexName = attrString(g, '_index') ?? '_index';
  const index = strings(requireDataset(g, indexName, file), file);
  const oldCategories = groupAt(g, '__categories');
  const columns: Record<string, CellColumn> = {};
  const stringCols: Record<string, string[]> = {};
  for (const name of columnOrder(g)) {
    const e = child(g, name);
    if (!e) continue;
    if (isGroup(e)) {
      const enc = attrString(e, 'encoding-type');
      if (enc === 'categorical') {
        const values = decodeCategorical(
          numbers(requireDataset(e, 'codes', file), file),
          categoryLabels(requireDataset(e, 'categories', file), file),
          file,
          `${field}/${name}`,
        );
        columns[name] = { kind: 'categorical', values };
        stringCols[name] = values;
      } else if (enc === 'nullable-integer' || enc === 'nullable-boolean') {
        const vals = Float64Array.from(numbers(requireDataset(e, 'values', file), file));
        const mask = numbers(requireDataset(e, 'mask', file), file);
        for (let k = 0; k < vals.length; k++) if (mask[k]) vals[k] = NaN;
        columns[name] = { kind: 'numeric', values: vals };
      }
      continue;
    }
    const oldCats = oldCategories && datasetAt(oldCategories, name);
    if (oldCats) {
      const values = decodeCategorical(
        numbers(e, file),
        categoryLabels(oldCats, file),
        file,
        `${field}/${name}`,
      );
      columns[name] = { kind: 'categorical', values };
      stringCols[name] = values;
    } else if (Array.isArray(e.value)) {
      const values = strings(e, file);
      columns[name] = { kind: 'categorical', values };
      stringCols[name] = values;
    } else {
      columns[name] = { kind: 'numeric', values: Float64Array.from(numbers(e, file)) };
    }
  }
  return { index, columns, strings: stringCols };
}

/** obsm entries that are 2-D arrays with one row per cell, as row-major Float32. */
export function readObsm(
  g: H5Group | undefined,
  nCells: number,
  file: string,
): Record<string, { dims: number; values: Float32Array }> {
  const out: Record<string, { dims: number; values: Float32Array }> = {};
  if (!g) return out;
  for (const key of g.keys()) {
    const d = datasetAt(g, key);
    if (!d) continue;
    const shape = shapeOf(d);
    if (shape.length !== 2 || shape[0] !== nCells) continue;
    const v = numbers(d, file);
    out[key] = { dims: shape[1]!, values: v instanceof Float32Array ? v : Float32Array.from(v) };
  }
  return out;
}
