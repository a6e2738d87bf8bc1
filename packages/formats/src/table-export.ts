import { neutralizeText } from '@cellcloud/contracts/spreadsheet-safe';
import { parseCsvRows } from '@cellcloud/contracts/tasks/csv';
import { strToU8, Zip, ZipDeflate } from 'fflate';
import { concatChunks } from './sources';

/**
 * Table export shared by the web (explorer CSV / XLSX buttons) and the server (the `tables`
 * download, issue 21): CSV (RFC 4180) and a minimal XLSX workbook (inline strings, numbers as
 * numbers, one sheet per table). Pure: bytes in, bytes out. Text cells (headers too) that a
 * spreadsheet would read as a formula get a leading quote (contracts/spreadsheet-safe.ts); numbers
 * stay numbers.
 */
export type Cell = string | number;

export interface Sheet {
  name: string;
  header: string[];
  rows: Cell[][];
}

/** Rows an XLSX sheet holds besides its header row (1,048,576 in all). */
export const XLSX_MAX_ROWS = 1_048_575;
const SHEET_NAME_MAX = 31;

/** One CSV field: RFC 4180 quoting; text neutralised (numbers are written as numbers). */
export const csvCell = (v: Cell): string => {
  const s = typeof v === 'number' ? String(v) : neutralizeText(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

export function toCsv(header: string[], rows: Cell[][]): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** A field that starts (after an opening quote) with a formula character, anywhere in CSV text. */
const FORMULA_FIELD = /(^|[,\n\r])"?[=+\-@\t\r]/;

/**
 * CSV text as stored (task tables, markers) made safe to open in a spreadsheet: every field a
 * spreadsheet would read as a formula gets its leading quote, the rest is unchanged (same line
 * endings; text with no such field is returned as it is).
 */
export function neutralizeCsv(text: string): string {
  if (!FORMULA_FIELD.test(text)) return text;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const rows = parseCsvRows(text);
  return rows.map((r) => r.map(csvCell).join(',')).join(eol) + (/[\r\n]$/.test(text) ? eol : '');
}

const xml = (s: string) =>
  s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\r/g, '&#13;'); // XML readers turn a literal CR into LF

function colName(i: number): string {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

const rowXml = (r: Cell[], ri: number) =>
  `<row r="${ri + 1}">${r
    .map((v, ci) => {
      const ref = `${colName(ci)}${ri + 1}`;
      return typeof v === 'number' && Number.isFinite(v)
        ? `<c r="${ref}"><v>${v}</v></c>`
        : `<c r="${ref}" t="inlineStr"><is><t>${xml(neutralizeText(String(v)))}</t></is></c>`;
    })
    .join('')}</row>`;

/**
 * Sheet names for `names`, in order: characters Excel refuses (`\ / ? * [ ] :`) replaced by `_`,
 * at most 31 characters, unique case-insensitively (a clash gets `~2`, `~3`, … within the 31).
 */
export function sheetNames(names: string[]): string[] {
  const taken = new Set<string>();
  return names.map((n) => {
    const base = (n.replace(/[\\/?*[\]:]/g, '_').replace(/^'|'$/g, '_') || 'Sheet').slice(0, SHEET_NAME_MAX);
    let name = base;
    for (let i = 2; taken.has(name.toLowerCase()); i++) {
      const tail = `~${i}`;
      name = base.slice(0, SHEET_NAME_MAX - tail.length) + tail;
    }
    taken.add(name.toLowerCase());
    return name;
  });
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** Rows serialized per compressed chunk of a sheet. */
const ROWS_PER_CHUNK = 2048;

export interface XlsxWriter {
  /** Appends a sheet (header row + rows); its XML is compressed a few thousand rows at a time. */
  sheet(name: string, header: string[], rows: readonly Cell[][]): void;
  /** Writes the workbook parts naming the sheets (names made valid and unique) and ends the zip. */
  end(): void;
}

/**
 * A streaming XLSX writer: sheets are added one at a time and their XML is deflated in chunks as
 * it is produced, so a workbook of many large tables never holds more than one table and one chunk
 * of XML; the package parts that list the sheets are written last (zip entry order is free).
 */
export function xlsxWriter(sink: (chunk: Uint8Array) => void): XlsxWriter {
  const zip = new Zip((err, chunk) => {
    if (err) throw err;
    sink(chunk);
  });
  const part = (name: string, text: string) => {
    const f = new ZipDeflate(name, { level: 6 });
    zip.add(f);
    f.push(strToU8(text), true);
  };
  const wanted: string[] = [];
  return {
    sheet(name, header, rows) {
      wanted.push(name);
      const f = new ZipDeflate(`xl/worksheets/sheet${wanted.length}.xml`, { level: 6 });
      zip.add(f);
      // the used range up front: streaming readers (openpyxl read-only, Excel's preview) size the sheet by it
      const nCols = rows.reduce((m, r) => Math.max(m, r.length), Math.max(header.length, 1));
      f.push(
        strToU8(
          `${XML_HEAD}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:${colName(nCols - 1)}${rows.length + 1}"/><sheetData>${rowXml(header, 0)}`,
        ),
      );
      for (let i = 0; i < rows.length; i += ROWS_PER_CHUNK) {
        let text = '';
        for (let k = i; k < Math.min(rows.length, i + ROWS_PER_CHUNK); k++) text += rowXml(rows[k]!, k + 1);
        f.push(strToU8(text));
      }
      f.push(strToU8('</sheetData></worksheet>'), true);
    },
    end() {
      if (!wanted.length) throw new Error('a workbook needs at least one sheet');
      const names = sheetNames(wanted);
      part(
        '[Content_Types].xml',
        `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${names
          .map(
            (_, i) =>
              `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
          )
          .join('')}</Types>`,
      );
      part(
        '_rels/.rels',
        `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      );
      part(
        'xl/workbook.xml',
        `${XML_HEAD}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${REL}"><sheets>${names
          .map((n, i) => `<sheet name="${xml(n)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
          .join('')}</sheets></workbook>`,
      );
      part(
        'xl/_rels/workbook.xml.rels',
        `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${names
          .map(
            (_, i) =>
              `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
          )
          .join('')}</Relationships>`,
      );
      zip.end();
    },
  };
}

/** An XLSX workbook with one sheet per entry, in memory (names made valid and unique with `sheetNames`). */
export function toXlsxWorkbook(sheets: Sheet[]): Uint8Array {
  const chunks: Uint8Array[] = [];
  const w = xlsxWriter((c) => chunks.push(c));
  for (const s of sheets) w.sheet(s.name, s.header, s.rows);
  w.end();
  return concatChunks(chunks);
}

/** A single-sheet XLSX (the explorer's table buttons). */
export function toXlsx(sheetName: string, header: string[], rows: Cell[][]): Uint8Array {
  return toXlsxWorkbook([{ name: sheetName, header, rows }]);
}
