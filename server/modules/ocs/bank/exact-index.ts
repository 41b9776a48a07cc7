/**
 * Exact matching without a database round trip: normalized title → the bank rows with that title and
 * what answering needs from them (display title, type, options, answer), plus each row's version
 * (updated_at in microseconds) so the charge can check the row did not change since (ocs_charge_many).
 * Rows marked wrong are left out, as the matcher leaves them out. Each row's provenance (interned: a
 * handful of distinct strings) and its 存疑 mark ride along, for the answer's `source` and confidence.
 *
 * Each row also carries the bank's generation it was read (or last confirmed) in: a charge at that
 * generation need not look at the row (migration 0021).
 *
 * Memory (1M questions): the normalized titles are shared with the fuzzy index (normOf); per row its
 * texts (display title and option texts, and the answer unless it is a set of the options, which is a
 * bit mask) as UTF-16 in 2 MiB chunks (no JS string per row: nothing for the garbage collector to walk),
 * and 38 bytes of typed arrays; the bucket table about 4 bytes per row.
 *
 * A group (all rows of one normalized title) is only served when this index knows it is complete:
 * a write by this instance marks the written title unknown (`touch`) until the row is read back, and
 * before the start-up load finished nothing is served. Rows changed by other instances are caught by
 * the version check at charge time and by the periodic refresh.
 */
import type { OcsQuestionType } from './normalize';

const TYPES: OcsQuestionType[] = ['single', 'multiple', 'judgement', 'completion', 'any'];
/** Code units per arena chunk (2 MiB): rows' texts are UTF-16 code units in chunks, not JS strings. */
const CHUNK = 1 << 20;
const utf16 = new TextDecoder('utf-16le');
const MASKED = 0x10;
const PRESENT = 0x20;
const DISPUTED = 0x40;

export interface ExactRow {
  id: number;
  title: string;
  norm_title: string;
  type: OcsQuestionType;
  options: string[];
  answer: string[];
  /** updated_at in microseconds since the epoch. */
  version: number;
  /**
   * The bank's generation (ocs_bank_generation, migration 0021) of the snapshot the row was read in:
   * the row was at `version` then. Unknown (never equal to a generation) when not given.
   */
  generation?: number;
  /** import / verified / ai / corrected / upstream:<name> (confidence.ts), when the writer gave it. */
  provenance?: string;
  /** 存疑: reported by several users and not reviewed yet (only present when true). */
  disputed?: boolean;
}

/** 32-bit FNV-1a, finished with a mix so the low bits are usable as a bucket number. */
function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h | 0;
}

/** The answer as a mask over the options when it is exactly some of them in their order, else -1. */
function answerMask(options: string[], answer: string[]): number {
  if (options.length === 0 || options.length > 31 || answer.length === 0) return -1;
  let mask = 0;
  let k = 0;
  for (let i = 0; i < options.length && k < answer.length; i++) {
    if (options[i] === answer[k]) {
      mask |= 1 << i;
      k++;
    }
  }
  return k === answer.length ? mask : -1;
}

export class ExactIndex {
  private heads = new Int32Array(1 << 12);
  private next = new Int32Array(1024);
  private hashes = new Int32Array(1024);
  /** 0: absent; PRESENT | MASKED? | type code. */
  private meta = new Uint8Array(1024);
  private optionCount = new Uint8Array(1024);
  private masks = new Uint32Array(1024);
  private versions = new Float64Array(1024);
  /** Per row, the newest generation it is known to have been at its version in (-1: none). */
  private generations = new Float64Array(1024).fill(-1);
  /** Index into `provenances` (0: not given). */
  private provs = new Uint16Array(1024);
  private readonly provenances: string[] = [''];
  private readonly provenanceIds = new Map<string, number>();
  /** Where each row's texts are: arena position (chunk × chunkSize + offset) and length, in code units. */
  private starts = new Uint32Array(1024);
  private lengths = new Uint32Array(1024);
  private chunks: Uint16Array[] = [];
  /** Code units used in the last chunk; code units of removed or replaced rows (compact() reclaims). */
  private used = Infinity;
  private wasted = 0;
  private live = 0;
  private count = 0;
  /** Titles written by this instance and not read back yet: lookups of them go to the database. */
  private readonly unknown = new Map<string, number>();

  /** normOf: the normalized title of an id (the fuzzy index keeps them). */
  constructor(
    private readonly normOf: (id: number) => string | undefined,
    private readonly chunkSize = CHUNK,
  ) {}

  get size(): number {
    return this.count;
  }

  /** Code units the arena holds (live and not yet reclaimed), for memory reports and tests. */
  get arenaUnits(): number {
    return this.chunks.reduce((n, c) => n + c.length, 0);
  }

