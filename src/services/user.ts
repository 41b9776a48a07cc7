/** Typed client of the accounts API (src/contract/api/user.ts), and the public health probe. */
import * as healthApi from '@/contract/api/health';
import * as api from '@/contract/api/user';
import type { AnswerOf } from '@/contract/endpoint';
// Type-only imports: zod stays out of the initial bundle.
import type { LoginBody, RegisterBody } from '@/contract';
import type { RequestOptions } from '@umijs/max';
import type { z } from 'zod';
import { call, urlOf } from './call';
import { fetchJson } from './http';

export type MeAnswer = AnswerOf<typeof api.me>;
export type LoginAnswer = AnswerOf<typeof api.login>;
export type RegisterAnswer = AnswerOf<typeof api.register>;
export type LogoutAnswer = AnswerOf<typeof api.logout>;
export type AuthSettingsAnswer = AnswerOf<typeof api.settings>;
export type HealthAnswer = AnswerOf<typeof healthApi.health>;

/** 401 when logged out. */
export const fetchCurrentUser = (options?: RequestOptions) => call(api.me, {}, options);

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
