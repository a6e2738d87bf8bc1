/**
 * Spreadsheet formula neutralisation for every CSV and XLSX we export (issue 32), as OWASP's
 * "CSV Injection" page recommends: a text cell that starts with `=`, `+`, `-`, `@`, a tab or a
 * carriage return gets a leading single quote, so Excel, LibreOffice or Google Sheets show it as
 * text instead of evaluating it (a sample or label name such as `=HYPERLINK(…)` or `@SUM(…)`).
 * Numbers are never touched: a number written as a number (`-1.5`, `-3e-5`, and the `-Inf` we
 * spell for −∞) stays a number, and so does text that is exactly a number literal (a cluster
 * label `-1`), which a spreadsheet reads as that number, not as a formula.
 *
 * Used by formats/table-export.ts (explorer CSV/XLSX buttons, the `tables` download workbook),
 * engine write-outputs.ts (markers.csv) and the server's downloads (stored task tables, the
 * Seurat bundle's CSVs; its R script strips the quote again). Stored files stay as computed; only
 * what leaves for a spreadsheet is neutralised.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NUMBER_LITERAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const NON_FINITE = new Set(['Inf', '-Inf', 'NaN', 'Infinity', '-Infinity']);

/** True when a spreadsheet could read `text` as a formula (after the number-literal exception). */
export function formulaLike(text: string): boolean {
  return FORMULA_START.test(text) && !NUMBER_LITERAL.test(text) && !NON_FINITE.has(text);
}

/** The text of a cell, with a leading `'` when a spreadsheet would read it as a formula. */
export function neutralizeText(text: string): string {
  return formulaLike(text) ? `'${text}` : text;
}

/** A cell value ready for export: numbers (and booleans, null) as they are, text neutralised. */
export function neutralizeCell<T>(v: T): T | string {
  return typeof v === 'string' ? neutralizeText(v) : v;
}
