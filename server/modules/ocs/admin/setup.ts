/**
 * Is OCS set up? What a fresh install lacks before it can answer anything: questions in the bank, an
 * enabled AI model, a price the administrator chose. serviceReadiness is what users are told (can the
 * portal answer at all); setupStatus is the administrators' checklist. Both are read live: a few
 * indexed existence checks, cheap next to the pages that ask.
 */
import type { Kysely } from 'kysely';
import type { OcsServiceReady, OcsSetupStatus } from '../../../../src/contract';
import type { DB } from '../../../db/schema';
import { readSettings } from './settings';

/** At least one question that takes part in matching (one marked wrong does not). */
async function bankHasQuestions(db: Kysely<DB>): Promise<boolean> {
  const row = await db
    .selectFrom('ocs_questions')
    .select('id')
    .where('status', '<>', 'wrong')
    .limit(1)
    .executeTakeFirst();
  return !!row;
}

/** Enabled models; every model belongs to a provider (the foreign key), so each one can be called. */
async function enabledModels(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('ocs_models')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('enabled', '=', true)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Can the portal answer: from the bank, from an AI model. */
export async function serviceReadiness(db: Kysely<DB>): Promise<OcsServiceReady> {
  const [bank, models] = await Promise.all([bankHasQuestions(db), enabledModels(db)]);
  return { bank, ai: models > 0 };
}

/**
 * The first-run checklist. The price counts as set once an administrator saved the service settings
 * (saving stores every value, defaults included: see updateOcsSettings), not while it is the default
 * nobody looked at.
 */
export async function setupStatus(db: Kysely<DB>): Promise<OcsSetupStatus> {
  const [bank, models, settings, priceRow] = await Promise.all([
    bankHasQuestions(db),
    enabledModels(db),
    readSettings(db),
    db.selectFrom('ocs_settings').select('key').where('key', '=', 'bankPrice').executeTakeFirst(),
  ]);
  const status = {
    bank: { done: bank },
    ai: { done: models > 0, models },
    price: { done: !!priceRow, bankPrice: settings.bankPrice },
  };
  return { ...status, complete: status.bank.done && status.ai.done && status.price.done };
}
