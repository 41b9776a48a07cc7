/**
 * Institutional sign-in endpoints: the second step of a sign-in, two-factor set-up, the
 * user's e-mail address, password reset by e-mail, CAS and OIDC single sign-on (including CAS single
 * logout), the identities linked to an account, and what administrators do with all of them.
 */
import { endpoint } from '../endpoint';

const tags = ['identity'];

// ---------- the second step of a sign-in ----------

/** With the challenge cookie the first step set: the TOTP code or a recovery code. */
export const loginVerify = endpoint({
  method: 'POST',
  path: '/api/user/login/verify',
  access: 'public',
  tags,
  summary: '登录第二步：验证码或恢复码',
  schema: (c) => ({ body: c.LoginVerifyBody, response: c.SignedInResponse }),
});

// ---------- two-factor set-up (the personal center) ----------

export const twoFactorStatus = endpoint({
  method: 'GET',
  path: '/api/user/2fa',
  access: 'user',
  tags,
  summary: '两步验证状态',
  schema: (c) => ({ response: c.TwoFactorStatusResponse }),
});

/** A new secret and its QR code; it takes effect only once a first code confirms it. */
export const twoFactorSetup = endpoint({
  method: 'POST',
  path: '/api/user/2fa/setup',
  access: 'user',
  tags,
  summary: '开始设置两步验证（二维码）',
  schema: (c) => ({ response: c.TwoFactorSetupResponse }),
});

/** The first code turns it on; the answer carries the ten recovery codes, once. */
export const twoFactorEnable = endpoint({
  method: 'POST',
  path: '/api/user/2fa/enable',
  access: 'user',
  tags,
  summary: '确认并开启两步验证（返回恢复码，仅此一次）',
  schema: (c) => ({ body: c.EnableTwoFactorBody, response: c.RecoveryCodesResponse }),
});

/** Needs a code; refused when a role of the user requires it. */
export const twoFactorDisable = endpoint({
  method: 'POST',
  path: '/api/user/2fa/disable',
  access: 'user',
  tags,
  summary: '关闭两步验证',
  schema: (c) => ({ body: c.SecondFactorBody, response: c.DisableTwoFactorResponse }),
});

/** Needs a code; the old codes stop working. */
export const twoFactorRecoveryCodes = endpoint({
  method: 'POST',
  path: '/api/user/2fa/recovery-codes',
  access: 'user',
  tags,
  summary: '重新生成恢复码（旧恢复码立即失效）',
  schema: (c) => ({ body: c.SecondFactorBody, response: c.RecoveryCodesResponse }),
});

export const twoFactorForgetBrowsers = endpoint({
  method: 'POST',
  path: '/api/user/2fa/forget-browsers',
  access: 'user',
  tags,
  summary: '不再信任任何浏览器（下次登录都要验证码）',
  schema: (c) => ({ response: c.ForgetBrowsersResponse }),
});

// ---------- e-mail ----------

export const emailStatus = endpoint({
  method: 'GET',
  path: '/api/user/email',
  access: 'user',
  tags,
  summary: '我的邮箱',
  schema: (c) => ({ response: c.EmailStatusResponse }),
});

/** Mails a verification link; the address counts once the link is opened. */
export const setEmail = endpoint({
  method: 'PUT',
  path: '/api/user/email',
  access: 'user',
  tags,
  summary: '设置邮箱（发送验证邮件）',
  schema: (c) => ({ body: c.SetEmailBody, response: c.EmailStatusResponse }),
});

export const removeEmail = endpoint({
  method: 'DELETE',
  path: '/api/user/email',
  access: 'user',
  tags,
  summary: '删除邮箱',
  schema: (c) => ({ response: c.EmailStatusResponse }),
});

/** The link's secret is the credential: anyone holding it may verify, logged in or not. */
export const verifyEmail = endpoint({
  method: 'POST',
  path: '/api/user/email/verify',
  access: 'public',
  tags,
  summary: '验证邮箱（邮件中的链接）',
  schema: (c) => ({ body: c.EmailTokenBody, response: c.VerifyEmailResponse }),
});

// ---------- password reset ----------

/** Always the same answer; limited per address and per IP. */
export const forgotPassword = endpoint({
  method: 'POST',
  path: '/api/user/password/forgot',
  access: 'public',
  tags,
  summary: '忘记密码：发送重置链接（不透露账号或邮箱是否存在）',
  schema: (c) => ({ body: c.ForgotPasswordBody, response: c.ForgotPasswordResponse }),
});

export const checkPasswordReset = endpoint({
  method: 'POST',
  path: '/api/user/password/reset/check',
  access: 'public',
  tags,
  summary: '检查重置链接是否有效',
  schema: (c) => ({ body: c.EmailTokenBody, response: c.ResetCheckResponse }),
});

/** Works once, within 30 minutes; ends every session of the user. */
export const resetPassword = endpoint({
  method: 'POST',
  path: '/api/user/password/reset',
  access: 'public',
  tags,
  summary: '通过邮件链接重置密码（结束该用户全部会话）',
  schema: (c) => ({ body: c.ResetPasswordBody, response: c.ResetPasswordResponse }),
});

/** The link a login under attack mailed (LoginLinkSent): signs this browser in, once. */
export const loginWithLink = endpoint({
  method: 'POST',
  path: '/api/user/login/link',
  access: 'public',
  tags,
  summary: '通过邮件中的登录链接登录（账号登录失败较多时发送）',
  schema: (c) => ({ body: c.LoginLinkBody, response: c.LoginResponse }),
});

