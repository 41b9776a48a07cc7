/**
 * Hands a token just created on a token page to /OCS/configGen without putting it in the address bar,
 * the history or a log: a module-level value in this tab's memory, set right before navigating and
 * taken by the config page when it mounts. A reload or a new tab starts without it.
 */

let pending: string | null = null;

/** Called by the token page just before it navigates to the config page. */
export function handOffToken(token: string): void {
  pending = token;
}

/**
 * What the config page starts with. Peeking (not taking) keeps React's double render in development
 * from losing it; the page forgets it with clearHandedOffToken() once mounted.
 */
export function peekHandedOffToken(): string {
  return pending ?? '';
}

export function clearHandedOffToken(): void {
  pending = null;
}
