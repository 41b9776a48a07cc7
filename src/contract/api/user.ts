/**
 * User endpoints: the personal center (profile, avatar, password, sessions), personal API tokens and
 * their self-check, and administrator user management with its audit log. The accounts core (settings,
 * register, login, logout, current user) and the shell's preferences are in account.ts and re-exported
 * here, so this module lists every user endpoint.
 */
import { endpoint } from '../endpoint';

export { getPreferences, login, logout, me, putPreferences, register, settings } from './account';

const tags = ['user'];

// ---------- personal center ----------

export const getProfile = endpoint({
  method: 'GET',
  path: '/api/user/profile',
  access: 'user',
  tags,
  summary: '个人资料',
  schema: (c) => ({ response: c.ProfileResponse }),
});

export const updateProfile = endpoint({
  method: 'PATCH',
  path: '/api/user/profile',
  access: 'user',
  tags,
  summary: '修改昵称',
  schema: (c) => ({ body: c.UpdateProfileBody, response: c.ProfileResponse }),
});

/** Multipart, field `file`; 400 for a bad image, 413 past 2 MB. */
export const uploadAvatar = endpoint({
  method: 'POST',
  path: '/api/user/avatar',
  access: 'user',
  tags,
  summary: '上传头像（multipart，字段 file）',
  multipart: true,
  schema: (c) => ({ response: c.AvatarResponse }),
});

/** The image itself; `?v=<version>` makes the answer immutable. */
export const avatar = endpoint({
  method: 'GET',
  path: '/api/user/avatar/:id',
  access: 'public',
  tags,
  summary: '用户头像图片',
  schema: (c) => ({ params: c.IdParams, query: c.AvatarQuery }),
});

/** Ends every other session of this user. */
export const changePassword = endpoint({
  method: 'POST',
  path: '/api/user/password',
  access: 'user',
  tags,
  summary: '修改密码（结束其他会话）',
  schema: (c) => ({ body: c.ChangePasswordBody, response: c.ChangePasswordResponse }),
});

/** The current one is flagged `current`. */
export const listSessions = endpoint({
  method: 'GET',
  path: '/api/user/sessions',
  access: 'user',
  tags,
  summary: '我的登录会话',
  schema: (c) => ({ response: c.SessionListResponse }),
});

export const endSession = endpoint({
  method: 'DELETE',
  path: '/api/user/sessions/:id',
  access: 'user',
  tags,
  summary: '结束一个会话',
  schema: (c) => ({ params: c.IdParams, response: c.EndSessionsResponse }),
});

export const endOtherSessions = endpoint({
  method: 'POST',
  path: '/api/user/sessions/end-others',
  access: 'user',
  tags,
  summary: '结束其他所有会话',
  schema: (c) => ({ response: c.EndSessionsResponse }),
});

// ---------- personal API tokens ----------

const tokenTags = ['token'];

export const listTokens = endpoint({
  method: 'GET',
  path: '/api/user/tokens',
  access: 'user',
  tags: tokenTags,
  summary: '我的访问令牌',
  schema: (c) => ({ query: c.TokenListQuery, response: c.TokenListResponse }),
});

/** The answer carries the full token, once. 409: duplicate name or limit. */
export const createToken = endpoint({
  method: 'POST',
  path: '/api/user/tokens',
  access: 'user',
  tags: tokenTags,
  summary: '生成访问令牌（完整令牌只返回这一次）',
  schema: (c) => ({ body: c.CreateTokenBody, response: c.CreateTokenResponse }),
});

/** Takes effect at once. */
export const revokeToken = endpoint({
  method: 'POST',
  path: '/api/user/tokens/:id/revoke',
  access: 'user',
  tags: tokenTags,
  summary: '撤销访问令牌',
  schema: (c) => ({ params: c.IdParams, response: c.RevokeTokenResponse }),
});

/** A token (Bearer or `token=`) checked through the shared token path, optionally for a scope (403 without it). */
export const checkToken = endpoint({
  method: 'GET',
  path: '/api/token/check',
  access: 'token',
  tags: tokenTags,
  summary: '检查访问令牌是否有效（可指定 scope）',
  schema: (c) => ({ query: c.TokenCheckQuery, response: c.TokenCheckResponse }),
});

// ---------- administrator user management ----------

const adminTags = ['admin'];

