/**
 * HTTP shapes of the user module: sign-in (register, login, logout, the current user), the personal
 * center, sessions, personal API tokens, administrator user management and its audit log.
 */
import { z } from 'zod';
import { ok, OkEmpty, page, PageQuery, Role } from './common';

const Iso = z.string(); // ISO-8601 timestamps (UTC) on the wire

// ---------- sign-in ----------

export const USERNAME_RE = /^[A-Za-z0-9_-]+$/;

export const Username = z
  .string({ error: '请输入用户名' })
  .trim()
  .min(3, '用户名至少 3 个字符')
  .max(32, '用户名最多 32 个字符')
  .regex(USERNAME_RE, '用户名只能包含字母、数字、下划线和连字符');

export const Password = z.string({ error: '请输入密码' }).min(8, '密码至少 8 个字符').max(128, '密码最多 128 个字符');

export const Nickname = z.string().trim().max(32, '昵称最多 32 个字符');

export const RegisterBody = z.object({
  username: Username,
  password: Password,
  nickname: Nickname.optional(),
});
export type RegisterBody = z.infer<typeof RegisterBody>;

export const LoginBody = z.object({
  username: z.string({ error: '请输入用户名' }).trim().min(1, '请输入用户名').max(64, '用户名过长'),
  password: z.string({ error: '请输入密码' }).min(1, '请输入密码').max(128, '密码最多 128 个字符'),
  remember: z.boolean().optional().default(false),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const CurrentUser = z.object({
  uid: z.number().int(),
  username: z.string(),
  nickname: z.string().nullable(),
  avatar: z.string().nullable(),
  roles: z.array(Role),
  /**
   * A role of this user requires two-factor sign-in (REQUIRE_2FA_ROLES) and it is not set up yet: the
   * session may do nothing but set it up (and sign out) until then.
   */
  mustEnrollTwoFactor: z.boolean().optional(),
});
export type CurrentUser = z.infer<typeof CurrentUser>;

/**
 * The first factor (a password, or a CAS/OIDC sign-in) was right and the account uses two-factor
 * sign-in: no session yet. The browser holds the challenge in a cookie; POST /api/user/login/verify
 * with the code finishes the sign-in.
 */
export const LoginChallenge = z.object({ challenge: z.literal('totp') });
export type LoginChallenge = z.infer<typeof LoginChallenge>;
/** How long a mailed sign-in link works. */
export const LOGIN_LINK_MINUTES = 15;
/**
 * The account's failed logins make browsers it does not know wait, and it has a verified address: if
 * the password was right, a sign-in link went there. The answer is the same whether it was right or
 * not (an attacker learns nothing from it); the owner opens the link and is signed in.
 */
export const LoginLinkSent = z.object({ loginLink: z.literal(true), minutes: z.number().int() });
export type LoginLinkSent = z.infer<typeof LoginLinkSent>;
/** Signed in (the user), or the second factor is asked for (the challenge). */
export const LoginResult = z.union([CurrentUser, LoginChallenge]);
export type LoginResult = z.infer<typeof LoginResult>;
/** A password login's answer: a LoginResult, or a sign-in link may be on its way. */
export const PasswordLoginResult = z.union([CurrentUser, LoginChallenge, LoginLinkSent]);
export type PasswordLoginResult = z.infer<typeof PasswordLoginResult>;

/**
 * GET /api/user/me for a visitor without a session: HTTP 200 with this failure envelope rather than the
 * 401 the rest of the API answers, because "nobody is signed in" is the ordinary answer to a visitor's
 * first look, and a browser logs every 401 in its console as an error.
 */
export const NotSignedIn = z.object({
  success: z.literal(false),
  errorCode: z.literal('UNAUTHORIZED'),
  errorMessage: z.string(),
  showType: z.number().int().optional(),
});
export type NotSignedIn = z.infer<typeof NotSignedIn>;
/** Who is signed in: the user, or NotSignedIn. */
export const MeResponse = z.union([ok(CurrentUser), NotSignedIn]);
/** A sign-in that finished: the user now signed in. */
export const SignedInResponse = ok(CurrentUser);
export const LoginResponse = ok(LoginResult);
export const PasswordLoginResponse = ok(PasswordLoginResult);
export const RegisterResponse = ok(CurrentUser);
export const LogoutResponse = OkEmpty;

/**
 * A single sign-on way the login page offers: its button text and where the button goes (the page
 * adds `?redirect=`; the URL comes from here so the login page need not load the SSO descriptors).
 */
export const SsoOption = z.object({ label: z.string(), loginUrl: z.string() });

/** Public settings the login/register pages need before anyone is logged in. */
export const AuthSettings = ok(
  z.object({
    registration: z.enum(['open', 'closed']),
    /** E-mail is configured: forgotten passwords are reset by a link (otherwise: ask an administrator). */
    passwordReset: z.boolean(),
    /** The CAS and OIDC buttons, when configured. */
    sso: z.object({ cas: SsoOption.nullable(), oidc: SsoOption.nullable() }),
  }),
);

// ---------- personal center ----------

export const Profile = z.object({
  uid: z.number().int(),
  username: z.string(),
  nickname: z.string().nullable(),
  avatar: z.string().nullable(),
  roles: z.array(Role),
  createdAt: Iso,
  lastLoginAt: Iso.nullable(),
});
export type Profile = z.infer<typeof Profile>;
export const ProfileResponse = ok(Profile);

export const UpdateProfileBody = z.object({ nickname: Nickname });
export type UpdateProfileBody = z.infer<typeof UpdateProfileBody>;

/** POST /api/user/avatar (multipart, field `file`) answers the new avatar URL. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const AVATAR_SIZE = 256;
export const AvatarResponse = ok(z.object({ avatar: z.string() }));
/** GET /api/user/avatar/:id?v=<version>: the version makes the URL immutable. */
export const AvatarQuery = z.object({ v: z.string().max(16).optional() });

export const ChangePasswordBody = z.object({
  oldPassword: z.string({ error: '请输入当前密码' }).min(1, '请输入当前密码').max(128, '密码最多 128 个字符'),
  newPassword: Password,
  /** Also revoke every personal API token of the user (scripts then need a new one). */
  revokeTokens: z.boolean().optional().default(false),
});
export type ChangePasswordBody = z.input<typeof ChangePasswordBody>;
/** How many other sessions were ended, and how many tokens were revoked. */
export const ChangePasswordResponse = ok(
  z.object({ endedSessions: z.number().int(), revokedTokens: z.number().int() }),
);

export const SessionInfo = z.object({
  id: z.number().int(),
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  createdAt: Iso,
  lastSeenAt: Iso,
  expiresAt: Iso,
  persistent: z.boolean(),
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof SessionInfo>;
export const SessionListResponse = ok(z.array(SessionInfo));
export const EndSessionsResponse = ok(z.object({ ended: z.number().int() }));
export const IdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

// ---------- personal API tokens ----------

export const TOKEN_SCOPES = ['ocs:query', 'ums:send'] as const;
export const TokenScope = z.enum(TOKEN_SCOPES);
export type TokenScope = z.infer<typeof TokenScope>;
export const TOKEN_SCOPE_LABELS: Record<TokenScope, string> = {
  'ocs:query': 'OCS 题库查询',
  'ums:send': 'UMS 消息推送',
};
export const TOKEN_EXPIRY_DAYS = [7, 30, 90] as const;
export const MAX_ACTIVE_TOKENS = 20;

export const CreateTokenBody = z.object({
  name: z.string({ error: '请输入令牌名称' }).trim().min(1, '请输入令牌名称').max(64, '名称最多 64 个字符'),
  scopes: z.array(TokenScope).min(1, '至少选择一个权限范围').max(TOKEN_SCOPES.length),
  /** 7, 30 or 90 days; null = never expires. */
  expiresInDays: z.union([z.literal(7), z.literal(30), z.literal(90), z.null()]),
});
export type CreateTokenBody = z.infer<typeof CreateTokenBody>;

export const TokenStatus = z.enum(['active', 'expired', 'revoked']);
export type TokenStatus = z.infer<typeof TokenStatus>;

export const TokenInfo = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The first characters of the token, e.g. `pt_AbC12345`, so users can tell tokens apart. */
  prefix: z.string(),
  scopes: z.array(TokenScope),
  createdAt: Iso,
  expiresAt: Iso.nullable(),
  lastUsedAt: Iso.nullable(),
  lastUsedIp: z.string().nullable(),
  revokedAt: Iso.nullable(),
  status: TokenStatus,
});
export type TokenInfo = z.infer<typeof TokenInfo>;

/** The full token appears in this one answer and never again. */
export const CreateTokenResponse = ok(TokenInfo.extend({ token: z.string() }));
export const TokenListQuery = PageQuery.extend({ status: TokenStatus.optional() });
export const TokenListResponse = page(TokenInfo);
export const RevokeTokenResponse = ok(TokenInfo);

/** GET /api/token/check?scope=… with the token as Bearer or `token=`: what a token may do. */
/** A personal token given as the `token` query parameter (scripts that cannot set a header). */
export const TokenParamQuery = z.object({ token: z.string().max(200).optional() });
export const TokenCheckQuery = z.object({ scope: TokenScope.optional(), token: z.string().max(200).optional() });
export const TokenCheckResponse = ok(
  z.object({ uid: z.number().int(), username: z.string(), tokenId: z.number().int(), scopes: z.array(TokenScope) }),
);

// ---------- administrator user management ----------

export const UserStatus = z.enum(['active', 'disabled']);
export type UserStatus = z.infer<typeof UserStatus>;

/** From this many recent failures, browsers an account does not know wait between login attempts. */
export const LOGIN_FREE_FAILURES = 5;

export const AdminUser = z.object({
  uid: z.number().int(),
  username: z.string(),
  nickname: z.string().nullable(),
  avatar: z.string().nullable(),
  roles: z.array(Role),
  status: UserStatus,
  createdAt: Iso,
  lastLoginAt: Iso.nullable(),
  activeTokens: z.number().int(),
  /**
   * Failed logins of the account in the throttle's window (15 minutes). From 5 on, browsers the account
   * does not know wait between attempts; an administrator can clear them (adminUnlockLogin).
   */
  recentLoginFailures: z.number().int(),
});
export type AdminUser = z.infer<typeof AdminUser>;

export const AdminUserListQuery = PageQuery.extend({
  /** Matches username or nickname (substring, case-insensitive). */
  keyword: z.string().trim().max(64).optional(),
  role: Role.optional(),
  status: UserStatus.optional(),
  sortBy: z.enum(['createdAt', 'lastLoginAt']).default('createdAt'),
  order: z.enum(['ascend', 'descend']).default('descend'),
});
export type AdminUserListQuery = z.input<typeof AdminUserListQuery>;
export const AdminUserListResponse = page(AdminUser);
export const AdminUserResponse = ok(AdminUser);

export const AdminCreateUserBody = z
  .object({
    username: Username,
    /** Omit (or null) together with generatePassword=true to have one generated and shown once. */
    password: Password.nullable().optional(),
    generatePassword: z.boolean().default(false),
    nickname: Nickname.optional(),
    roles: z.array(Role).max(2).default([]),
  })
  .refine((b) => b.generatePassword || !!b.password, { message: '请输入初始密码或选择自动生成', path: ['password'] });
export type AdminCreateUserBody = z.input<typeof AdminCreateUserBody>;
/** generatedPassword is present only when the server generated it; it is shown once. */
export const AdminCreateUserResponse = ok(AdminUser.extend({ generatedPassword: z.string().optional() }));

export const AdminUpdateUserBody = z
  .object({
    nickname: Nickname.nullable().optional(),
    roles: z.array(Role).max(2).optional(),
    status: UserStatus.optional(),
  })
  .refine((b) => b.nickname !== undefined || b.roles !== undefined || b.status !== undefined, {
    message: '没有要修改的内容',
    path: ['_'],
  });
export type AdminUpdateUserBody = z.infer<typeof AdminUpdateUserBody>;
/** endedSessions: sessions ended because the user was disabled. */
export const AdminUpdateUserResponse = ok(AdminUser.extend({ endedSessions: z.number().int() }));

export const AdminResetPasswordBody = z
  .object({
    password: Password.nullable().optional(),
    generatePassword: z.boolean().default(false),
    /** Also revoke the user's personal API tokens: on by default, a reset usually means a lost secret. */
    revokeTokens: z.boolean().default(true),
  })
  .refine((b) => b.generatePassword || !!b.password, { message: '请输入新密码或选择自动生成', path: ['password'] });
export type AdminResetPasswordBody = z.input<typeof AdminResetPasswordBody>;
export const AdminResetPasswordResponse = ok(
  z.object({
    endedSessions: z.number().int(),
    revokedTokens: z.number().int(),
    generatedPassword: z.string().optional(),
  }),
);

/** POST .../revoke-tokens: every active personal token of the user is revoked. */
export const AdminRevokeTokensResponse = ok(z.object({ revokedTokens: z.number().int() }));
/** POST .../unlock-login: the account's recent login failures are cleared. */
export const AdminUnlockLoginResponse = ok(z.object({ clearedFailures: z.number().int() }));
/** The caller's roles afterwards; granted is false when they had the role already. */
export const AdminGrantSelfNjitResponse = ok(z.object({ roles: z.array(Role), granted: z.boolean() }));

/** Typed confirmation: the exact username of the user being deleted. */
export const AdminDeleteUserBody = z.object({ confirm: z.string().max(64) });
export const AdminDeleteUserResponse = OkEmpty;

export const AuditEntry = z.object({
  id: z.number().int(),
  actorId: z.number().int().nullable(),
  actorName: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  targetName: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  ip: z.string().nullable(),
  createdAt: Iso,
});
export type AuditEntry = z.infer<typeof AuditEntry>;
export const AuditListQuery = PageQuery.extend({
  targetId: z.string().max(32).optional(),
  action: z.string().max(64).optional(),
});
export const AuditListResponse = page(AuditEntry);

/** Audit action names and their Chinese labels, for the UI. */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  'user.create': '创建用户',
  'user.update': '修改用户',
  'user.reset_password': '重置密码',
  'user.delete': '删除用户',
  'user.reset_2fa': '重置两步验证',
  'user.password_login': '设置密码登录',
  'user.link_identity': '关联统一身份',
  'user.unlink_identity': '解除统一身份关联',
  'user.sso_roles': '统一身份授予角色',
  'user.grant_self_njit': '为自己开通学生信息查询',
};
