/**
 * The portal's side of an SSO round trip, kept in the database (any instance may receive the callback):
 * - a started sign-in or link: the `state` sent to the identity server (stored hashed, bound to the
 *   browser by a cookie holding the same value, used once, STATE_MINUTES), the PKCE verifier (sealed),
 *   the nonce and where to go afterwards;
 * - an identity that came back with no account linked, waiting for its user to link or create one.
 */
import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { SsoProvider } from '../../../../src/contract';
import type { DB } from '../../../db/schema';
import type { SecretBox } from '../../../lib/secretbox';
import { randomSecret, sha256 } from '../../../lib/tokens';
import type { ExternalIdentity } from './accounts';

export const STATE_MINUTES = 10;
/** Cookie binding a started sign-in to this browser (its value is the `state`). */
export const STATE_COOKIE = 'portal_sso_state';
/** Cookie naming an identity waiting in this browser to be linked. */
export const PENDING_COOKIE = 'portal_sso_pending';

export interface StartedSignIn {
  provider: SsoProvider;
  purpose: 'login' | 'link';
  userId: number | null;
  redirect: string;
  codeVerifier: string | null;
  nonce: string | null;
}

/**
 * Stores a sign-in or a link under its state (a new random one unless given: OIDC draws it first, as the
 * authorization URL carries it); returns the state value (for the URL and the cookie).
 */
export async function startState(
  db: Kysely<DB>,
  secrets: SecretBox,
  s: StartedSignIn,
  state: string = randomSecret(32),
): Promise<string> {
  await db
    .insertInto('sso_states')
    .values({
      id_hash: sha256(state),
      provider: s.provider,
      purpose: s.purpose,
      user_id: s.userId,
      redirect: s.redirect,
      code_verifier_enc: s.codeVerifier ? secrets.encrypt(s.codeVerifier) : null,
      nonce: s.nonce,
      expires_at: new Date(Date.now() + STATE_MINUTES * 60_000),
    })
    .execute();
  return state;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/**
 * The started sign-in the callback's `state` names, if this browser started it (its cookie holds the
 * same value) and it has not expired or been used. Used up by this call either way.
 */
export async function takeState(
  db: Kysely<DB>,
  secrets: SecretBox,
  provider: SsoProvider,
  fromUrl: string | undefined,
  fromCookie: string | undefined,
): Promise<StartedSignIn | null> {
  if (!fromUrl || !fromCookie || fromUrl.length > 128 || !sameSecret(fromUrl, fromCookie)) return null;
  const row = await db
    .deleteFrom('sso_states')
    .where('id_hash', '=', sha256(fromUrl))
    .where('purpose', 'in', ['login', 'link'])
    .returningAll()
    .executeTakeFirst();
  if (!row || row.provider !== provider || row.expires_at.getTime() <= Date.now()) return null;
  return {
    provider,
    purpose: row.purpose as 'login' | 'link',
    userId: row.user_id,
    redirect: row.redirect,
    codeVerifier: row.code_verifier_enc ? secrets.decrypt(row.code_verifier_enc) : null,
    nonce: row.nonce,
  };
}

export interface PendingSignIn {
  identity: ExternalIdentity;
  redirect: string;
  /** The CAS ticket's hash, for single logout of the session it ends in. */
  ssoSessionHash: string | null;
}

export async function savePending(db: Kysely<DB>, pending: PendingSignIn): Promise<string> {
  const id = randomSecret(32);
  await db
    .insertInto('sso_states')
    .values({
      id_hash: sha256(id),
      provider: pending.identity.provider,
      purpose: 'pending',
      redirect: pending.redirect,
      identity: JSON.stringify({ ...pending.identity, ssoSessionHash: pending.ssoSessionHash }),
      expires_at: new Date(Date.now() + STATE_MINUTES * 60_000),
    })
    .execute();
  return id;
}

export async function readPending(db: Kysely<DB>, id: string | undefined): Promise<PendingSignIn | null> {
  if (!id || id.length > 128) return null;
  const row = await db
    .selectFrom('sso_states')
    .select(['identity', 'redirect'])
    .where('id_hash', '=', sha256(id))
    .where('purpose', '=', 'pending')
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  if (!row?.identity) return null;
  const { ssoSessionHash, ...identity } = row.identity as unknown as ExternalIdentity & {
    ssoSessionHash: string | null;
  };
  return { identity, redirect: row.redirect, ssoSessionHash };
}

export async function dropPending(db: Kysely<DB>, id: string): Promise<void> {
  await db.deleteFrom('sso_states').where('id_hash', '=', sha256(id)).where('purpose', '=', 'pending').execute();
}

/** Expired states, challenges and mailed links go (a background job). */
export async function pruneSignInState(db: Kysely<DB>): Promise<void> {
  await db
    .deleteFrom('sso_states')
    .where('expires_at', '<', sql<Date>`now()`)
    .execute();
  await db
    .deleteFrom('login_challenges')
    .where('expires_at', '<', sql<Date>`now()`)
    .execute();
  await db
    .deleteFrom('email_tokens')
    .where('expires_at', '<', sql<Date>`now() - interval '1 day'`)
    .execute();
}