export const adminListUsers = endpoint({
  method: 'GET',
  path: '/api/user/admin/users',
  access: 'admin',
  tags: adminTags,
  summary: '用户列表',
  schema: (c) => ({ query: c.AdminUserListQuery, response: c.AdminUserListResponse }),
});

export const adminGetUser = endpoint({
  method: 'GET',
  path: '/api/user/admin/users/:id',
  access: 'admin',
  tags: adminTags,
  summary: '用户详情',
  schema: (c) => ({ params: c.IdParams, response: c.AdminUserResponse }),
});

/** 409 for a taken username. */
export const adminCreateUser = endpoint({
  method: 'POST',
  path: '/api/user/admin/users',
  access: 'admin',
  tags: adminTags,
  summary: '创建用户',
  schema: (c) => ({ body: c.AdminCreateUserBody, response: c.AdminCreateUserResponse }),
});

/** 403 self-protection, 409 last active admin. */
export const adminUpdateUser = endpoint({
  method: 'PATCH',
  path: '/api/user/admin/users/:id',
  access: 'admin',
  tags: adminTags,
  summary: '修改用户（昵称、角色、状态）',
  schema: (c) => ({ params: c.IdParams, body: c.AdminUpdateUserBody, response: c.AdminUpdateUserResponse }),
});

/** Ends all of that user's sessions. */
export const adminResetPassword = endpoint({
  method: 'POST',
  path: '/api/user/admin/users/:id/reset-password',
  access: 'admin',
  tags: adminTags,
  summary: '重置密码（结束其所有会话，默认同时吊销其个人令牌）',
  schema: (c) => ({ params: c.IdParams, body: c.AdminResetPasswordBody, response: c.AdminResetPasswordResponse }),
});

/** Scripts using them stop working at once (every instance); audited. */
export const adminRevokeTokens = endpoint({
  method: 'POST',
  path: '/api/user/admin/users/:id/revoke-tokens',
  access: 'admin',
  tags: adminTags,
  summary: '吊销该用户的全部个人令牌',
  schema: (c) => ({ params: c.IdParams, response: c.AdminRevokeTokensResponse }),
});

/** Clears the login throttle's failures for the account; audited. */
export const adminUnlockLogin = endpoint({
  method: 'POST',
  path: '/api/user/admin/users/:id/unlock-login',
  access: 'admin',
  tags: adminTags,
  summary: '解除登录限制（清除该账号近期的登录失败记录）',
  schema: (c) => ({ params: c.IdParams, response: c.AdminUnlockLoginResponse }),
});

/** The calling administrator takes the njit role (the student lookup) for themself; audited. */
export const adminGrantSelfNjit = endpoint({
  method: 'POST',
  path: '/api/user/admin/self/njit',
  access: 'admin',
  tags: adminTags,
  summary: '为自己开通 NJIT 学生信息查询（授予自己 njit 角色）',
  schema: (c) => ({ response: c.AdminGrantSelfNjitResponse }),
});

/** With the typed confirmation (the exact username). */
export const adminDeleteUser = endpoint({
  method: 'DELETE',
  path: '/api/user/admin/users/:id',
  access: 'admin',
  tags: adminTags,
  summary: '删除用户（输入用户名确认）',
  schema: (c) => ({ params: c.IdParams, body: c.AdminDeleteUserBody, response: c.AdminDeleteUserResponse }),
});

/** Newest first. */
export const adminAudit = endpoint({
  method: 'GET',
  path: '/api/user/admin/audit',
  access: 'admin',
  tags: adminTags,
  summary: '管理操作审计日志',
  schema: (c) => ({ query: c.AuditListQuery, response: c.AuditListResponse }),
});

// ---------- the header's search ----------

/** My tokens by name or prefix. */
export const searchTokens = endpoint({
  method: 'GET',
  path: '/api/user/tokens/search',
  access: 'user',
  tags: tokenTags,
  summary: '全局搜索：按名称或前缀找我的令牌',
  schema: (c) => ({ query: c.SearchQuery, response: c.SearchHitsResponse }),
});

/** Users by username or nickname (administrators). */
export const adminSearchUsers = endpoint({
  method: 'GET',
  path: '/api/user/admin/search',
  access: 'admin',
  tags: adminTags,
  summary: '全局搜索：按用户名或昵称找用户（管理员）',
  schema: (c) => ({ query: c.SearchQuery, response: c.SearchHitsResponse }),
});
