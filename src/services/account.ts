/**
 * Typed client of the user module (src/contract/api/user.ts): personal center, sessions,
 * personal API tokens, administrator user management and its audit log.
 */
import * as api from '@/contract/api/user';
import type { AnswerOf } from '@/contract/endpoint';
// Type-only imports: the schemas stay out of the bundle unless a page needs them.
import type {
  AdminCreateUserBody,
  AdminResetPasswordBody,
  AdminUpdateUserBody,
  AdminUserListQuery,
  ChangePasswordBody,
  CreateTokenBody,
  TokenStatus,
  UpdateProfileBody,
} from '@/contract';
import type { RequestOptions } from '@umijs/max';
import { call, upload } from './call';

export type ProfileAnswer = AnswerOf<typeof api.getProfile>;
export type AvatarAnswer = AnswerOf<typeof api.uploadAvatar>;
export type ChangePasswordAnswer = AnswerOf<typeof api.changePassword>;
export type SessionListAnswer = AnswerOf<typeof api.listSessions>;
export type EndSessionsAnswer = AnswerOf<typeof api.endSession>;
export type TokenListAnswer = AnswerOf<typeof api.listTokens>;
export type CreateTokenAnswer = AnswerOf<typeof api.createToken>;
export type RevokeTokenAnswer = AnswerOf<typeof api.revokeToken>;
export type AdminUserListAnswer = AnswerOf<typeof api.adminListUsers>;
export type AdminUserAnswer = AnswerOf<typeof api.adminGetUser>;
export type AdminCreateUserAnswer = AnswerOf<typeof api.adminCreateUser>;
export type AdminUpdateUserAnswer = AnswerOf<typeof api.adminUpdateUser>;
export type AdminResetPasswordAnswer = AnswerOf<typeof api.adminResetPassword>;
export type AdminDeleteUserAnswer = AnswerOf<typeof api.adminDeleteUser>;
export type AuditListAnswer = AnswerOf<typeof api.adminAudit>;

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

export const fetchProfile = (options?: RequestOptions) => call(api.getProfile, {}, options);

export const updateProfile = (body: UpdateProfileBody, options?: RequestOptions) =>
  call(api.updateProfile, { body }, options);

/** Multipart, field `file`; 400 for a bad image, 413 past 2 MB. */
export const uploadAvatar = (file: Blob, options?: RequestOptions) =>
  upload(api.uploadAvatar, file, undefined, options);

/** Ends every other session of this user. */
export const changePassword = (body: ChangePasswordBody, options?: RequestOptions) =>
  call(api.changePassword, { body }, options);

/** The current one is flagged `current`. */
export const fetchSessions = (options?: RequestOptions) => call(api.listSessions, {}, options);

export const endSession = (id: number, options?: RequestOptions) => call(api.endSession, { params: { id } }, options);

export const endOtherSessions = (options?: RequestOptions) => call(api.endOtherSessions, {}, options);

// ---------- personal API tokens ----------

export const fetchTokens = (params: TokenListParams, options?: RequestOptions) =>
  call(api.listTokens, { query: params }, options);

/** The answer carries the full token, once. 409: duplicate name or limit. */
export const createToken = (body: CreateTokenBody, options?: RequestOptions) =>
  call(api.createToken, { body }, options);

/** Takes effect at once. */
export const revokeToken = (id: number, options?: RequestOptions) => call(api.revokeToken, { params: { id } }, options);

// ---------- administrator ----------

export const fetchAdminUsers = (params: AdminUserListQuery, options?: RequestOptions) =>
  call(api.adminListUsers, { query: params }, options);

export const fetchAdminUser = (uid: number, options?: RequestOptions) =>
  call(api.adminGetUser, { params: { id: uid } }, options);

/** 409 for a taken username. */
export const adminCreateUser = (body: AdminCreateUserBody, options?: RequestOptions) =>
  call(api.adminCreateUser, { body }, options);

/** 403 self-protection, 409 last active admin. */
export const adminUpdateUser = (uid: number, body: AdminUpdateUserBody, options?: RequestOptions) =>
  call(api.adminUpdateUser, { params: { id: uid }, body }, options);

/** Ends all of that user's sessions. */
export const adminResetPassword = (uid: number, body: AdminResetPasswordBody, options?: RequestOptions) =>
  call(api.adminResetPassword, { params: { id: uid }, body }, options);

/** Every active personal token of the user; scripts using them stop at once. */
export const adminRevokeTokens = (uid: number, options?: RequestOptions) =>
  call(api.adminRevokeTokens, { params: { id: uid } }, options);

/** Clears the account's recent login failures (the login throttle). */
export const adminUnlockLogin = (uid: number, options?: RequestOptions) =>
  call(api.adminUnlockLogin, { params: { id: uid } }, options);

/** With the typed confirmation (the exact username). */
export const adminDeleteUser = (uid: number, confirm: string, options?: RequestOptions) =>
  call(api.adminDeleteUser, { params: { id: uid }, body: { confirm } }, options);

/** Newest first. */
export const fetchAudit = (params: AuditListParams, options?: RequestOptions) =>
  call(api.adminAudit, { query: params }, options);

/** The calling administrator takes the njit role (the student lookup) for themself; audited. */
export const grantSelfNjit = (options?: RequestOptions) => call(api.adminGrantSelfNjit, {}, options);
