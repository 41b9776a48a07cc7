/** Random secrets and their stored form: only a SHA-256 hash ever reaches the database. */
import crypto from 'node:crypto';

export function randomSecret(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}

// Node 20.12 and later hash a string in one call, ~3× cheaper than createHash().update().digest() for
// the short texts here (the OCS path hashes each question and its options on every query).
const oneShot: ((algorithm: string, data: string, encoding: 'hex') => string) | undefined =
  typeof crypto.hash === 'function' ? crypto.hash : undefined;

/** SHA-256 of the text's UTF-8 bytes, as 64 hex digits. */
export function sha256(value: string): string {
  return oneShot ? oneShot('sha256', value, 'hex') : crypto.createHash('sha256').update(value).digest('hex');
}
