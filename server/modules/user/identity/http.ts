/**
 * The HTTP side every sign-in path shares (password, second step, CAS, OIDC): who the request comes
 * from, and turning a sign-in outcome into cookies. The small cookies of the sign-in steps (login
 * challenge, SSO state, an identity waiting to be linked) are HttpOnly, SameSite=Lax and scoped to /api/user.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LoginResult } from '../../../../src/contract';
import { setDeviceCookie, setSessionCookie } from '../../../plugins/auth';
import type { SessionMeta } from '../service';
import { DEVICE_COOKIE, DEVICE_COOKIE_DAYS, plausibleDevice, type LoginOrigin } from '../throttle';
import { CHALLENGE_COOKIE, CHALLENGE_MINUTES, type SignInOutcome } from './sign-in';

const COOKIE_PATH = '/api/user';

export function originOf(request: FastifyRequest): LoginOrigin {
  return {
    ip: request.ip,
    device: plausibleDevice(request.cookies[DEVICE_COOKIE]),
    sessionUserId: request.user?.id ?? null,
  };
}

export function metaOf(request: FastifyRequest): SessionMeta {
  const ua = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof ua === 'string' ? ua : null };
}

export function setStepCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  value: string,
  maxAgeSeconds: number,
): void {
  setDeviceCookie(request, reply, name, value, maxAgeSeconds);
}

export function clearStepCookie(request: FastifyRequest, reply: FastifyReply, name: string): void {
  if (request.cookies[name] === undefined) return;
  reply.clearCookie(name, { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure: request.protocol === 'https' });
}

/** Cookies for the outcome, and the login's answer: the user, or `{ challenge: 'totp' }`. */
export function applySignIn(
  request: FastifyRequest,
  reply: FastifyReply,
  outcome: SignInOutcome,
): { success: true; data: LoginResult } {
  if (outcome.kind === 'challenge') {
    setStepCookie(request, reply, CHALLENGE_COOKIE, outcome.challenge, CHALLENGE_MINUTES * 60);
    return { success: true, data: { challenge: 'totp' } };
  }
  setSessionCookie(request, reply, outcome.session);
  // Kept (or given) on every successful sign-in, so a browser in use stays known for a year.
  setDeviceCookie(request, reply, DEVICE_COOKIE, outcome.device, DEVICE_COOKIE_DAYS * 86_400);
  clearStepCookie(request, reply, CHALLENGE_COOKIE);
  return { success: true, data: outcome.user };
}
