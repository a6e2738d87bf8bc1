/**
 * The codec of task result tables (`tables/<name>.csv`, contracts tasks/define.ts): RFC 4180 CSV
 * with a header row. Shared by the engine (writing, reading a source task's tables), the server
 * and the web views (reading the CSV the API serves), so the format is defined once.
 */
export type TableValue = string | number | boolean | null;

/** A column-oriented table: every row has one value per column. */
export interface TaskTable {
  columns: string[];
  rows: TableValue[][];
}

/** CSV text: numbers as JS shortest round-trip text (±Inf, NaN spelled out), null as empty. */
export function tableToCsv(t: TaskTable): string {
  const cell = (v: TableValue): string => {
    if (v === null || v === undefined) return '';
    if (typeof v === 'number') return Number.isFinite(v) ? String(v) : v > 0 ? 'Inf' : v < 0 ? '-Inf' : 'NaN';
    const s = String(v);
    return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = [t.columns.map(cell).join(',')];
  for (const r of t.rows) lines.push(r.map(cell).join(','));
  return lines.join('\n') + '\n';
}

/** Splits CSV text (RFC 4180 quoting) into rows of raw strings. */
export function parseCsvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/**
 * Parses tableToCsv's output (and ordinary CSV): numeric-looking fields become numbers, Inf/-Inf
 * infinities, empty fields null; `booleans: true` also turns "true"/"false" into booleans. A
 * byte-order mark before the header is dropped.
 */
export function csvToTable(text: string, opts: { booleans?: boolean } = {}): TaskTable {
  const rows = parseCsvRows(text);
  const [header = [], ...body] = rows;
  const num = /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
  const value = (v: string): TableValue => {
    if (v === '') return null;
    if (num.test(v)) return Number(v);
    if (v === 'Inf') return Infinity;
    if (v === '-Inf') return -Infinity;
    if (opts.booleans && (v === 'true' || v === 'false')) return v === 'true';
    return v;
  };
  return { columns: header.map((h) => h.replace(/^\uFEFF/, '')), rows: body.map((r) => r.map(value)) };
}
