/**
 * Rows of an RFC 4180 CSV as the task runner writes it (engine tasks/csv.ts): numeric-looking
 * fields become numbers (Inf/-Inf/NaN too), empty fields null, the rest strings.
 */
export function csvRows(text: string): (string | number | null)[][] {
  const rows: (string | number | null)[][] = [];
  let row: (string | number | null)[] = [];
  let field = '';
  let quoted = false;
  let wasQuoted = false;
  const num = /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
  const push = () => {
    if (wasQuoted) row.push(field);
    else if (field === '') row.push(null);
    else if (num.test(field)) row.push(Number(field));
    else if (field === 'Inf' || field === '-Inf' || field === 'NaN')
      row.push(field === 'NaN' ? null : field === 'Inf' ? 'Inf' : '-Inf');
    else row.push(field);
    field = '';
    wasQuoted = false;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"') {
      quoted = true;
      wasQuoted = true;
    } else if (ch === ',') push();
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      push();
      rows.push(row);
      row = [];
    } else field += ch;
  }
  if (field !== '' || row.length) {
    push();
    rows.push(row);
  }
  return rows;
}
