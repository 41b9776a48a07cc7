/** Typed client of the accounts API (src/contract/api/user.ts), and the public health probe. */
import * as healthApi from '@/contract/api/health';
import * as api from '@/contract/api/user';
import type { AnswerOf } from '@/contract/endpoint';
// Type-only imports: zod stays out of the initial bundle.
import type { LoginBody, RegisterBody } from '@/contract';
import { SESSION_REQUIRED } from '@/requestDefaults';
import type { RequestOptions } from '@umijs/max';
import type { z } from 'zod';
import { call } from './call';
import { urlOf } from './url';
import { fetchJson } from './http';

export type MeAnswer = AnswerOf<typeof api.me>;
export type LoginAnswer = AnswerOf<typeof api.login>;
export type RegisterAnswer = AnswerOf<typeof api.register>;
export type LogoutAnswer = AnswerOf<typeof api.logout>;
export type AuthSettingsAnswer = AnswerOf<typeof api.settings>;
export type HealthAnswer = AnswerOf<typeof healthApi.health>;

/**
 * For a signed-in page: the user anew. The endpoint is public (a visitor is answered "nobody"), but
 * from here its 401 (a session cookie whose session ended) ends the session like any other call's.
 */
export const fetchCurrentUser = (options?: RequestOptions) =>
  call(api.me, {}, { [SESSION_REQUIRED]: true, ...options });

/**
 * The same answer for the start of the app (src/initialState.ts), outside the request plugin: it
 * is asked for while umi.js still runs, before React's first render, where the plugin's first call
 * (axios building its config, interceptors and adapter) was ~10 ms of main thread on every first
 * visit. Nothing is displayed on failure; a visitor gets success:false, a session that ended a
 * FetchError with status 401.
 */
export const probeCurrentUser = () => fetchJson<MeAnswer>(urlOf(api.me));

/** Sets the session cookie. */
export const login = (body: z.input<typeof LoginBody>, options?: RequestOptions) => call(api.login, { body }, options);

/** Creates the account and logs it in. */
export const register = (body: RegisterBody, options?: RequestOptions) => call(api.register, { body }, options);

/** Deletes the server-side session. */
export const logout = (options?: RequestOptions) => call(api.logout, {}, options);

// The two public probes go outside the request plugin (no error display; health's 503 body is kept).

/** Public: is registration open? */
export const fetchAuthSettings = () => fetchJson<AuthSettingsAnswer>(urlOf(api.settings));

/** Public readiness probe. */
export const fetchHealth = () => fetchJson<HealthAnswer>(urlOf(healthApi.health));
