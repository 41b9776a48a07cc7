/**
 * Typed client of the user module (src/contract/account.ts): personal center, sessions,
 * personal API tokens, administrator user management and its audit log.
 */
// Type-only imports: the schemas stay out of the bundle unless a page needs them.
import type {
  AdminCreateUserBody,
  AdminCreateUserResponse,
  AdminDeleteUserResponse,
  AdminResetPasswordBody,
  AdminResetPasswordResponse,
  AdminUpdateUserBody,
  AdminUpdateUserResponse,
  AdminUserListQuery,
  AdminUserListResponse,
  AdminUserResponse,
  AuditListResponse,
  AvatarResponse,
  ChangePasswordBody,
  ChangePasswordResponse,
  CreateTokenBody,
  CreateTokenResponse,
  EndSessionsResponse,
  ProfileResponse,
  RevokeTokenResponse,
  SessionListResponse,
  TokenListResponse,
  TokenStatus,
  UpdateProfileBody,
} from '@/contract';
import { request, type RequestOptions } from '@umijs/max';
import type { z } from 'zod';

export type ProfileAnswer = z.infer<typeof ProfileResponse>;
export type AvatarAnswer = z.infer<typeof AvatarResponse>;
export type ChangePasswordAnswer = z.infer<typeof ChangePasswordResponse>;
export type SessionListAnswer = z.infer<typeof SessionListResponse>;
export type EndSessionsAnswer = z.infer<typeof EndSessionsResponse>;
export type TokenListAnswer = z.infer<typeof TokenListResponse>;
export type CreateTokenAnswer = z.infer<typeof CreateTokenResponse>;
export type RevokeTokenAnswer = z.infer<typeof RevokeTokenResponse>;
export type AdminUserListAnswer = z.infer<typeof AdminUserListResponse>;
export type AdminUserAnswer = z.infer<typeof AdminUserResponse>;
export type AdminCreateUserAnswer = z.infer<typeof AdminCreateUserResponse>;
export type AdminUpdateUserAnswer = z.infer<typeof AdminUpdateUserResponse>;
export type AdminResetPasswordAnswer = z.infer<typeof AdminResetPasswordResponse>;
export type AdminDeleteUserAnswer = z.infer<typeof AdminDeleteUserResponse>;
export type AuditListAnswer = z.infer<typeof AuditListResponse>;

export interface PageParams {
  current?: number;
  pageSize?: number;
}
export interface TokenListParams extends PageParams {
  status?: TokenStatus;
}
export interface AuditListParams extends PageParams {
  targetId?: string;
  action?: string;
}

// ---------- personal center ----------

/** GET /api/user/profile */
export function fetchProfile(options?: RequestOptions) {
  return request<ProfileAnswer>('/api/user/profile', { method: 'GET', ...options });
}

/** PATCH /api/user/profile */
export function updateProfile(body: UpdateProfileBody, options?: RequestOptions) {
  return request<ProfileAnswer>('/api/user/profile', { method: 'PATCH', data: body, ...options });
}

/** POST /api/user/avatar — multipart, field `file`; 400 for a bad image, 413 past 2 MB. */
export function uploadAvatar(file: Blob, options?: RequestOptions) {
  const form = new FormData();
  form.append('file', file);
  return request<AvatarAnswer>('/api/user/avatar', { method: 'POST', data: form, ...options });
}

/** POST /api/user/password — ends every other session of this user. */
export function changePassword(body: ChangePasswordBody, options?: RequestOptions) {
  return request<ChangePasswordAnswer>('/api/user/password', { method: 'POST', data: body, ...options });
}

/** GET /api/user/sessions — the current one is flagged `current`. */
export function fetchSessions(options?: RequestOptions) {
  return request<SessionListAnswer>('/api/user/sessions', { method: 'GET', ...options });
}

/** DELETE /api/user/sessions/:id */
export function endSession(id: number, options?: RequestOptions) {
  return request<EndSessionsAnswer>(`/api/user/sessions/${id}`, { method: 'DELETE', ...options });
}

/** POST /api/user/sessions/end-others */
export function endOtherSessions(options?: RequestOptions) {
  return request<EndSessionsAnswer>('/api/user/sessions/end-others', { method: 'POST', data: {}, ...options });
}

// ---------- personal API tokens ----------

/** GET /api/user/tokens */
export function fetchTokens(params: TokenListParams, options?: RequestOptions) {
  return request<TokenListAnswer>('/api/user/tokens', { method: 'GET', params, ...options });
}

/** POST /api/user/tokens — the answer carries the full token, once. 409: duplicate name or limit. */
export function createToken(body: CreateTokenBody, options?: RequestOptions) {
  return request<CreateTokenAnswer>('/api/user/tokens', { method: 'POST', data: body, ...options });
}

/** POST /api/user/tokens/:id/revoke — takes effect at once. */
export function revokeToken(id: number, options?: RequestOptions) {
  return request<RevokeTokenAnswer>(`/api/user/tokens/${id}/revoke`, { method: 'POST', data: {}, ...options });
}

// ---------- administrator ----------

/** GET /api/user/admin/users */
export function fetchAdminUsers(params: AdminUserListQuery, options?: RequestOptions) {
  return request<AdminUserListAnswer>('/api/user/admin/users', { method: 'GET', params, ...options });
}

/** GET /api/user/admin/users/:id */
export function fetchAdminUser(uid: number, options?: RequestOptions) {
  return request<AdminUserAnswer>(`/api/user/admin/users/${uid}`, { method: 'GET', ...options });
}

/** POST /api/user/admin/users — 409 for a taken username. */
export function adminCreateUser(body: AdminCreateUserBody, options?: RequestOptions) {
  return request<AdminCreateUserAnswer>('/api/user/admin/users', { method: 'POST', data: body, ...options });
}

/** PATCH /api/user/admin/users/:id — 403 self-protection, 409 last active admin. */
export function adminUpdateUser(uid: number, body: AdminUpdateUserBody, options?: RequestOptions) {
  return request<AdminUpdateUserAnswer>(`/api/user/admin/users/${uid}`, { method: 'PATCH', data: body, ...options });
}

/** POST /api/user/admin/users/:id/reset-password — ends all of that user's sessions. */
export function adminResetPassword(uid: number, body: AdminResetPasswordBody, options?: RequestOptions) {
  return request<AdminResetPasswordAnswer>(`/api/user/admin/users/${uid}/reset-password`, {
    method: 'POST',
    data: body,
    ...options,
  });
}

/** DELETE /api/user/admin/users/:id with the typed confirmation (the exact username). */
export function adminDeleteUser(uid: number, confirm: string, options?: RequestOptions) {
  return request<AdminDeleteUserAnswer>(`/api/user/admin/users/${uid}`, {
    method: 'DELETE',
    data: { confirm },
    ...options,
  });
}

/** GET /api/user/admin/audit — newest first. */
export function fetchAudit(params: AuditListParams, options?: RequestOptions) {
  return request<AuditListAnswer>('/api/user/admin/audit', { method: 'GET', params, ...options });
}
