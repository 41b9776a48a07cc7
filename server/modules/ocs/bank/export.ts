/**
 * Exporting the question bank in the importer's own formats (JSON, or CSV with a BOM for Excel), so
 * that an export imports back unchanged; streamed page by page so memory stays flat whatever its size.
 */
import type { Kysely, Selectable } from 'kysely';
import { csvRows, csvStart } from '../../../lib/csv';
import type { BankQuestion } from '../../../../src/contract';
import type { DB, OcsQuestionsTable } from '../../../db/schema';

type Row = Selectable<OcsQuestionsTable>;

/**
 * The stored answer as the importer reads it back: option texts, or letters when a text holds the
 * `#` the importer splits choice answers on.
 */
function exportAnswer(r: Pick<BankQuestion, 'options' | 'answer'>): string[] {
  if (r.options.length === 0 || !r.answer.some((a) => a.includes('#'))) return r.answer;
  return [r.answer.map((a) => String.fromCharCode(65 + r.options.indexOf(a))).join('')];
}

/** The answer's CSV cell: pieces joined by `#`, or a JSON array when a blank holds `#` or a line break. */
function answerCell(r: Pick<BankQuestion, 'options' | 'answer'>): string {
  const pieces = exportAnswer(r);
  return pieces.some((p) => /[#\r\n]/.test(p)) ? JSON.stringify(pieces) : pieces.join('#');
}

const EXPORT_PAGE = 2000;

/** The whole bank, page by page (keyset on id), so memory stays flat whatever its size. */
async function* pages(db: Kysely<DB>): AsyncGenerator<Row[]> {
  let last = 0;
  for (;;) {
    const rows = await db
      .selectFrom('ocs_questions')
      .selectAll()
      .where('id', '>', last)
      .orderBy('id')
      .limit(EXPORT_PAGE)
      .execute();
    if (rows.length) yield rows;
    if (rows.length < EXPORT_PAGE) return;
    last = Number(rows[rows.length - 1]!.id);
  }
}

export const CSV_HEADER = ['题目', '题型', '选项', '答案'];

/** Chunks of the export file: JSON `[{title, type, options, answer}]` or CSV with a BOM for Excel. */
export async function* exportBank(db: Kysely<DB>, format: 'json' | 'csv'): AsyncGenerator<string> {
  let first = true;
  if (format === 'json') yield '[';
  else yield csvStart(CSV_HEADER);
  for await (const rows of pages(db)) {
    const items = rows.map(({ title, type, options, answer }) => ({ title, type, options, answer }));
    if (format === 'json') {
      const text = items
        .map((q) => JSON.stringify({ title: q.title, type: q.type, options: q.options, answer: exportAnswer(q) }))
        .join(',\n');
      yield `${first ? '\n' : ',\n'}${text}`;
    } else {
      yield csvRows(
        items.map((q) => [q.title, q.type, q.options.map((o) => o.replace(/\r?\n/g, ' ')).join('\n'), answerCell(q)]),
      );
    }
    first = false;
  }
  if (format === 'json') yield '\n]\n';
}
