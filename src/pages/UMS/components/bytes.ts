/**
 * UTF-8 size of a message, counted the way the server does (title + content bytes), so the
 * counter and the server's 400 agree. Lone surrogates count 3 bytes, as U+FFFD does.
 */
export function utf8Bytes(text: string): number {
  let n = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}
