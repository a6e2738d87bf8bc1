import type { TableValue, TaskTable } from './types';

/** RFC 4180 CSV with a header row; numbers as JS shortest round-trip text, null as empty. */
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

/** Parses tableToCsv's output (and ordinary CSV): strings stay strings unless numeric-looking. */
export function csvToTable(text: string): TaskTable {
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
  const [header = [], ...body] = rows;
  const num = /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
  return {
    columns: header,
    rows: body.map((r) =>
      r.map((v) =>
        v === '' ? null : num.test(v) ? Number(v) : v === 'Inf' ? Infinity : v === '-Inf' ? -Infinity : v,
      ),
    ),
  };
}
