/**
 * Who is signed in, and the public probes: the calls that are more than call(descriptor). The start
 * of the app and the probes go outside the request plugin (no error display; health's 503 body is
 * kept); a signed-in page asks for the user anew with the session rule of any other call.
 */
import * as healthApi from '@/contract/api/health';
import * as api from '@/contract/api/account';
import type { AnswerOf } from '@/contract/endpoint';
import { SESSION_REQUIRED } from '@/requestDefaults';
import type { RequestOptions } from '@umijs/max';
import { call } from './call';
import { urlOf } from './url';
import { fetchJson } from './http';

type MeAnswer = AnswerOf<typeof api.me>;
type AuthSettingsAnswer = AnswerOf<typeof api.settings>;
type HealthAnswer = AnswerOf<typeof healthApi.health>;

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

/** Public: is registration open? */
export const fetchAuthSettings = () => fetchJson<AuthSettingsAnswer>(urlOf(api.settings));

/** Public readiness probe. */
export const fetchHealth = () => fetchJson<HealthAnswer>(urlOf(healthApi.health));
