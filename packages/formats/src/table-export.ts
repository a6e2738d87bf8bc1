import { strToU8, zipSync } from 'fflate';

/**
 * Table export shared by the web (explorer CSV / XLSX buttons) and the server (the `tables`
 * download, issue 21): CSV (RFC 4180) and a minimal XLSX workbook (inline strings, numbers as
 * numbers, one sheet per table). Pure: bytes in, bytes out.
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

const csvCell = (v: Cell) => {
  const s = typeof v === 'number' ? String(v) : v;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

export function toCsv(header: string[], rows: Cell[][]): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

const xml = (s: string) =>
  s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

function colName(i: number): string {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

function sheetXml(rows: Cell[][]): string {
  const body = rows
    .map((r, ri) => {
      const cells = r
        .map((v, ci) => {
          const ref = `${colName(ci)}${ri + 1}`;
          return typeof v === 'number' && Number.isFinite(v)
            ? `<c r="${ref}"><v>${v}</v></c>`
            : `<c r="${ref}" t="inlineStr"><is><t>${xml(String(v))}</t></is></c>`;
        })
        .join('');
      return `<row r="${ri + 1}">${cells}</row>`;
    })
    .join('');
  // the used range up front: readers that stream (openpyxl read-only, Excel's preview) size the sheet by it
  const nCols = rows.reduce((m, r) => Math.max(m, r.length), 1);
  const dimension = `A1:${colName(nCols - 1)}${Math.max(rows.length, 1)}`;
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="${dimension}"/><sheetData>${body}</sheetData></worksheet>`;
}

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

/** An XLSX workbook with one sheet per entry (names made valid and unique with `sheetNames`). */
export function toXlsxWorkbook(sheets: Sheet[]): Uint8Array {
  if (!sheets.length) throw new Error('a workbook needs at least one sheet');
  const names = sheetNames(sheets.map((s) => s.name));
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8(
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${sheets
        .map(
          (_, i) =>
            `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
        )
        .join('')}</Types>`,
    ),
    '_rels/.rels': strToU8(
      `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    'xl/workbook.xml': strToU8(
      `${XML_HEAD}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${REL}"><sheets>${names
        .map((n, i) => `<sheet name="${xml(n)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
        .join('')}</sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': strToU8(
      `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheets
        .map(
          (_, i) =>
            `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
        )
        .join('')}</Relationships>`,
    ),
  };
  sheets.forEach((s, i) => {
    files[`xl/worksheets/sheet${i + 1}.xml`] = strToU8(sheetXml([s.header, ...s.rows]));
  });
  return zipSync(files, { level: 6 });
}

/** A single-sheet XLSX (the explorer's table buttons). */
export function toXlsx(sheetName: string, header: string[], rows: Cell[][]): Uint8Array {
  return toXlsxWorkbook([{ name: sheetName, header, rows }]);
}
