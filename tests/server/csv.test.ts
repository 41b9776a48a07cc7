/** The one CSV writer of every export: formulas written as text, and read back unchanged by the importer's reader. */
import fc from 'fast-check';
import Papa from 'papaparse';
import { csvCell, toCsv } from '../../server/lib/csv';

test('a text cell that a spreadsheet would run as a formula is written as text, even across lines', () => {
  const csv = toCsv(
    ['a', 'b'],
    [
      ['=1+1', '+1\n-1\n@x'],
      ['-2', 'ok'],
      ['@SUM(A1)', '\tx'],
      [-5, null],
    ],
  );
  expect(csv.startsWith('\uFEFFa,b\r\n')).toBe(true);
  const cells = Papa.parse<string[]>(csv.slice(1), { skipEmptyLines: true }).data.slice(1).flat();
  expect(cells).toEqual(["'=1+1", "'+1\n-1\n@x", "'-2", 'ok', "'@SUM(A1)", "'\tx", '-5', '']);
});

test('every text cell reads back as it was written (csvCell), whatever it begins with', () => {
  fc.assert(
    fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 4 }), (row) => {
      const csv = toCsv([], [row]);
      const [parsed] = Papa.parse<string[]>(csv.slice(1), { delimiter: ',' }).data;
      expect(parsed!.map(csvCell)).toEqual(row);
    }),
    { numRuns: 300 },
  );
});
