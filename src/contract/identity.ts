/**
 * HTTP shapes of institutional sign-in: two-factor sign-in (TOTP and recovery codes), the
 * user's e-mail address and password reset by e-mail, CAS and OIDC single sign-on with the identities
 * linked to an account, and what administrators see and change of them.
 */
import { z } from 'zod';
import { ok, OkEmpty } from './common';
import { IdParams, LoginResult, Password } from './user';

const Iso = z.string();

// ---------- two-factor sign-in ----------

export const RECOVERY_CODE_COUNT = 10;
export const TRUST_BROWSER_DAYS = 30;
/** Wrong codes one password entry allows before the password must be entered again. */
export const CHALLENGE_MAX_ATTEMPTS = 5;

/** A code from the authenticator app. */
export const TotpCode = z
  .string({ error: '请输入验证码' })
  .trim()
  .regex(/^\d{6}$/, '请输入验证器 App 显示的 6 位数字');

/** A code from the authenticator app, or one of the recovery codes. */
export const SecondFactorCode = z.string({ error: '请输入验证码' }).trim().min(1, '请输入验证码').max(32, '验证码过长');

export const TwoFactorStatus = z.object({
  enabled: z.boolean(),
  enabledAt: Iso.nullable(),
  /** Unused recovery codes left. */
  recoveryCodesLeft: z.number().int(),
  /** A role of the user requires it (REQUIRE_2FA_ROLES): it cannot be turned off. */
  required: z.boolean(),
  /** Browsers trusted to skip the code (still within their 30 days). */
  trustedBrowsers: z.number().int(),
});
export type TwoFactorStatus = z.infer<typeof TwoFactorStatus>;
export const TwoFactorStatusResponse = ok(TwoFactorStatus);

/** A new secret to scan: the QR code (a PNG data URL), the otpauth:// URL and the secret to type in. */
export const TwoFactorSetupResponse = ok(
  z.object({ secret: z.string(), otpauthUrl: z.string(), qrDataUrl: z.string() }),
);

export const EnableTwoFactorBody = z.object({ code: TotpCode });
/** The ten recovery codes, shown once. */
export const RecoveryCodesResponse = ok(z.object({ recoveryCodes: z.array(z.string()) }));
export const SecondFactorBody = z.object({ code: SecondFactorCode });
export const DisableTwoFactorResponse = OkEmpty;
export const ForgetBrowsersResponse = ok(z.object({ forgotten: z.number().int() }));

/** The second step of a sign-in. */
export const LoginVerifyBody = z.object({
  code: SecondFactorCode,
  /** Skip the code on this browser for TRUST_BROWSER_DAYS days. */
  trustBrowser: z.boolean().optional().default(false),
});
export type LoginVerifyBody = z.input<typeof LoginVerifyBody>;

// ---------- e-mail and password reset ----------

export const EMAIL_VERIFY_HOURS = 24;
export const PASSWORD_RESET_MINUTES = 30;

export const Email = z
  .string({ error: '请输入邮箱地址' })
  .trim()
  .min(1, '请输入邮箱地址')
  .max(254, '邮箱地址过长')
  .pipe(z.email('邮箱地址格式不正确'));

export const EmailStatus = z.object({
  /** The verified address: password reset links go there. */
  email: z.string().nullable(),
  verifiedAt: Iso.nullable(),
  /** A new address waiting for its verification link. */
  pendingEmail: z.string().nullable(),
  pendingSentAt: Iso.nullable(),
  /** SMTP is configured: addresses can be verified and passwords reset by e-mail. */
  mailConfigured: z.boolean(),
});
export type EmailStatus = z.infer<typeof EmailStatus>;
export const EmailStatusResponse = ok(EmailStatus);
export const SetEmailBody = z.object({ email: Email });

/** The secret of a link the portal mailed (it travels in the page's #fragment, never in a logged URL). */
export const EmailToken = z.string({ error: '链接无效' }).trim().min(16, '链接无效').max(128, '链接无效');
/** A mailed sign-in link (LoginLinkSent), opened: its token. */
export const LoginLinkBody = z.object({ token: EmailToken });
export type LoginLinkBody = z.infer<typeof LoginLinkBody>;
export const EmailTokenBody = z.object({ token: EmailToken });
export const VerifyEmailResponse = ok(z.object({ email: z.string() }));

