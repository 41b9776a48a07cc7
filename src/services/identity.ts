/**
 * Typed client of institutional sign-in (src/contract/api/identity.ts): the login's second step,
 * two-factor set-up, the e-mail address, password reset, SSO (pending identities, linked identities)
 * and the administrators' side. The SSO redirects are plain links (ssoLoginUrl, ssoLinkUrl).
 */
import * as api from '@/contract/api/identity';
import type { AnswerOf } from '@/contract/endpoint';
// Type-only imports: the schemas stay out of the bundle.
import type {
  AdminLinkIdentityBody,
  LoginVerifyBody,
  PendingLinkBody,
  ResetPasswordBody,
  SsoProvider,
} from '@/contract';
import type { RequestOptions } from '@umijs/max';
import { call } from './call';
import { urlOf } from './url';

export type TwoFactorStatusAnswer = AnswerOf<typeof api.twoFactorStatus>;
export type TwoFactorSetupAnswer = AnswerOf<typeof api.twoFactorSetup>;
export type RecoveryCodesAnswer = AnswerOf<typeof api.twoFactorEnable>;
export type EmailStatusAnswer = AnswerOf<typeof api.emailStatus>;
export type IdentityListAnswer = AnswerOf<typeof api.listIdentities>;
export type PendingIdentityAnswer = AnswerOf<typeof api.ssoPending>;
export type SsoSignInAnswer = AnswerOf<typeof api.ssoPendingLink>;
export type AdminUserSecurityAnswer = AnswerOf<typeof api.adminUserSecurity>;

// ---------- signing in ----------

/** The second step: the code from the authenticator app or a recovery code. */
export const loginVerify = (body: LoginVerifyBody, options?: RequestOptions) =>
  call(api.loginVerify, { body }, options);

/** Where the browser goes to sign in through CAS or OIDC (the server redirects onwards). */
export const ssoLoginUrl = (provider: SsoProvider, redirect?: string) =>
  urlOf(api.ssoLogin, { params: { provider }, query: { redirect } });

/** Where the browser goes to link a CAS or OIDC identity to the signed-in account. */
export const ssoLinkUrl = (provider: SsoProvider) => urlOf(api.ssoLink, { params: { provider } });

export const fetchPendingIdentity = (options?: RequestOptions) => call(api.ssoPending, {}, options);

export const linkPendingIdentity = (body: PendingLinkBody, options?: RequestOptions) =>
  call(api.ssoPendingLink, { body }, options);

export const createForPendingIdentity = (options?: RequestOptions) => call(api.ssoPendingCreate, {}, options);

// ---------- two-factor set-up ----------

export const fetchTwoFactor = (options?: RequestOptions) => call(api.twoFactorStatus, {}, options);

export const startTwoFactorSetup = (options?: RequestOptions) => call(api.twoFactorSetup, {}, options);

export const enableTwoFactor = (code: string, options?: RequestOptions) =>
  call(api.twoFactorEnable, { body: { code } }, options);

export const disableTwoFactor = (code: string, options?: RequestOptions) =>
  call(api.twoFactorDisable, { body: { code } }, options);

export const regenerateRecoveryCodes = (code: string, options?: RequestOptions) =>
  call(api.twoFactorRecoveryCodes, { body: { code } }, options);

export const forgetTrustedBrowsers = (options?: RequestOptions) => call(api.twoFactorForgetBrowsers, {}, options);

// ---------- e-mail and password reset ----------

export const fetchEmail = (options?: RequestOptions) => call(api.emailStatus, {}, options);

export const setEmail = (email: string, options?: RequestOptions) => call(api.setEmail, { body: { email } }, options);

export const removeEmail = (options?: RequestOptions) => call(api.removeEmail, {}, options);

export const verifyEmail = (token: string, options?: RequestOptions) =>
  call(api.verifyEmail, { body: { token } }, options);

export const forgotPassword = (account: string, options?: RequestOptions) =>
  call(api.forgotPassword, { body: { account } }, options);

export const checkPasswordReset = (token: string, options?: RequestOptions) =>
  call(api.checkPasswordReset, { body: { token } }, options);

export const resetPassword = (body: ResetPasswordBody, options?: RequestOptions) =>
  call(api.resetPassword, { body }, options);

export const loginWithLink = (token: string, options?: RequestOptions) =>
  call(api.loginWithLink, { body: { token } }, options);

// ---------- linked identities ----------

export const fetchIdentities = (options?: RequestOptions) => call(api.listIdentities, {}, options);

export const unlinkIdentity = (id: number, options?: RequestOptions) =>
  call(api.unlinkIdentity, { params: { id } }, options);

// ---------- administrators ----------

export const fetchUserSecurity = (uid: number, options?: RequestOptions) =>
  call(api.adminUserSecurity, { params: { id: uid } }, options);

export const adminResetTwoFactor = (uid: number, options?: RequestOptions) =>
  call(api.adminResetTwoFactor, { params: { id: uid } }, options);

export const adminSetPasswordLogin = (uid: number, enabled: boolean, options?: RequestOptions) =>
  call(api.adminSetPasswordLogin, { params: { id: uid }, body: { enabled } }, options);

export const adminLinkIdentity = (uid: number, body: AdminLinkIdentityBody, options?: RequestOptions) =>
  call(api.adminLinkIdentity, { params: { id: uid }, body }, options);

export const adminUnlinkIdentity = (uid: number, identityId: number, options?: RequestOptions) =>
  call(api.adminUnlinkIdentity, { params: { id: uid, identityId } }, options);