// ---------- single sign-on ----------

/** Sends the browser to the identity server (302). */
export const ssoLogin = endpoint({
  method: 'GET',
  path: '/api/user/sso/:provider/login',
  access: 'public',
  tags,
  summary: '统一身份认证登录（跳转到身份认证服务器）',
  schema: (c) => ({ params: c.SsoProviderParams, query: c.SsoStartQuery }),
});

/** Links an identity to the signed-in account (302 to the identity server). */
export const ssoLink = endpoint({
  method: 'GET',
  path: '/api/user/sso/:provider/link',
  access: 'user',
  tags,
  summary: '关联统一身份（跳转到身份认证服务器）',
  schema: (c) => ({ params: c.SsoProviderParams }),
});

/** CAS comes back here with the ticket (302 onwards). */
export const casCallback = endpoint({
  method: 'GET',
  path: '/api/user/sso/cas/callback',
  access: 'public',
  tags,
  summary: 'CAS 回调（校验票据）',
  schema: (c) => ({ query: c.CasCallbackQuery }),
});

/** The CAS server's single-logout request ends the session that ticket opened. */
export const casLogout = endpoint({
  method: 'POST',
  path: '/api/user/sso/cas/callback',
  access: 'public',
  tags,
  summary: 'CAS 单点登出（由 CAS 服务器调用）',
  schema: (c) => ({ body: c.CasLogoutBody, response: c.OkEmpty }),
});

/** The OIDC provider comes back here with the code (302 onwards). */
export const oidcCallback = endpoint({
  method: 'GET',
  path: '/api/user/sso/oidc/callback',
  access: 'public',
  tags,
  summary: 'OIDC 回调（授权码 + PKCE）',
  schema: (c) => ({ query: c.OidcCallbackQuery }),
});

/** An identity that came back unlinked, waiting in this browser (null: none). */
export const ssoPending = endpoint({
  method: 'GET',
  path: '/api/user/sso/pending',
  access: 'public',
  tags,
  summary: '待关联的统一身份',
  schema: (c) => ({ response: c.PendingIdentityResponse }),
});

/** Proves the local password once, links, signs in (or asks for the second factor). */
export const ssoPendingLink = endpoint({
  method: 'POST',
  path: '/api/user/sso/pending/link',
  access: 'public',
  tags,
  summary: '用已有账号的密码关联统一身份并登录',
  schema: (c) => ({ body: c.PendingLinkBody, response: c.SsoSignInResponse }),
});

/** SSO_AUTO_CREATE only. */
export const ssoPendingCreate = endpoint({
  method: 'POST',
  path: '/api/user/sso/pending/create',
  access: 'public',
  tags,
  summary: '为统一身份创建新账号并登录',
  schema: (c) => ({ response: c.SsoSignInResponse }),
});

export const listIdentities = endpoint({
  method: 'GET',
  path: '/api/user/identities',
  access: 'user',
  tags,
  summary: '我关联的统一身份',
  schema: (c) => ({ response: c.IdentityListResponse }),
});

/** Refused when it would leave no way to sign in. */
export const unlinkIdentity = endpoint({
  method: 'DELETE',
  path: '/api/user/identities/:id',
  access: 'user',
  tags,
  summary: '解除统一身份关联（须保留至少一种登录方式）',
  schema: (c) => ({ params: c.IdParams, response: c.IdentityListResponse }),
});

// ---------- administrators ----------

const adminTags = ['admin'];

export const adminUserSecurity = endpoint({
  method: 'GET',
  path: '/api/user/admin/users/:id/security',
  access: 'admin',
  tags: adminTags,
  summary: '用户的登录方式、两步验证与统一身份',
  schema: (c) => ({ params: c.IdParams, response: c.AdminUserSecurityResponse }),
});

/** Audited; the user's sessions end. */
export const adminResetTwoFactor = endpoint({
  method: 'POST',
  path: '/api/user/admin/users/:id/reset-2fa',
  access: 'admin',
  tags: adminTags,
  summary: '重置两步验证（结束其全部会话）',
  schema: (c) => ({ params: c.IdParams, response: c.AdminUserSecurityResponse }),
});

/** Audited; turning it off needs a linked identity (a way to sign in must remain). */
export const adminSetPasswordLogin = endpoint({
  method: 'PUT',
  path: '/api/user/admin/users/:id/password-login',
  access: 'admin',
  tags: adminTags,
  summary: '允许或停用本地密码登录',
  schema: (c) => ({ params: c.IdParams, body: c.AdminPasswordLoginBody, response: c.AdminUserSecurityResponse }),
});

/** Audited; 409 when the identity is linked to someone else. */
export const adminLinkIdentity = endpoint({
  method: 'POST',
  path: '/api/user/admin/users/:id/identities',
  access: 'admin',
  tags: adminTags,
  summary: '为用户关联统一身份',
  schema: (c) => ({ params: c.IdParams, body: c.AdminLinkIdentityBody, response: c.AdminUserSecurityResponse }),
});

/** Audited. */
export const adminUnlinkIdentity = endpoint({
  method: 'DELETE',
  path: '/api/user/admin/users/:id/identities/:identityId',
  access: 'admin',
  tags: adminTags,
  summary: '解除用户的统一身份关联',
  schema: (c) => ({ params: c.UserIdentityParams, response: c.AdminUserSecurityResponse }),
});
