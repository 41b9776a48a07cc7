/**
 * The candidate search behind fuzzy matching: an in-memory inverted index from character bigrams of
 * normalized titles to question ids, built at start and kept current by polling the table.
 *
 * Why not a pg_trgm GIN index: measured with 1M titles it costs 487 MB, and a common phrase matches
 * tens of thousands of rows (751 ms for one query at threshold 0.3, p99 300 ms at 0.5). Here a query
 * only reads the posting lists of its rarest bigrams, so its cost does not depend on how common the
 * rest of the title is; the few candidates are then scored with pg_trgm's similarity() (match.ts:
 * in memory for rows the exact index holds, else by the database). The index only proposes ids: rows
 * marked wrong are not held by the exact index, and rows changed since are caught by the charge.
 */

import { LRUCache } from 'lru-cache';

/** Ids per block of countByBlocks: their counters (one byte each) fit a core's first-level cache. */
export const BLOCK = 1 << 14;

/** A growable list of ids, 4 bytes each. */
class Postings {
  ids = new Int32Array(2);
  length = 0;
  /** Every id pushed was larger than the one before: the list holds no id twice. */
  ascending = true;
  push(id: number) {
    if (this.length === this.ids.length) {
      const next = new Int32Array(this.ids.length * 2);
      next.set(this.ids);
      this.ids = next;
    }
    if (this.length > 0 && id <= this.ids[this.length - 1]!) this.ascending = false;
    this.ids[this.length++] = id;
  }
  compact() {
    if (this.ids.length > this.length) this.ids = this.ids.slice(0, this.length);
  }
}

function bigrams(norm: string): number[] {
  const out: number[] = [];
  const seen = new Set<number>();
  let prev = -1;
  let chars = 0;
  for (let i = 0; i < norm.length; chars++) {
    const c = norm.codePointAt(i)!;
    i += c > 0xffff ? 2 : 1;
    if (prev >= 0) {
      // A code point fits in 21 bits, so two of them fit exactly in a double.
      const g = prev * 0x200000 + c;
      if (!seen.has(g)) {
        seen.add(g);
        out.push(g);
      }
    }
    prev = c;
  }
  return chars === 1 ? [prev] : out;
}

/** 32-bit FNV-1a of the normalized title: lets a re-poll skip rows whose title has not changed. */
function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0 || 1;
}

export interface CandidateOptions {
  /** How many of the query's rarest known bigrams are intersected. */
  rarest?: number;
  /**
   * Most posting entries read per query. A query whose rarest known bigrams are all common shares
   * only boilerplate with the bank (「下列说法正确的是」): it has no near duplicate worth the scan.
   */
  budget?: number;
  /** Candidates returned, best overlap first. */
  limit?: number;
  /** false: count every id of every list (the reference the shortcut below is tested against). */
  shortcuts?: boolean;
  /** false: count with one pass over each list (the reference the blocked count is tested against). */
  blocked?: boolean;
}

/**
 * Shortlists remembered at most. A class sits the same exam: its students send the same perturbed text,
 * and all but the first find its shortlist here. ~250 bytes each (5 MB in all).
 */
const SHORTLISTS = 20_000;

export class FuzzyIndex {
  private readonly postings = new Map<number, Postings>();
  /** Title fingerprint per id (dense identity ids), 0 when not indexed. */
  private seen = new Int32Array(1024);
  /** The normalized title per id, so the difference guard runs before any database round trip. */
  private readonly titles: string[] = [];
  /** Scratch counters per id, reset after each query (cheaper than a Map at 60k increments). */
  private hits = new Uint8Array(1024);
  private count = 0;

  /**
   * Called by add() before the row is indexed: every writer of the bank calls add() after its commit,
   * so this is how the exact index (exact-index.ts) hears of this instance's writes.
   */
  onAdd: ((id: number, norm: string) => void) | null = null;

  get size(): number {
    return this.count;
  }

  /** A row written by this instance (after its commit): indexes it and tells onAdd. */
  add(id: number, norm: string): void {
    this.onAdd?.(id, norm);
    this.insert(id, norm);
  }

