/**
 * Why a CAS or OIDC sign-in failed. The server sends the browser back to the login page (or to the
 * security page, for a link) with `?sso_error=<code>`; the page shows the Chinese text. Codes, not
 * texts, travel in the URL, so nobody can make the page show a message of their choosing. No zod and no
 * imports: the login page imports this.
 */
export const SSO_ERRORS = {
  state: '登录请求已失效或无法确认来自本浏览器，请重新登录',
  ticket: '统一身份认证的登录凭据无效、已使用或已过期，请重新登录',
  unreachable: '暂时无法连接身份认证服务器，请稍后再试，或使用账号密码登录',
  denied: '身份认证服务器拒绝了这次登录',
  disabled: '该账号已被停用，请联系管理员',
  conflict: '这个统一身份已关联到其他账号',
  taken: '你的账号已关联了另一个该类型的统一身份，请先解除原有关联',
  not_configured: '门户未配置该登录方式',
  failed: '统一身份认证登录失败，请稍后再试',
} as const;

export type SsoErrorCode = keyof typeof SSO_ERRORS;

/** The message for a `sso_error` query value; unknown values get the general one. */
export function ssoErrorMessage(code: string | null | undefined): string | undefined {
  if (!code) return undefined;
  return Object.prototype.hasOwnProperty.call(SSO_ERRORS, code) ? SSO_ERRORS[code as SsoErrorCode] : SSO_ERRORS.failed;
}

/** The identity servers the portal can use, and how the UI names them. */
export const SSO_PROVIDER_NAMES = { cas: '统一身份认证（CAS）', oidc: 'OIDC' } as const;
