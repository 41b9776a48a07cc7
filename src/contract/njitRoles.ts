/**
 * The roles that open the NJIT lookup. Each sees the student fields its field policy allows; a
 * counselor or teacher may also be limited to some colleges or classes (src/contract/njitPolicy.ts).
 * Free of zod: the access flags of every page read it (src/access.ts).
 */
export const NJIT_ROLES = ['njit', 'njit_counselor', 'njit_teacher'] as const;
export type NjitRole = (typeof NJIT_ROLES)[number];
export function hasNjitRole(roles: readonly string[]): boolean {
  return roles.some((r) => (NJIT_ROLES as readonly string[]).includes(r));
}
