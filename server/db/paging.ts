/**
 * One page of a list (ProTable's `current` and `pageSize`) and the total it is a page of, counted with
 * the same filters, in one round trip each, run side by side.
 */
import { sql, type SelectQueryBuilder } from 'kysely';

export interface PageRequest {
  current: number;
  pageSize: number;
}

export async function paginate<DB, TB extends keyof DB, O>(
  /** The filtered query, before any select. */
  base: SelectQueryBuilder<DB, TB, object>,
  page: PageRequest,
  /** Adds the selection and the order to the filtered query. */
  rows: (filtered: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, O>,
): Promise<{ rows: O[]; total: number }> {
  const [counted, found] = await Promise.all([
    base.select(sql<number>`count(*)`.as('total')).executeTakeFirstOrThrow(),
    rows(base)
      .limit(page.pageSize)
      .offset((page.current - 1) * page.pageSize)
      .execute(),
  ]);
  return { rows: found, total: Number((counted as { total: number | string }).total) };
}
