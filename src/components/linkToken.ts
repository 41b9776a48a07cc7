/** The secret of a link the portal mailed: it rides in the #fragment (`#token=…`), which no server ever sees. */
export function linkToken(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return token && /^[A-Za-z0-9_-]{16,128}$/.test(token) ? token : null;
}
