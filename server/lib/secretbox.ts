/**
 * Encryption of stored secrets (DingTalk webhooks and signing secrets, AI provider keys) with
 * AES-256-GCM under the server key. What the database holds is useless without the key.
 */
import crypto from 'node:crypto';

const VERSION = 'v1';

export class SecretBox {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
    this.key = key;
  }

  /** Any secret string becomes a 32-byte key (a PORTAL_SECRET of any length works). */
  static fromSecret(secret: string): SecretBox {
    return new SecretBox(crypto.createHash('sha256').update(`portal-secretbox:${secret}`).digest());
  }

  encrypt(plain: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  decrypt(sealed: string): string {
    const [version, data] = sealed.split(':', 2);
    if (version !== VERSION || !data) throw new Error('unknown secret format');
    const raw = Buffer.from(data, 'base64');
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}

/** `sk-…abcd` style: enough to recognise a secret, never enough to use it. */
export function maskSecret(secret: string, keep = 4): string {
  // By code points: cutting between the halves of a surrogate pair left a lone surrogate, which
  // PostgreSQL refuses (an API key with an emoji gave a 500; found by tests/server/property.test.ts).
  const chars = Array.from(secret);
  if (chars.length <= keep * 2) return '…';
  return `${chars.slice(0, Math.min(4, chars.length - keep)).join('')}…${chars.slice(-keep).join('')}`;
}
