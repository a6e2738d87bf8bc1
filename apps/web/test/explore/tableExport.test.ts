import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { toCsv, toXlsx } from '../../src/features/explore/tableExport';

describe('table export', () => {
  it('writes RFC 4180 CSV with quoting', () => {
    expect(
      toCsv(
        ['gene', 'note'],
        [
          ['CD3D', 'a,b'],
          ['X', 'say "hi"'],
        ],
      ),
    ).toBe('gene,note\r\nCD3D,"a,b"\r\nX,"say ""hi"""\r\n');
  });
  it('writes an XLSX package whose sheet holds the rows, numbers as numbers and text escaped', () => {
    const files = unzipSync(toXlsx('DEG', ['gene', 'log2fc'], [['A<B', 1.5]]));
    expect(Object.keys(files).sort()).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/workbook.xml',
      'xl/worksheets/sheet1.xml',
    ]);
    const sheet = strFromU8(files['xl/worksheets/sheet1.xml']!);
    expect(sheet).toContain('<c r="A2" t="inlineStr"><is><t>A&lt;B</t></is></c>');
    expect(sheet).toContain('<c r="B2"><v>1.5</v></c>');
    expect(strFromU8(files['xl/workbook.xml']!)).toContain('name="DEG"');
  });
});
