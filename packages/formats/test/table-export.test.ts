import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { sheetNames, toCsv, toXlsx, toXlsxWorkbook } from '../src/table-export';

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
    expect(sheet).toContain('<dimension ref="A1:B2"/>');
    expect(strFromU8(files['xl/workbook.xml']!)).toContain('name="DEG"');
  });
  it('makes sheet names valid and unique within 31 characters', () => {
    const long = 'enrichment_results_of_cluster_markers';
    expect(sheetNames(['markers', 'Markers', 'a/b:c', long, long, ''])).toEqual([
      'markers',
      'Markers~2',
      'a_b_c',
      long.slice(0, 31),
      `${long.slice(0, 29)}~2`,
      'Sheet',
    ]);
  });
  it('writes one worksheet per table, each listed in the workbook and content types', () => {
    const files = unzipSync(
      toXlsxWorkbook([
        { name: 'markers', header: ['gene'], rows: [['CD3D']] },
        { name: 'de', header: ['p'], rows: [[0.01]] },
      ]),
    );
    expect(files['xl/worksheets/sheet2.xml']).toBeDefined();
    expect(strFromU8(files['xl/workbook.xml']!)).toContain('<sheet name="de" sheetId="2" r:id="rId2"/>');
    expect(strFromU8(files['[Content_Types].xml']!)).toContain('/xl/worksheets/sheet2.xml');
    expect(strFromU8(files['xl/_rels/workbook.xml.rels']!)).toContain('Target="worksheets/sheet2.xml"');
  });
});
