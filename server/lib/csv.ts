/**
 * CSV files people open in a spreadsheet: UTF-8 with a BOM (Excel reads the encoding from it), CRLF
 * line ends, and a text cell that begins with = + - @, a tab or a carriage return written with a
 * leading apostrophe, so the spreadsheet shows it as text instead of running it as a formula (a
 * question title or a memo is anyone's text). Every export goes through here.
 */
import Papa from 'papaparse';

type Cell = string | number | boolean | null | undefined;

/** The header row, or nothing when `fields` is empty: the file's first chunk (with the BOM). */
export function csvStart(fields: readonly string[]): string {
  return `\uFEFF${fields.length ? csvRows([fields]) : ''}`;
}

// Papa's own escapeFormulae misses a cell that spans lines ("+1\n-1"): its pattern needs the first line
// to be the whole cell. The check is done here instead, on every text cell; a cell that begins with an
// apostrophe gets one more, so that csvCell reads every cell back as it was.
const FORMULA_START = /^[=+\-@\t\r']/;
const asText = (c: Cell): Cell => (typeof c === 'string' && FORMULA_START.test(c) ? `'${c}` : c);

/** Data rows, each ending with CRLF (empty for no rows), to follow csvStart or an earlier chunk. */
export function csvRows(rows: readonly (readonly Cell[])[]): string {
  if (rows.length === 0) return '';
  // quotes: a cell made text by its apostrophe is quoted, as Papa quotes the cells it escapes itself.
  return `${Papa.unparse(
    rows.map((r) => r.map(asText)),
    { newline: '\r\n', quotes: (c: unknown) => typeof c === 'string' && c.startsWith("'") },
  )}\r\n`;
}

/** A whole file: the header, then the rows. */
export function toCsv(fields: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return csvStart(fields) + csvRows(rows);
}

/**
 * A cell as the exporter wrote it, read back: the apostrophe csvRows put before a formula-like start
 * (or before an apostrophe) is taken off, so an exported file imports back unchanged.
 */
export function csvCell(s: string): string {
  return /^'[=+\-@\t\r']/.test(s) ? s.slice(1) : s;
}