  /**
   * The rows of this normalized title, or null when this index cannot vouch for the group: written
   * here and not read back yet, or more than `limit` rows (a generic title such as 「下列说法正确的是」
   * heading many option sets; the database then picks among `limit` of them, as it always did).
   */
  lookup(norm: string, limit = 50): ExactRow[] | null {
    if (this.unknown.has(norm)) return null;
    const h = hash32(norm);
    const ids: number[] = [];
    for (let id = this.heads[h & (this.heads.length - 1)]!; id !== 0; id = this.next[id]!) {
      if (this.hashes[id] === h && this.normOf(id) === norm && ids.push(id) > limit) return null;
    }
    return ids.map((id) => this.row(id, norm));
  }

  /** One row by id, if held. */
  get(id: number): ExactRow | null {
    if (id >= this.meta.length || this.meta[id] === 0) return null;
    const norm = this.normOf(id);
    return norm === undefined ? null : this.row(id, norm);
  }

  /** The newest generation the row is known to have been at this version in; undefined if none. */
  generationOf(id: number, version: number): number | undefined {
    if (!this.has(id, version)) return undefined;
    const g = this.generations[id]!;
    return g < 0 ? undefined : g;
  }

  /** The charge saw the row still at this version at `generation` (it may be newer than the one held). */
  confirm(id: number, version: number, generation: number): void {
    if (this.has(id, version) && this.generations[id]! < generation) this.generations[id] = generation;
  }

  /** Whether the index holds this id (with this version, when given). */
  has(id: number, version?: number): boolean {
    return id < this.meta.length && this.meta[id] !== 0 && (version === undefined || this.versions[id] === version);
  }

  private row(id: number, norm: string): ExactRow {
    const meta = this.meta[id]!;
    const n = this.optionCount[id]!;
    const at = this.starts[id]!;
    const chunk = this.chunks[Math.floor(at / this.chunkSize)]!;
    const from = at % this.chunkSize;
    const parts = utf16.decode(chunk.subarray(from, from + this.lengths[id]!)).split('\u0000');
    const options = parts.slice(1, 1 + n);
    let answer: string[];
    if (meta & MASKED) {
      const mask = this.masks[id]!;
      answer = options.filter((_, i) => (mask & (1 << i)) !== 0);
    } else {
      answer = parts.slice(1 + n);
    }
    const prov = this.provs[id]!;
    return {
      id,
      title: parts[0]!,
      norm_title: norm,
      type: TYPES[meta & 0x0f]!,
      options,
      answer,
      version: this.versions[id]!,
      ...(prov !== 0 ? { provenance: this.provenances[prov]! } : {}),
      ...(meta & DISPUTED ? { disputed: true } : {}),
    };
  }

  private provenanceId(p: string | undefined): number {
    if (!p) return 0;
    let id = this.provenanceIds.get(p);
    if (id === undefined) {
      // Upstream names are few; past 65k distinct ones the provenance is simply not kept in memory.
      if (this.provenances.length >= 0xffff) return 0;
      id = this.provenances.push(p) - 1;
      this.provenanceIds.set(p, id);
    }
    return id;
  }

  /** Adds or replaces a row (its normalized title must be the one normOf gives for its id). */
  put(r: ExactRow & { status?: string }): void {
    this.remove(r.id);
    if (r.status === 'wrong') return;
    const type = TYPES.indexOf(r.type);
    const fields = [r.title, ...r.options];
    // Text columns cannot hold U+0000 in PostgreSQL, so it separates fields; be safe anyway.
    if (type < 0 || r.options.length > 255 || fields.some((f) => f.includes('\u0000'))) return;
    const mask = answerMask(r.options, r.answer);
    if (mask < 0) {
      if (r.answer.some((a) => a.includes('\u0000'))) return;
      fields.push(...r.answer);
    }
    this.grow(r.id);
    const h = hash32(r.norm_title);
    this.hashes[r.id] = h;
    this.meta[r.id] = PRESENT | (mask >= 0 ? MASKED : 0) | (r.disputed ? DISPUTED : 0) | type;
    this.provs[r.id] = this.provenanceId(r.provenance);
    this.optionCount[r.id] = r.options.length;
    this.masks[r.id] = mask >= 0 ? mask : 0;
    this.versions[r.id] = r.version;
    this.generations[r.id] = r.generation ?? -1;
    this.store(r.id, fields.join('\u0000'));
    const b = h & (this.heads.length - 1);
    this.next[r.id] = this.heads[b]!;
    this.heads[b] = r.id;
    if (++this.count > this.heads.length) this.rehash();
  }

