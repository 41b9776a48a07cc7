/** Random secrets and their stored form: only a SHA-256 hash ever reaches the database. */
import crypto from 'node:crypto';

export function randomSecret(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}

export function sha256(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex');
}
