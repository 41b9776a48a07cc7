/**
 * What happens once an identity server vouched for someone: a link to the signed-in account (started
 * from the personal center), or a sign-in — of the linked account, of a new account (SSO_AUTO_CREATE),
 * or, for an identity no account is linked to, a wait in this browser until its user links an account
 * (with that account's password) or creates one. A sign-in goes through the same second factor as a
 * password (./sign-in.ts).
 */
import type { SsoErrorCode } from '../../../../src/contract/ssoErrors';
import type { RoleRule } from '../../../config';
import { HttpError } from '../../../errors';
import type { SessionMeta } from '../service';
import type { LoginOrigin } from '../throttle';
import {
  createAccountFor,
  grantMappedRoles,
  IDENTITY_CONFLICT,
  IDENTITY_TAKEN,
  linkedUser,
  linkIdentity,
  mappedRoles,
  touchIdentity,
  usernameFor,
  usernameTaken,
  type ExternalIdentity,
} from './accounts';
import { afterFirstFactor, type SignInContext, type SignInOutcome } from './sign-in';
import { savePending, type StartedSignIn } from './sso-state';

export interface SsoContext extends SignInContext {
  autoCreate: boolean;
  roleMap: readonly RoleRule[];
}

export type SsoFinish =
  | { kind: 'signed-in'; outcome: SignInOutcome; redirect: string }
  | { kind: 'pending'; pending: string; redirect: string }
  | { kind: 'linked'; redirect: string }
  /** `link`: a link from the personal center failed (shown there), not a sign-in (shown on the login page). */
  | { kind: 'error'; code: SsoErrorCode; redirect: string; link?: boolean };

/** Where the personal center's identity list lives (links start and end there). */
export const SECURITY_PAGE = '/user/security';

/** The sso_error code of a refused link. */
export function linkErrorCode(err: unknown): SsoErrorCode | null {
  if (err instanceof HttpError && err.errorCode === IDENTITY_CONFLICT) return 'conflict';
  if (err instanceof HttpError && err.errorCode === IDENTITY_TAKEN) return 'taken';
  return null;
}

/** Signs the identity's account in: its details refreshed, the mapped roles added, then the second factor. */
export async function signInLinked(
  ctx: SsoContext,
  user: { id: number; username: string; nickname: string | null; avatar: string | null; roles: string[] },
  identity: ExternalIdentity,
  opts: { origin: LoginOrigin; meta: SessionMeta; ssoSessionHash: string | null },
): Promise<SignInOutcome> {
  await touchIdentity(ctx.db, user.id, identity);
  const withRoles = await grantMappedRoles(ctx.db, user, mappedRoles(identity, ctx.roleMap));
  return afterFirstFactor(ctx, withRoles, {
    remember: false,
    origin: opts.origin,
    meta: opts.meta,
    sso: { provider: identity.provider, sessionHash: opts.ssoSessionHash },
  });
}

export async function finishSso(
  ctx: SsoContext,
  started: StartedSignIn,
  identity: ExternalIdentity,
  opts: { origin: LoginOrigin; meta: SessionMeta; currentUserId: number | null; ssoSessionHash: string | null },
): Promise<SsoFinish> {
  if (started.purpose === 'link') {
    // The account is the one that started the link, still signed in in this browser.
    if (!started.userId || opts.currentUserId !== started.userId) {
      return { kind: 'error', code: 'state', redirect: SECURITY_PAGE, link: true };
    }
    try {
      await linkIdentity(ctx.db, started.userId, identity);
    } catch (err) {
      const code = linkErrorCode(err);
      if (code) return { kind: 'error', code, redirect: SECURITY_PAGE, link: true };
      throw err;
    }
    return { kind: 'linked', redirect: SECURITY_PAGE };
  }

  const user = await linkedUser(ctx.db, identity);
  if (user) {
    if (user.status !== 'active') return { kind: 'error', code: 'disabled', redirect: started.redirect };
    const outcome = await signInLinked(ctx, user, identity, opts);
    return { kind: 'signed-in', outcome, redirect: started.redirect };
  }
  // A new account only under a name nobody has: a local account of the same name may be this person's,
  // and is linked only with its password (the pending page), never by the name alone.
  if (ctx.autoCreate && !(await usernameTaken(ctx.db, usernameFor(identity)))) {
    try {
      const created = await createAccountFor(ctx.db, identity, mappedRoles(identity, ctx.roleMap), { suffix: false });
      const outcome = await signInLinked(ctx, created, identity, opts);
      return { kind: 'signed-in', outcome, redirect: started.redirect };
    } catch (err) {
      if (!(err instanceof HttpError && err.statusCode === 409)) throw err;
    }
  }
  const pending = await savePending(ctx.db, {
    identity,
    redirect: started.redirect,
    ssoSessionHash: opts.ssoSessionHash,
  });
  return { kind: 'pending', pending, redirect: started.redirect };
}
