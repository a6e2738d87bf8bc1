import { TaskError } from '@cellcloud/engine/tasks/kit';

/**
 * 10x `filtered_contig_annotations.csv` (docs/methods/vdj.md): the columns the V(D)J analysis uses,
 * parsed into typed rows. Refuses files that are not contig tables (a matrix, an h5, a zip) and
 * files lacking a used column, naming the file and the columns.
 */
export interface Contig {
  barcode: string;
  chain: string;
  productive: boolean;
  reads: number;
  umis: number;
  v: string;
  d: string;
  j: string;
  c: string;
  cdr3: string;
  cdr3nt: string;
}

export const CONTIG_COLUMNS = [
  'barcode',
  'chain',
  'productive',
  'reads',
  'umis',
  'v_gene',
  'd_gene',
  'j_gene',
  'c_gene',
  'cdr3',
  'cdr3_nt',
] as const;

/** One CSV line → fields (RFC 4180 quotes). */
function splitCsvLine(line: string): string[] {
  if (!line.includes('"')) return line.split(',');
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      out.push(field);
      field = '';
    } else field += ch;
  }
  out.push(field);
  return out;
}

const MAGIC: [string, (b: Uint8Array) => boolean][] = [
  [
    'it is an HDF5 file (a 10x .h5 or .h5ad matrix?)',
    (b) => b[0] === 0x89 && b[1] === 0x48 && b[2] === 0x44 && b[3] === 0x46,
  ],
  ['it is a zip archive', (b) => b[0] === 0x50 && b[1] === 0x4b],
];

/** NA-like values of the 10x table become "None" (a missing gene or CDR3). */
const clean = (s: string | undefined): string => {
  const v = (s ?? '').trim();
  return v === '' || v === 'None' || v === 'NA' || v === 'nan' ? 'None' : v;
};

export function parseContigs(bytes: Uint8Array, file: string): Contig[] {
  for (const [why, test] of MAGIC)
    if (test(bytes)) throw new TaskError('vdj.notContigs', `${file}: ${why}`, { file, detail: why });
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (text.startsWith('%%MatrixMarket')) {
    const detail = 'it is a MatrixMarket expression matrix (matrix.mtx)';
    throw new TaskError('vdj.notContigs', `${file}: ${detail}`, { file, detail });
  }
  const lines = text.split(/\r?\n/);
  const header = splitCsvLine(lines[0] ?? '').map((h) => h.trim().replace(/^\uFEFF/, ''));
  if (header.length < 3) {
    const detail = 'its first line is not a comma-separated header';
    throw new TaskError('vdj.notContigs', `${file}: ${detail}`, { file, detail });
  }
  const missing = CONTIG_COLUMNS.filter((c) => !header.includes(c));
  if (missing.length === CONTIG_COLUMNS.length) {
    const detail = `none of the columns ${CONTIG_COLUMNS.join(', ')} is present`;
    throw new TaskError('vdj.notContigs', `${file}: ${detail}`, { file, detail });
  }
  if (missing.length) {
    throw new TaskError('vdj.missingColumns', `${file} lacks ${missing.join(', ')}`, {
      file,
      columns: missing.join(', '),
    });
  }
  const at = Object.fromEntries(CONTIG_COLUMNS.map((c) => [c, header.indexOf(c)])) as Record<
    (typeof CONTIG_COLUMNS)[number],
    number
  >;
  const out: Contig[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const f = splitCsvLine(line);
    const num = (col: 'reads' | 'umis') => {
      const v = Number(f[at[col]]);
      if (!Number.isFinite(v) || v < 0) {
        const detail = `${col} "${f[at[col]] ?? ''}" is not a non-negative number`;
        throw new TaskError('vdj.badRow', `${file}:${i + 1}: ${detail}`, { file, line: i + 1, detail });
      }
      return v;
    };
    const barcode = (f[at.barcode] ?? '').trim();
    if (!barcode) {
      const detail = 'the barcode is empty';
      throw new TaskError('vdj.badRow', `${file}:${i + 1}: ${detail}`, { file, line: i + 1, detail });
    }
    out.push({
      barcode,
      chain: (f[at.chain] ?? '').trim(),
      productive: /^true$/i.test((f[at.productive] ?? '').trim()),
      reads: num('reads'),
      umis: num('umis'),
      v: clean(f[at.v_gene]),
      d: clean(f[at.d_gene]),
      j: clean(f[at.j_gene]),
      c: clean(f[at.c_gene]),
      cdr3: clean(f[at.cdr3]),
      cdr3nt: clean(f[at.cdr3_nt]),
    });
  }
  return out;
}
