/** Small SQL helpers shared by the modules. */

/** Escapes LIKE/ILIKE wildcards so user input matches literally (Postgres' default escape is `\`). */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}
