/**
 * OCS query metrics: questions by outcome and by where the answer came from. The answering service
 * counts each answer run (identical concurrent questions of one user share a run and count once); the
 * query API counts the refusals it answers before the service is asked.
 */
import { Counter, type Registry } from 'prom-client';

export type QueryOutcome =
  /** An answer was returned (and charged, or free from the 10-minute cache). */
  | 'answered'
  | 'no_balance'
  | 'miss'
  /** The AI failed (provider error, unusable answer). */
  | 'error'
  /** An unexpected failure (the database): the caller got "service unavailable". */
  | 'failed'
  | 'unauthorized'
  | 'rate_limited'
  | 'invalid';
export type QuerySource = 'bank' | 'upstream' | 'ai' | 'none';
export type CountQuery = (outcome: QueryOutcome, source: QuerySource) => void;

export function ocsQueryCounter(registry: Registry): CountQuery {
  const queries = new Counter({
    name: 'portal_ocs_queries_total',
    help:
      'OCS questions by outcome (answered, no_balance, miss, error, failed; refused before answering: ' +
      'unauthorized, rate_limited, invalid) and source of the answer (bank, upstream, ai, none).',
    labelNames: ['outcome', 'source'],
    registers: [registry],
  });
  return (outcome, source) => queries.inc({ outcome, source });
}