export const ForgotPasswordBody = z.object({
  /** A username or an e-mail address. */
  account: z.string({ error: '请输入用户名或邮箱' }).trim().min(1, '请输入用户名或邮箱').max(254, '输入过长'),
});
/** The same answer whether or not the account or the address exists. */
export const ForgotPasswordResponse = OkEmpty;
/** Whose password a reset link resets (for the page to show before the new password is typed). */
export const ResetCheckResponse = ok(z.object({ username: z.string() }));
export const ResetPasswordBody = z.object({
  token: EmailToken,
  newPassword: Password,
  /**
   * Also revoke every personal API token of the user: yes unless the user says no, since a reset often
   * follows a stolen password, and tokens made with it would outlive the new one.
   */
  revokeTokens: z.boolean().optional().default(true),
});
export type ResetPasswordBody = z.input<typeof ResetPasswordBody>;
export const ResetPasswordResponse = ok(z.object({ endedSessions: z.number().int(), revokedTokens: z.number().int() }));

// ---------- single sign-on ----------

export const SSO_PROVIDERS = ['cas', 'oidc'] as const;
export const SsoProvider = z.enum(SSO_PROVIDERS);
export type SsoProvider = z.infer<typeof SsoProvider>;
export const SsoProviderParams = z.object({ provider: SsoProvider });

/** Where to go after the sign-in: a same-origin path (src/contract/redirect.ts), else /home. */
export const SsoStartQuery = z.object({ redirect: z.string().max(2048).optional() });
/** What CAS sends back: the portal's state (in the service URL) and the service ticket. */
export const CasCallbackQuery = z.object({
  state: z.string().max(512).optional(),
  ticket: z.string().max(1024).optional(),
});
/** A CAS single-logout request (form-encoded, from the CAS server). */
export const CasLogoutBody = z.object({ logoutRequest: z.string().max(65_536).optional() });
/** What the OIDC provider sends back to the redirect URI. */
export const OidcCallbackQuery = z.object({
  state: z.string().max(512).optional(),
  code: z.string().max(2048).optional(),
  iss: z.string().max(2048).optional(),
  session_state: z.string().max(2048).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(2048).optional(),
});

/** An identity the identity server vouched for that no account is linked to yet. */
export const PendingIdentity = z.object({
  provider: SsoProvider,
  providerName: z.string(),
  subject: z.string(),
  displayName: z.string().nullable(),
  email: z.string().nullable(),
  /** SSO_AUTO_CREATE: a new account may be created for it. */
  canCreate: z.boolean(),
});
export type PendingIdentity = z.infer<typeof PendingIdentity>;
/** null: no identity is waiting in this browser. */
export const PendingIdentityResponse = ok(PendingIdentity.nullable());
export const PendingLinkBody = z.object({
  username: z.string({ error: '请输入用户名' }).trim().min(1, '请输入用户名').max(64, '用户名过长'),
  password: z.string({ error: '请输入密码' }).min(1, '请输入密码').max(128, '密码最多 128 个字符'),
});
export type PendingLinkBody = z.infer<typeof PendingLinkBody>;
/** Signed in, or the second factor is asked for: the login's own answer. */
export const SsoSignInResponse = ok(LoginResult);

export const LinkedIdentity = z.object({
  id: z.number().int(),
  provider: SsoProvider,
  subject: z.string(),
  displayName: z.string().nullable(),
  email: z.string().nullable(),
  createdAt: Iso,
  lastLoginAt: Iso.nullable(),
});
export type LinkedIdentity = z.infer<typeof LinkedIdentity>;
export const IdentityList = z.object({
  identities: z.array(LinkedIdentity),
  /** The local password works (it is set and not turned off): unlinking every identity is allowed. */
  passwordLogin: z.boolean(),
});
export type IdentityList = z.infer<typeof IdentityList>;
export const IdentityListResponse = ok(IdentityList);

// ---------- administrators ----------

export const AdminUserSecurity = z.object({
  twoFactorEnabled: z.boolean(),
  twoFactorEnabledAt: Iso.nullable(),
  recoveryCodesLeft: z.number().int(),
  /** A role of the user requires two-factor sign-in. */
  twoFactorRequired: z.boolean(),
  /** The local password is allowed (administrators turn it off for SSO-only users). */
  passwordLogin: z.boolean(),
  /** A usable local password is set (accounts created by SSO have none until one is set). */
  hasPassword: z.boolean(),
  email: z.string().nullable(),
  identities: z.array(LinkedIdentity),
});
export type AdminUserSecurity = z.infer<typeof AdminUserSecurity>;
export const AdminUserSecurityResponse = ok(AdminUserSecurity);
export const AdminPasswordLoginBody = z.object({ enabled: z.boolean({ error: '请选择是否允许密码登录' }) });
export const AdminLinkIdentityBody = z.object({
  provider: SsoProvider,
  subject: z.string({ error: '请输入统一身份账号' }).trim().min(1, '请输入统一身份账号').max(256, '账号过长'),
});
export type AdminLinkIdentityBody = z.infer<typeof AdminLinkIdentityBody>;
export const UserIdentityParams = IdParams.extend({ identityId: IdParams.shape.id });