  /** Indexes a row as read from the table (the load and the refresh). */
  insert(id: number, norm: string): void {
    if (id >= this.seen.length) {
      let n = this.seen.length;
      while (n <= id) n *= 2;
      const next = new Int32Array(n);
      next.set(this.seen);
      this.seen = next;
    }
    const h = fnv(norm);
    if (this.seen[id] === h) return;
    // Any shortlist may change with the index: a new title can be a better candidate, a changed one
    // a worse one, and the rarest lists are picked by length.
    if (this.shortlists.size > 0) this.shortlists.clear();
    if (this.seen[id] === 0) this.count++;
    this.seen[id] = h;
    this.titles[id] = norm;
    if (this.hits.length < this.seen.length) {
      const next = new Uint8Array(this.seen.length);
      next.set(this.hits);
      this.hits = next;
    }
    for (const g of bigrams(norm)) {
      let p = this.postings.get(g);
      if (!p) this.postings.set(g, (p = new Postings()));
      p.push(id);
    }
  }

  /** The normalized title last indexed for this id. */
  title(id: number): string | undefined {
    return this.titles[id];
  }

  /** Gives back the slack of the growable lists after a bulk load. */
  compact(): void {
    for (const p of this.postings.values()) p.compact();
  }

  private readonly shortlists = new LRUCache<string, readonly number[]>({ max: SHORTLISTS });

  /**
   * The candidates whose indexed title passes `accept(norm)`, best first, `max` at most. What it gives
   * depends only on the index and the query, so it is remembered per query until the index next changes.
   * `accept` must depend on nothing but the query it is given.
   */
  shortlist(norm: string, accept: (norm: string) => (title: string) => boolean, max: number): readonly number[] {
    const key = `${max}\u0000${norm}`;
    const known = this.shortlists.get(key);
    if (known) return known;
    const passes = accept(norm);
    const out: number[] = [];
    for (const id of this.candidates(norm)) {
      const t = this.titles[id];
      if (t === undefined || !passes(t)) continue;
      if (out.push(id) === max) break;
    }
    this.shortlists.set(key, out);
    return out;
  }

  /**
   * Ids sharing the most of the query's rarest bigrams. Bigrams the index has never seen are the
   * perturbed part of the query and are skipped; at least half of the rarest known ones must be shared.
   */
  candidates(norm: string, opts: CandidateOptions = {}): number[] {
    const rarest = opts.rarest ?? 8;
    const limit = opts.limit ?? 16;
    const lists: Postings[] = [];
    for (const g of bigrams(norm)) {
      const p = this.postings.get(g);
      if (p) lists.push(p);
    }
    if (lists.length === 0) return [];
    lists.sort((a, b) => a.length - b.length);
    const budget = opts.budget ?? 20_000;
    const used: Postings[] = [];
    let spent = 0;
    for (const p of lists) {
      if (used.length === rarest || spent + p.length > budget) break;
      used.push(p);
      spent += p.length;
    }
    // Too few distinctive bigrams to tell a near duplicate from a template sibling.
    if (used.length < Math.min(rarest, lists.length, 3)) return [];
    const need = Math.max(1, Math.ceil(used.length / 2));
    // An id shared by `need` of the lists is in one of the first (length - need + 1) of them: only
    // those can bring in new ids, the longest lists only add to ids already seen. That holds when no
    // list holds an id twice (ascending lists); otherwise every list brings in ids, as it always did.
    const opening =
      opts.shortcuts === false || used.slice(used.length - need + 1).some((p) => !p.ascending)
        ? used.length
        : used.length - need + 1;
    const n =
      opts.blocked !== false && used.length < 255 && used.every((p) => p.ascending)
        ? this.countByBlocks(used, opening, spent, need)
        : this.countByMarking(used, opening, spent, need);
    const ids = this.scratchIds;
    const counts = this.scratchCounts;
    // The best counts first without sorting every id touched (a common bigram touches thousands).
    const histogram = this.histogram.fill(0);
    for (let i = 0; i < n; i++) histogram[counts[i]!]!++;
    let cutoff = 255;
    for (let seen = 0; cutoff > need && seen + histogram[cutoff]! < limit; cutoff--) seen += histogram[cutoff]!;
    cutoff = Math.max(cutoff, need);
    // The ids from the cutoff up, grouped by count (best first), each group in ascending order: as a
    // sort by (count, id) would give them.
    const start = this.histogram2.fill(0);
    let picked = 0;
    for (let c = 255; c >= cutoff; c--) {
      start[c] = picked;
      picked += histogram[c]!;
    }
    const chosen = this.reserveChosen(picked);
    for (let i = 0; i < n; i++) {
      const c = counts[i]!;
      if (c >= cutoff) chosen[start[c]!++] = ids[i]!;
    }
    // start[c] is now the end of count c's group, which begins where the better count's group ends.
    const out: number[] = [];
    for (let c = 255, from = 0; c >= cutoff && out.length < limit; c--) {
      const to = start[c]!;
      if (to > from) {
        const group = chosen.subarray(from, to).sort();
        for (let k = 0; k < group.length && out.length < limit; k++) out.push(group[k]!);
      }
      from = to;
    }
    return out;
  }

