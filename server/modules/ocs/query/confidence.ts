/**
 * Where an answer comes from and how sure the service is of it. A bank row's provenance is what its
 * source and status say (imported, verified by an administrator, AI-generated, corrected after reports,
 * from an upstream bank); each provenance has a base confidence, lowered for a fuzzy match and for an
 * answer several users reported (存疑). When several sources answered one question (the bank, upstream
 * banks, the AI), vote() groups equal answers and picks the group they agree on: the group with the
 * most confidence behind it, its confidence the chance that not all of its sources are wrong, scaled by
 * its share of all the confidence that spoke.
 */
import { optionKey, withoutLabel } from '../bank/normalize';
import type { Provenance } from '../bank/question';

export const PROVENANCE_CONFIDENCE: Record<string, number> = {
  verified: 0.98,
  corrected: 0.97,
  import: 0.95,
  upstream: 0.8,
  ai: 0.7,
};

export function baseConfidence(provenance: Provenance): number {
  return PROVENANCE_CONFIDENCE[provenance.startsWith('upstream:') ? 'upstream' : provenance] ?? 0.7;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** The confidence of a bank match: its provenance, how close the title was, and whether it is disputed. */
export function bankConfidence(m: {
  provenance: Provenance;
  via: 'exact' | 'fuzzy';
  similarity: number;
  disputed: boolean;
}): number {
  let c = baseConfidence(m.provenance);
  if (m.via === 'fuzzy') c *= 0.85 + 0.15 * Math.min(1, Math.max(0, m.similarity));
  if (m.disputed) c *= 0.5;
  return round(c);
}

/** What makes two answers the same: option keys (as a set when the question has options), in order otherwise. */
export function answerKey(answer: readonly string[], hasOptions: boolean): string {
  const parts = answer.map((a) => optionKey(withoutLabel(a)));
  return (hasOptions ? parts.sort() : parts).join('\u0001');
}

export interface Candidate {
  /** The provenance of this source's answer. */
  source: Provenance;
  /** In the caller's own option lines. */
  answer: string[];
  confidence: number;
}

export interface Verdict<C extends Candidate> {
  /** The sources that gave the chosen answer, strongest first. */
  agreeing: C[];
  /** Sources that gave another answer. */
  dissenting: C[];
  confidence: number;
}

/** The answer the sources agree on, or null when none answered. */
export function vote<C extends Candidate>(candidates: C[], hasOptions: boolean): Verdict<C> | null {
  if (candidates.length === 0) return null;
  const groups = new Map<string, C[]>();
  for (const c of candidates) {
    const k = answerKey(c.answer, hasOptions);
    groups.set(k, [...(groups.get(k) ?? []), c]);
  }
  const weight = (g: C[]) => g.reduce((s, c) => s + c.confidence, 0);
  // Most confidence behind it; on a tie, the group whose strongest source is stronger, then the first seen.
  let best: C[] | null = null;
  for (const g of groups.values()) {
    if (
      !best ||
      weight(g) > weight(best) + 1e-9 ||
      (Math.abs(weight(g) - weight(best)) <= 1e-9 &&
        Math.max(...g.map((c) => c.confidence)) > Math.max(...best.map((c) => c.confidence)))
    )
      best = g;
  }
  const agreeing = [...best!].sort((a, b) => b.confidence - a.confidence);
  const total = weight(candidates);
  const allWrong = agreeing.reduce((p, c) => p * (1 - Math.min(0.999, c.confidence)), 1);
  const confidence = round((1 - allWrong) * (total > 0 ? weight(agreeing) / total : 0));
  return { agreeing, dissenting: candidates.filter((c) => !agreeing.includes(c)), confidence };
}
