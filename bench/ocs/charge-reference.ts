/**
 * Migration 0012's ocs_charge_many(), which charged a batch element by element through ocs_charge(),
 * created beside the current one under another name: the reference the set-wise version (migration
 * 0015) is compared with, for results in tests/server/ocs/charge-set.test.ts and for speed in
 * bench/ocs/charge.ts.
 */
import { sql, type Kysely } from 'kysely';
import { chargeManyV15 } from '../../server/db/migrations/0012_ocs_provenance';

export const ELEMENT_WISE = 'ocs_charge_many_element_wise';

export async function createElementWiseCharge(db: Kysely<any>): Promise<void> {
  const text = chargeManyV15.compile(db).sql;
  const named = text.replace('create function ocs_charge_many(', `create function ${ELEMENT_WISE}(`);
  if (named === text) throw new Error('0012 no longer defines ocs_charge_many as expected');
  await sql.raw(named).execute(db);
}
