/** Random secrets and their stored form: only a SHA-256 hash ever reaches the database. */
import crypto from 'node:crypto';

export function randomSecret(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}

/** SHA-256 of the text's UTF-8 bytes, as 64 hex digits. */
export function sha256(value: string): string {
  return crypto.hash('sha256', value, 'hex');
}
