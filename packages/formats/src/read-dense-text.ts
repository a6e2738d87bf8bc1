import { DECIMAL, FLOAT32_MAX } from './mtx-parse';
import { tripletsToCsc } from './csc';
import { FormatError } from './errors';
import { contentChunks } from './gzip';
import type { Dataset } from './matrix';
import type { ReadOptions } from './read-10x-mtx';
import type { ByteSource } from './sources';
import { finishTables } from './tables';

/** Dense text matrices (TSV / CSV / whitespace, gz or not), genes × cells or cells × genes. */

async function* textLinesOf(source: ByteSource): AsyncIterable<string> {
  const decoder = new TextDecoder('utf-8');
  let rest = '';
  for await (const chunk of contentChunks(source)) {
    const text = rest + decoder.decode(chunk, { stream: true });
    const lines = text.split('\n');
    rest = lines.pop()!;
    for (const l of lines) yield l.endsWith('\r') ? l.slice(0, -1) : l;
  }
  rest += decoder.decode();
  if (rest !== '') yield rest.endsWith('\r') ? rest.slice(0, -1) : rest;
}

function splitter(line: string): (l: string) => string[] {
  if (line.includes('\t')) return (l) => l.split('\t');
  if (line.includes(',')) return (l) => l.split(',');
  return (l) => l.trim().split(/\s+/);
}

const unquote = (s: string) => (s.length >= 2 && s[0] === '"' && s.endsWith('"') ? s.slice(1, -1) : s).trim();

const BARCODE = /^([A-Za-z0-9]+[_-])?[ACGTN]{8,}([-_.]\d+)?$|[ACGT]{10,}/;
const ENSEMBL = /^ENS[A-Z]*G\d{6,}/;
const GENE_HINT = /^(MT-|mt-|RP[LS]\d|Rp[ls]\d|ENS[A-Z]*G\d)/;

function fraction(names: string[], re: RegExp): number {
  const sample =
    names.length > 2000 ? names.filter((_, i) => i % Math.ceil(names.length / 2000) === 0) : names;
  return sample.length ? sample.filter((n) => re.test(n)).length / sample.length : 0;
}

/** Decide whether rows are genes; returns the reason for the warning. */
export function rowsAreGenes(rowNames: string[], colNames: string[]): { rowsGenes: boolean; reason: string } {
  const colBc = fraction(colNames, BARCODE);
  const rowBc = fraction(rowNames, BARCODE);
  if (colBc >= 0.5 && colBc > rowBc)
    return { rowsGenes: true, reason: 'column names look like cell barcodes' };
  if (rowBc >= 0.5 && rowBc > colBc) return { rowsGenes: false, reason: 'row names look like cell barcodes' };
  const colEns = fraction(colNames, ENSEMBL);
  const rowEns = fraction(rowNames, ENSEMBL);
  if (rowEns > 0.5 || colEns > 0.5)
    return rowEns >= colEns
      ? { rowsGenes: true, reason: 'row names are Ensembl gene ids' }
      : { rowsGenes: false, reason: 'column names are Ensembl gene ids' };
  const rowHint = rowNames.filter((n) => GENE_HINT.test(n)).length;
  const colHint = colNames.filter((n) => GENE_HINT.test(n)).length;
  if (rowHint !== colHint)
    return rowHint > colHint
      ? { rowsGenes: true, reason: 'row names include mitochondrial/ribosomal gene symbols' }
      : { rowsGenes: false, reason: 'column names include mitochondrial/ribosomal gene symbols' };
  return {
    rowsGenes: rowNames.length >= colNames.length,
    reason: 'no names identified; assumed the longer axis holds genes',
  };
}

