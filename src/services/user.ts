/** Typed client of the accounts API (src/contract/user.ts). */
// Type-only imports: zod stays out of the initial bundle.
import type {
  AuthSettings,
  Health,
  LoginBody,
  LoginResponse,
  LogoutResponse,
  MeResponse,
  RegisterBody,
  RegisterResponse,
} from '@/contract';
import { request, type RequestOptions } from '@umijs/max';
import type { z } from 'zod';
import { fetchJson } from './http';

export type MeAnswer = z.infer<typeof MeResponse>;
export type LoginAnswer = z.infer<typeof LoginResponse>;
export type RegisterAnswer = z.infer<typeof RegisterResponse>;
export type LogoutAnswer = z.infer<typeof LogoutResponse>;
export type AuthSettingsAnswer = z.infer<typeof AuthSettings>;
export type HealthAnswer = z.infer<typeof Health>;

/** GET /api/user/me — 401 when logged out. */
export function fetchCurrentUser(options?: RequestOptions) {
  return request<MeAnswer>('/api/user/me', { method: 'GET', ...options });
}

/** POST /api/user/login — sets the session cookie. */
export function login(body: z.input<typeof LoginBody>, options?: RequestOptions) {
  return request<LoginAnswer>('/api/user/login', { method: 'POST', data: body, ...options });
}

/** POST /api/user/register — creates the account and logs it in. */
export function register(body: RegisterBody, options?: RequestOptions) {
  return request<RegisterAnswer>('/api/user/register', { method: 'POST', data: body, ...options });
}

/** POST /api/user/logout — deletes the server-side session. */
export function logout(options?: RequestOptions) {
  return request<LogoutAnswer>('/api/user/logout', { method: 'POST', data: {}, ...options });
}

/** GET /api/user/settings — public: is registration open? */
export function fetchAuthSettings() {
  return fetchJson<AuthSettingsAnswer>('/api/user/settings');
}

/** GET /api/health — public readiness probe. */
export function fetchHealth() {
  return fetchJson<HealthAnswer>('/api/health');
}
