import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { formulaLike, neutralizeCell, neutralizeText } from '@cellcloud/contracts/spreadsheet-safe';
import { openpyxlPython } from '@cellcloud/testkit';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { neutralizeCsv, toCsv, toXlsx } from '../src/table-export';

const python = openpyxlPython();

const attacks = ['=HYPERLINK("http://x","y")', '+1+1', '-2+3', '@SUM(A1:A2)', '\tTAB', '\rCR', '-bad'];

/**
 * Formula neutralisation of CSV and XLSX exports (issue 32; OWASP "CSV Injection"): text that a
 * spreadsheet would evaluate gets a leading quote, numbers and number literals do not.
 */
describe('spreadsheet-safe exports', () => {
  it('quotes text starting with = + - @ tab or CR, never numbers or number literals', () => {
    for (const a of attacks) expect(neutralizeText(a)).toBe(`'${a}`);
    for (const ok of ['CD3D', 'NK cells', "'=already", '', 'a=b', '-1.5', '-3e-5', '+2', '-Inf', 'NaN', '.5'])
      expect(neutralizeText(ok)).toBe(ok);
    expect(formulaLike('-1.5')).toBe(false);
    expect(neutralizeCell(-1.5)).toBe(-1.5);
    expect(neutralizeCell(null)).toBe(null);
    expect(neutralizeText(neutralizeText('=x'))).toBe("'=x"); // idempotent
  });

  it('CSV: text cells quoted (RFC 4180 quoting kept), numbers written as numbers', () => {
    const csv = toCsv(
      ['label', '=head'],
      [
        ['=1+2', -1.5],
        ['-x,y', -3e-5],
        ['NK', 2],
      ],
    );
    expect(csv).toBe(`label,'=head\r\n'=1+2,-1.5\r\n"'-x,y",-0.00003\r\nNK,2\r\n`);
  });

  it('stored CSV text: only formula fields change, line endings and the rest kept', () => {
    const stored = 'group,gene,logfc\n=cmd|calc,CD3D,-1.25\n"@x,1",-NEG,-2e-4\nB,MS4A1,3\n';
    expect(neutralizeCsv(stored)).toBe(
      `group,gene,logfc\n'=cmd|calc,CD3D,-1.25\n"'@x,1",'-NEG,-2e-4\nB,MS4A1,3\n`,
    );
    const clean = 'a,b\r\n1,-2\r\n';
    expect(neutralizeCsv(clean)).toBe(clean);
    expect(neutralizeCsv(neutralizeCsv(stored))).toBe(neutralizeCsv(stored));
  });

  it('XLSX: text cells quoted as inline strings, numbers stay numeric cells', () => {
    const bytes = toXlsx('t', ['name', 'value'], [...attacks.map((a, i) => [a, -i - 0.5]), ['ok', -3e-5]]);
    const sheet = strFromU8(unzipSync(bytes)['xl/worksheets/sheet1.xml']!);
    expect(sheet).toContain(
      `<c r="A2" t="inlineStr"><is><t>'=HYPERLINK(&quot;http://x&quot;,&quot;y&quot;)</t></is></c>`,
    );
    expect(sheet).toContain('<c r="B2"><v>-0.5</v></c>');
    expect(sheet).not.toMatch(/<f>/);
    if (!python) return;
    const dir = mkdtempSync(path.join(tmpdir(), 'xlsx-safe-'));
    try {
      const file = path.join(dir, 't.xlsx');
      writeFileSync(file, bytes);
      const out = execFileSync(
        python,
        [
          '-c',
          `import sys, json, openpyxl
ws = openpyxl.load_workbook(sys.argv[1]).active
print(json.dumps([[[c.value, c.data_type] for c in r] for r in ws.iter_rows(min_row=2)]))`,
          file,
        ],
        { encoding: 'utf8' },
      );
      const rows = JSON.parse(out) as [unknown, string][][];
      expect(rows.map((r) => r[0])).toEqual([...attacks.map((a) => [`'${a}`, 's']), ['ok', 's']]);
      expect(rows.map((r) => r[1])).toEqual([...attacks.map((_, i) => [-i - 0.5, 'n']), [-3e-5, 'n']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