  remove(id: number): void {
    if (id >= this.meta.length || this.meta[id] === 0) return;
    const b = this.hashes[id]! & (this.heads.length - 1);
    if (this.heads[b] === id) {
      this.heads[b] = this.next[id]!;
    } else {
      let prev = this.heads[b]!;
      while (prev !== 0 && this.next[prev] !== id) prev = this.next[prev]!;
      if (prev !== 0) this.next[prev] = this.next[id]!;
    }
    this.next[id] = 0;
    this.meta[id] = 0;
    this.wasted += this.lengths[id]!;
    this.live -= this.lengths[id]!;
    this.count--;
    if (this.wasted > this.chunkSize * 8 && this.wasted > this.live) this.compact();
  }

  /** Writes a row's texts to the arena. */
  private store(id: number, text: string): void {
    const n = text.length;
    if (this.used + n > this.chunkSize) {
      // A row longer than a chunk gets a chunk of its own size.
      this.chunks.push(new Uint16Array(Math.max(this.chunkSize, n)));
      this.used = 0;
    }
    const index = this.chunks.length - 1;
    const chunk = this.chunks[index]!;
    for (let i = 0; i < n; i++) chunk[this.used + i] = text.charCodeAt(i);
    this.starts[id] = index * this.chunkSize + this.used;
    this.lengths[id] = n;
    this.used = chunk.length > this.chunkSize ? this.chunkSize : this.used + n;
    this.live += n;
  }

  /** Rewrites the arena with the rows held now, giving back what removed and replaced rows took. */
  private compact(): void {
    const old = this.chunks;
    const at = (id: number) => {
      const p = this.starts[id]!;
      const from = p % this.chunkSize;
      return old[Math.floor(p / this.chunkSize)]!.subarray(from, from + this.lengths[id]!);
    };
    this.chunks = [];
    this.used = this.chunkSize;
    this.wasted = 0;
    this.live = 0;
    for (let id = 1; id < this.meta.length; id++) {
      if (this.meta[id] !== 0) this.store(id, utf16.decode(at(id)));
    }
  }

  /**
   * This instance wrote the row `id`, now titled `norm`: forget what is known of it, and treat the
   * title as unknown until `settle(norm)` (after the row was read back).
   */
  touch(id: number, norm: string): void {
    this.remove(id);
    this.unknown.set(norm, (this.unknown.get(norm) ?? 0) + 1);
  }

  settle(norm: string): void {
    const n = (this.unknown.get(norm) ?? 1) - 1;
    if (n <= 0) this.unknown.delete(norm);
    else this.unknown.set(norm, n);
  }

  isUnknown(norm: string): boolean {
    return this.unknown.has(norm);
  }

  /** Replaces every row of one normalized title with these (the database's current rows of it). */
  replaceGroup(norm: string, rows: Array<ExactRow & { status?: string }>): void {
    const h = hash32(norm);
    const stale: number[] = [];
    for (let id = this.heads[h & (this.heads.length - 1)]!; id !== 0; id = this.next[id]!) {
      if (this.hashes[id] === h && this.normOf(id) === norm) stale.push(id);
    }
    for (const id of stale) this.remove(id);
    for (const r of rows) if (r.norm_title === norm && this.normOf(r.id) === norm) this.put(r);
  }

  private grow(id: number): void {
    if (id < this.meta.length) return;
    let n = this.meta.length;
    while (n <= id) n *= 2;
    const g = <T extends Int32Array | Uint8Array | Uint16Array | Uint32Array | Float64Array>(
      a: T,
      make: (n: number) => T,
    ): T => {
      const b = make(n);
      b.set(a);
      return b;
    };
    this.next = g(this.next, (k) => new Int32Array(k));
    this.hashes = g(this.hashes, (k) => new Int32Array(k));
    this.meta = g(this.meta, (k) => new Uint8Array(k));
    this.optionCount = g(this.optionCount, (k) => new Uint8Array(k));
    this.masks = g(this.masks, (k) => new Uint32Array(k));
    this.versions = g(this.versions, (k) => new Float64Array(k));
    this.generations = g(this.generations, (k) => new Float64Array(k).fill(-1));
    this.provs = g(this.provs, (k) => new Uint16Array(k));
    this.starts = g(this.starts, (k) => new Uint32Array(k));
    this.lengths = g(this.lengths, (k) => new Uint32Array(k));
  }

  private rehash(): void {
    const heads = new Int32Array(this.heads.length * 2);
    const mask = heads.length - 1;
    for (let id = 1; id < this.meta.length; id++) {
      if (this.meta[id] === 0) continue;
      const b = this.hashes[id]! & mask;
      this.next[id] = heads[b]!;
      heads[b] = id;
    }
    this.heads = heads;
  }
}
