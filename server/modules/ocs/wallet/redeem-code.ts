/**
 * Making and storing redeem codes: a fresh code from a cryptographic source, and the sha256 the
 * database keeps instead of the code (of its canonical form: uppercase, no separators). What a code
 * looks like (alphabet, length, grouping) is in src/contract/ocsFree.ts.
 */
import crypto from 'node:crypto';
import { CODE_ALPHABET, CODE_LENGTH } from '@contract';
import { sha256 } from '../../../lib/tokens';

/** A fresh code in canonical form. */
export function generateCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[crypto.randomInt(CODE_ALPHABET.length)];
  return code;
}

export function hashCode(canonical: string): string {
  return sha256(canonical);
}
