/** Small SQL helpers shared by the modules. */

/** Escapes LIKE/ILIKE wildcards so user input matches literally (Postgres' default escape is `\`). */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The least string above every string that starts with `prefix`, in byte order (text_pattern_ops, `~<~`):
 * the prefix with its last character raised by one (UTF-8 keeps code point order in bytes). With
 * `~>=~ prefix and ~<~ bound` a prefix search is an index range even in a prepared statement's generic
 * plan, where `like $1` is not (the pattern is unknown when the plan is made). Null when there is no
 * bound (empty, or only U+10FFFF).
 */
export function prefixUpperBound(prefix: string): string | null {
  const chars = Array.from(prefix);
  while (chars.length > 0) {
    const last = chars.pop()!.codePointAt(0)!;
    if (last < 0x10ffff) {
      const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
      return chars.join('') + String.fromCodePoint(next);
    }
  }
  return null;
}

/**
 * The operator for "contains, ignoring case": `like` when the text has no letter with a case (Chinese,
 * digits, punctuation), where it finds exactly what `ilike` would; `ilike` otherwise. On the embedded
 * database `ilike` folds every row's text character by character, which made a search of a user's
 * 10,000 message titles three times slower than `like` for the same Chinese words.
 */
export function containsOperator(text: string): 'like' | 'ilike' {
  return text.toLowerCase() === text && text.toUpperCase() === text ? 'like' : 'ilike';
}
