/**
 * What a redeem code looks like. 20 symbols from a 30-symbol alphabet (Crockford's base32 without 0
 * and 1, so no 0/O, 1/I/L or U/V mix-ups) carry 20·log2(30) ≈ 98 bits: far beyond guessing at five
 * tries a minute. The database keeps only the sha256 of the canonical form (uppercase, no separators),
 * so what users type is matched however they case or group it.
 */
import crypto from 'node:crypto';

export const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
export const CODE_LENGTH = 20;
export const CODE_GROUP = 4;
export const CODE_BITS = CODE_LENGTH * Math.log2(CODE_ALPHABET.length);

/** A fresh code in canonical form. */
export function generateCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[crypto.randomInt(CODE_ALPHABET.length)];
  return code;
}

/** XXXX-XXXX-XXXX-XXXX-XXXX, as codes are handed out. */
export function formatCode(canonical: string): string {
  return canonical.match(new RegExp(`.{1,${CODE_GROUP}}`, 'g'))!.join('-');
}

/** What the user typed, uppercased, without spaces, dashes or underscores. */
export function canonicalCode(input: string): string {
  return input.toUpperCase().replace(/[\s\-_\u2010-\u2015\uFF0D]/g, '');
}

export function isWellFormed(canonical: string): boolean {
  return canonical.length === CODE_LENGTH && [...canonical].every((c) => CODE_ALPHABET.includes(c));
}

export function hashCode(canonical: string): string {
  return crypto.createHash('sha256').update(canonical).digest('hex');
}