export async function readDenseText(source: ByteSource, opts: ReadOptions = {}): Promise<Dataset> {
  const file = source.name;
  const warnings: string[] = [];
  let split: ((l: string) => string[]) | undefined;
  let header: string[] | undefined;
  let lineNo = 0;
  const rowNames: string[] = [];
  let rowIdx: number[] = [];
  let colIdx: number[] = [];
  let vals: number[] = [];
  const rowParts: { r: Uint32Array; c: Uint32Array; v: Float32Array }[] = [];
  let nonInteger = false;
  let nCols = 0;
  for await (const line of textLinesOf(source)) {
    lineNo++;
    if (line.trim() === '' || line.startsWith('#')) continue;
    split ??= splitter(line);
    const fields = split(line);
    if (!header) {
      header = fields.map(unquote);
      continue;
    }
    if (rowNames.length === 0) {
      nCols = fields.length - 1;
      if (header.length === fields.length) header = header.slice(1);
      if (header.length !== nCols)
        throw new FormatError('text.bad_row', {
          file,
          line: lineNo,
          expected: header.length + 1,
          found: fields.length,
        });
    }
    if (fields.length !== nCols + 1)
      throw new FormatError('text.bad_row', {
        file,
        line: lineNo,
        expected: nCols + 1,
        found: fields.length,
      });
    const r = rowNames.length;
    rowNames.push(unquote(fields[0]!));
    for (let c = 0; c < nCols; c++) {
      const text = fields[c + 1]!;
      const t = text.trim();
      const v = Number(t);
      // Plain decimals only: no hex (0x10), Infinity/NaN or separators.
      if (t === '' || Number.isNaN(v) || !DECIMAL.test(t))
        throw new FormatError('text.bad_value', {
          file,
          line: lineNo,
          column: c + 2,
          value: text.slice(0, 40),
        });
      if (!Number.isFinite(v) || Math.abs(v) > FLOAT32_MAX)
        throw new FormatError('counts.not_finite', {
          file,
          where: `line ${lineNo}, column ${c + 2}`,
          value: t.slice(0, 40),
        });
      if (v === 0) continue;
      if (v < 0)
        throw new FormatError('counts.negative', {
          file,
          where: `line ${lineNo}, column ${c + 2}`,
          value: v,
        });
      if (!Number.isInteger(v)) {
        if (!opts.allowNonInteger)
          throw new FormatError('counts.non_integer', {
            file,
            where: `line ${lineNo}, column ${c + 2}`,
            value: v,
          });
        nonInteger = true;
      }
      rowIdx.push(r);
      colIdx.push(c);
      vals.push(v);
    }
    if (vals.length > 1 << 20) {
      rowParts.push({ r: Uint32Array.from(rowIdx), c: Uint32Array.from(colIdx), v: Float32Array.from(vals) });
      rowIdx = [];
      colIdx = [];
      vals = [];
    }
  }
  rowParts.push({ r: Uint32Array.from(rowIdx), c: Uint32Array.from(colIdx), v: Float32Array.from(vals) });
  if (!header || rowNames.length === 0) throw new FormatError('text.empty', { file });
  const nnz = rowParts.reduce((a, p) => a + p.v.length, 0);
  const R = new Uint32Array(nnz);
  const C = new Uint32Array(nnz);
  const V = new Float32Array(nnz);
  let off = 0;
  for (const p of rowParts) {
    R.set(p.r, off);
    C.set(p.c, off);
    V.set(p.v, off);
    off += p.v.length;
  }
  const orient = rowsAreGenes(rowNames, header);
  const geneNames = orient.rowsGenes ? rowNames : header;
  const cellNames = orient.rowsGenes ? header : rowNames;
  warnings.push(
    `${file}: read as ${orient.rowsGenes ? 'genes × cells' : 'cells × genes (transposed)'} because ${orient.reason}.`,
  );
  if (nonInteger) warnings.push(`${file}: the matrix holds non-integer values; they were kept as they are.`);
  const { matrix } = orient.rowsGenes
    ? tripletsToCsc(R, C, V, geneNames.length, cellNames.length)
    : tripletsToCsc(C, R, V, geneNames.length, cellNames.length);
  const fin = finishTables(matrix, { ids: geneNames, symbols: geneNames }, cellNames, warnings);
  return {
    counts: fin.counts,
    genes: fin.genes,
    cells: { barcodes: fin.barcodes, columns: {} },
    embeddings: {},
    format: 'dense-text',
    warnings,
  };
}