  private readonly histogram = new Uint32Array(256);
  private readonly histogram2 = new Uint32Array(256);
  private chosen = new Int32Array(1024);

  private reserveChosen(size: number): Int32Array {
    if (this.chosen.length < size) this.chosen = new Int32Array(Math.max(size, this.chosen.length * 2));
    return this.chosen;
  }

  /** Scratch space of candidates(): the ids a query touched and their counts. */
  private scratchIds = new Int32Array(1 << 15);
  private scratchCounts = new Uint8Array(1 << 15);

  private reserve(size: number): void {
    if (this.scratchIds.length >= size) return;
    const n = Math.max(size, this.scratchIds.length * 2);
    this.scratchIds = new Int32Array(n);
    this.scratchCounts = new Uint8Array(n);
  }

  /**
   * Counts, for every id of the first `opening` lists, how often it is in `used`; the ids counted at
   * least `need` times go into scratchIds, their counts into scratchCounts (returns how many).
   */
  private countByMarking(used: Postings[], opening: number, spent: number, need: number): number {
    this.reserve(spent);
    const hits = this.hits;
    const touched = this.scratchIds;
    let n = 0;
    for (let u = 0; u < used.length; u++) {
      const p = used[u]!;
      const list = p.ids;
      const len = p.length;
      for (let i = 0; i < len; i++) {
        const id = list[i]!;
        const c = hits[id]!;
        if (c === 0) {
          if (u >= opening) continue;
          touched[n++] = id;
        }
        if (c < 255) hits[id] = c + 1;
      }
    }
    const counts = this.scratchCounts;
    let kept = 0;
    for (let i = 0; i < n; i++) {
      const id = touched[i]!;
      const c = hits[id]!;
      hits[id] = 0;
      if (c >= need) {
        touched[kept] = id;
        counts[kept++] = c;
      }
    }
    return kept;
  }

  /** The counters of one block of ids (countByBlocks). */
  private readonly block = new Uint8Array(BLOCK);

  /**
   * countByMarking for ascending lists, one block of BLOCK ids at a time: every list is read once, in
   * order, and the counters of a block stay in the processor's cache (1M counters do not: reading
   * them in list order costs more than reading the lists). Same ids, same counts.
   */
  private countByBlocks(used: Postings[], opening: number, spent: number, need: number): number {
    this.reserve(spent);
    const block = this.block;
    const touched = this.scratchIds;
    const counts = this.scratchCounts;
    const cursors = new Int32Array(used.length);
    let last = 0;
    for (const p of used) if (p.length > 0) last = Math.max(last, p.ids[p.length - 1]!);
    let n = 0;
    for (let base = 0; base <= last; base += BLOCK) {
      const end = base + BLOCK;
      const first = n;
      for (let u = 0; u < used.length; u++) {
        const p = used[u]!;
        const list = p.ids;
        const len = p.length;
        let i = cursors[u]!;
        if (u < opening) {
          for (; i < len; i++) {
            const id = list[i]!;
            if (id >= end) break;
            const c = block[id - base]!;
            // Without branches (which of them is taken is a coin toss): a first count appends the id.
            touched[n] = id;
            n += (c - 1) >>> 31;
            block[id - base] = c + 1;
          }
        } else {
          for (; i < len; i++) {
            const id = list[i]!;
            if (id >= end) break;
            const c = block[id - base]!;
            block[id - base] = c + (-c >>> 31);
          }
        }
        cursors[u] = i;
      }
      let kept = first;
      for (let k = first; k < n; k++) {
        const id = touched[k]!;
        const c = block[id - base]!;
        block[id - base] = 0;
        if (c >= need) {
          touched[kept] = id;
          counts[kept++] = c;
        }
      }
      n = kept;
    }
    return n;
  }
}
