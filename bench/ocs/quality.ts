/**
 * Matching quality: runs a perturbation set through the bank's matcher and counts, per perturbation
 * kind, how often the right answer came back (hit), a wrong one came back (wrong: an answer for a near
 * miss, or a different answer), or nothing did. Shared by the jest quality test and the benchmark.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../server/db/schema';
import { formatAnswer } from '../../server/modules/ocs/bank/answer';
import { findInBank } from '../../server/modules/ocs/bank/match';
import { prepareQuestion } from '../../server/modules/ocs/bank/question';
import type { FuzzyIndex } from '../../server/modules/ocs/bank/fuzzy-index';
import { normalizeType, splitCallerOptions } from '../../server/modules/ocs/bank/normalize';
import type { PerturbationKind, PerturbedQuery, SyntheticQuestion } from './synthetic';

export interface KindStats {
  kind: PerturbationKind;
  expect: 'hit' | 'miss';
  total: number;
  hit: number;
  wrong: number;
  none: number;
}

/** The answer a correct matcher gives for this query (in the query's own option texts), or null when it must give none. */
export function expectedAnswer(source: SyntheticQuestion, query: PerturbedQuery): string[] | null {
  if (query.expect === 'miss') return null;
  const stored = prepareQuestion(source);
  if ('error' in stored) throw new Error(`synthetic question rejected: ${stored.error}`);
  const caller = splitCallerOptions(query.options);
  return formatAnswer(stored, normalizeType(query.type), caller.options, caller.raw);
}

export async function measureQuality(
  db: Kysely<DB>,
  index: FuzzyIndex,
  set: Array<{ kind: PerturbationKind; source: SyntheticQuestion; query: PerturbedQuery }>,
  threshold: number,
): Promise<{
  byKind: KindStats[];
  failures: Array<{ kind: string; title: string; got: string[] | null; want: string[] | null }>;
}> {
  const stats = new Map<PerturbationKind, KindStats>();
  const failures: Array<{ kind: string; title: string; got: string[] | null; want: string[] | null }> = [];
  for (const { kind, source, query } of set) {
    const s = stats.get(kind) ?? { kind, expect: query.expect, total: 0, hit: 0, wrong: 0, none: 0 };
    stats.set(kind, s);
    s.total++;
    const want = expectedAnswer(source, query);
    const caller = splitCallerOptions(query.options);
    const got = await findInBank(
      db,
      index,
      { title: query.title, type: normalizeType(query.type), options: caller.options, ownOptions: caller.raw },
      threshold,
    );
    if (!got) {
      if (want === null) s.hit++;
      else {
        s.none++;
        failures.push({ kind, title: query.title, got: null, want });
      }
    } else if (JSON.stringify(got.answer) === JSON.stringify(want)) s.hit++;
    else {
      s.wrong++;
      failures.push({ kind, title: query.title, got: got.answer, want });
    }
  }
  return { byKind: [...stats.values()], failures };
}

export function qualityTable(byKind: KindStats[]): string {
  const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : '—');
  return [
    '| perturbation | expected | n | right | wrong answer | no answer |',
    '|---|---|---|---|---|---|',
    ...byKind.map(
      (s) =>
        `| ${s.kind} | ${s.expect} | ${s.total} | ${pct(s.hit, s.total)} | ${pct(s.wrong, s.total)} | ${pct(s.none, s.total)} |`,
    ),
  ].join('\n');
}
