/**
 * OCS: answers are lists of pieces, kept whole.
 *
 * The query log (ocs_queries.answer) and the reports that quote it (ocs_reports.answer) kept an answer
 * as one text with its pieces joined by `#`, which an option such as `C#` or a blank such as
 * `for(;;);` cannot survive. They now keep a JSON array of the pieces; the rows written before are
 * split on `#` once, as everything that read them did.
 *
 * A question's option set is named by the hash of its options' keys (optionsHash), and an option's key
 * now keeps the punctuation of code-like options (`int a; int b;` is not `int a, int b;`) and of options
 * made of punctuation alone (`---`). The rows whose hash that changes get the new one, so that importing
 * the same question again updates its row. The new keys only tell more options apart, never fewer, so
 * no two rows come to share a key.
 */
import { sql, type Kysely } from 'kysely';
import { optionsHash } from '../../modules/ocs/bank/question';

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['ocs_queries', 'ocs_reports']) {
    await sql`update ${sql.table(table)} set answer = to_jsonb(string_to_array(answer, '#'))::text
              where answer is not null`.execute(db);
  }
  let last = 0;
  for (;;) {
    const rows = await sql<{ id: string; options: string[]; options_hash: string }>`
      select id, options, options_hash from ocs_questions
       where id > ${last} and jsonb_array_length(options) > 0 order by id limit 5000`.execute(db);
    if (rows.rows.length === 0) break;
    last = Number(rows.rows[rows.rows.length - 1]!.id);
    const changed = rows.rows.flatMap((r) => {
      const hash = optionsHash(r.options);
      return hash === r.options_hash ? [] : [{ id: Number(r.id), hash }];
    });
    if (changed.length === 0) continue;
    await sql`update ocs_questions q set options_hash = c.hash
                from unnest(${changed.map((c) => c.id)}::bigint[], ${changed.map((c) => c.hash)}::text[]) c(id, hash)
               where q.id = c.id`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['ocs_queries', 'ocs_reports']) {
    await sql`update ${sql.table(table)} set answer = (select string_agg(p, '#') from jsonb_array_elements_text(answer::jsonb) p)
              where answer is not null`.execute(db);
  }
}
