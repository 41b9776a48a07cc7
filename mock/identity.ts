/**
 * Dev mocks of institutional sign-in (`npm run dev`), typed by src/contract/identity.ts. The mock user
 * is the admin of mock/user.ts. Codes that work: TOTP `123456`, recovery code `abcd-efgh-jkmn`; mailed
 * links use the token `mock-link-token-0001`. "Signing in" with CAS or OIDC leads to the page that links
 * an unlinked identity; the identity password there is admin123456. tests/mock validates every answer.
 */
import {
  AdminLinkIdentityBody,
  AdminPasswordLoginBody,
  EmailTokenBody,
  EnableTwoFactorBody,
  ForgotPasswordBody,
  LoginVerifyBody,
  PendingLinkBody,
  ResetPasswordBody,
  SecondFactorBody,
  SetEmailBody,
  type AdminUserSecurity,
  type CurrentUser,
  type EmailStatus,
  type LinkedIdentity,
  type PendingIdentity,
} from '../src/contract';
import * as api from '../src/contract/api/identity';
import { fail, parse, type Res } from './_lib/http';
import { defineMocks, on } from './_lib/endpoint';

const TOTP = '123456';
const RECOVERY = 'abcd-efgh-jkmn';
const LINK_TOKEN = 'mock-link-token-0001';
const PASSWORD = 'admin123456';
const now = () => new Date().toISOString();
const admin: CurrentUser = { uid: 1, username: 'admin', nickname: '管理员', avatar: null, roles: ['admin', 'njit'] };
/** A 1×1 PNG: the mock's "QR code". */
const PIXEL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

let twoFactor = { enabled: false, enabledAt: null as string | null, recoveryCodesLeft: 0, trustedBrowsers: 0 };
let email: EmailStatus = {
  email: 'admin@example.edu',
  verifiedAt: now(),
  pendingEmail: null,
  pendingSentAt: null,
  mailConfigured: true,
};
let identities: LinkedIdentity[] = [
  {
    id: 1,
    provider: 'cas',
    subject: '2021001',
    displayName: '管理员',
    email: null,
    createdAt: now(),
    lastLoginAt: now(),
  },
];
let nextIdentity = 2;
let pending: PendingIdentity | null = null;
let resetUsed = false;
let loginLinkUsed = false;
let adminPasswordLogin = true;
const security = (): AdminUserSecurity => ({
  twoFactorEnabled: twoFactor.enabled,
  twoFactorEnabledAt: twoFactor.enabledAt,
  recoveryCodesLeft: twoFactor.recoveryCodesLeft,
  twoFactorRequired: false,
  passwordLogin: adminPasswordLogin,
  hasPassword: true,
  email: email.email,
  identities,
});

const recoveryCodes = () => Array.from({ length: 10 }, (_, i) => `abcd-efgh-${String(i).padStart(4, 'k')}`);
const badCode = (res: Res) => fail(res, 400, 'BAD_REQUEST', '验证码或恢复码不正确', { code: ['验证码或恢复码不正确'] });
const redirect = (res: Res, location: string) => {
  res.status(302);
  res.setHeader('Location', location);
  res.send('');
};

export default defineMocks(
  on(api.loginVerify, (req, res) => {
    const b = parse(LoginVerifyBody, req.body, res);
    if (!b) return;
    if (b.code !== TOTP && b.code !== RECOVERY) return fail(res, 401, 'UNAUTHORIZED', '验证码不正确，还可以再试 4 次');
    res.json({ success: true, data: admin });
  }),

  on(api.twoFactorStatus, (_req, res) => res.json({ success: true, data: { ...twoFactor, required: false } })),
  on(api.twoFactorSetup, (_req, res) => {
    if (twoFactor.enabled) return fail(res, 409, 'CONFLICT', '两步验证已经开启；如需更换手机，请先关闭再重新设置');
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    res.json({
      success: true,
      data: { secret, otpauthUrl: `otpauth://totp/portal:admin?secret=${secret}&issuer=portal`, qrDataUrl: PIXEL },
    });
  }),
  on(api.twoFactorEnable, (req, res) => {
    const b = parse(EnableTwoFactorBody, req.body, res);
    if (!b) return;
    if (b.code !== TOTP) return fail(res, 400, 'BAD_REQUEST', '验证码不正确', { code: ['验证码不正确'] });
    twoFactor = { enabled: true, enabledAt: now(), recoveryCodesLeft: 10, trustedBrowsers: 0 };
    res.json({ success: true, data: { recoveryCodes: recoveryCodes() } });
  }),
  on(api.twoFactorDisable, (req, res) => {
    const b = parse(SecondFactorBody, req.body, res);
    if (!b) return;
    if (b.code !== TOTP && b.code !== RECOVERY) return badCode(res);
    twoFactor = { enabled: false, enabledAt: null, recoveryCodesLeft: 0, trustedBrowsers: 0 };
    res.json({ success: true });
  }),
  on(api.twoFactorRecoveryCodes, (req, res) => {
    const b = parse(SecondFactorBody, req.body, res);
    if (!b) return;
    if (b.code !== TOTP && b.code !== RECOVERY) return badCode(res);
    twoFactor = { ...twoFactor, recoveryCodesLeft: 10 };
    res.json({ success: true, data: { recoveryCodes: recoveryCodes() } });
  }),
  on(api.twoFactorForgetBrowsers, (_req, res) => {
    const forgotten = twoFactor.trustedBrowsers;
    twoFactor = { ...twoFactor, trustedBrowsers: 0 };
    res.json({ success: true, data: { forgotten } });
  }),

  on(api.emailStatus, (_req, res) => res.json({ success: true, data: email })),
  on(api.setEmail, (req, res) => {
    const b = parse(SetEmailBody, req.body, res);
    if (!b) return;
    if (b.email.toLowerCase() === 'taken@example.edu') {
      return fail(res, 409, 'CONFLICT', '该邮箱已被其他账号使用', { email: ['该邮箱已被其他账号使用'] });
    }
    email = { ...email, pendingEmail: b.email, pendingSentAt: now() };
    res.json({ success: true, data: email });
  }),
  on(api.removeEmail, (_req, res) => {
    email = { ...email, email: null, verifiedAt: null, pendingEmail: null, pendingSentAt: null };
    res.json({ success: true, data: email });
  }),
  on(api.verifyEmail, (req, res) => {
    const b = parse(EmailTokenBody, req.body, res);
    if (!b) return;
    if (b.token !== LINK_TOKEN || !email.pendingEmail) {
      return fail(res, 400, 'BAD_REQUEST', '验证链接无效、已使用或已过期，请在个人中心重新发送验证邮件', {
        token: ['链接无效'],
      });
    }
    email = { ...email, email: email.pendingEmail, verifiedAt: now(), pendingEmail: null, pendingSentAt: null };
    res.json({ success: true, data: { email: email.email! } });
  }),

  on(api.forgotPassword, (req, res) => {
    if (!parse(ForgotPasswordBody, req.body, res)) return;
    res.json({ success: true });
  }),
  on(api.checkPasswordReset, (req, res) => {
    const b = parse(EmailTokenBody, req.body, res);
    if (!b) return;
    if (b.token !== LINK_TOKEN || resetUsed) {
      return fail(res, 400, 'BAD_REQUEST', '重置链接无效、已使用或已过期，请重新申请', { token: ['重置链接无效'] });
    }
    res.json({ success: true, data: { username: 'admin' } });
  }),
  on(api.resetPassword, (req, res) => {
    const b = parse(ResetPasswordBody, req.body, res);
    if (!b) return;
    if (b.token !== LINK_TOKEN || resetUsed) {
      return fail(res, 400, 'BAD_REQUEST', '重置链接无效、已使用或已过期，请重新申请', { token: ['重置链接无效'] });
    }
    resetUsed = true;
    res.json({ success: true, data: { endedSessions: 2, revokedTokens: b.revokeTokens ? 1 : 0 } });
  }),

  on(api.loginWithLink, (req, res) => {
    const b = parse(EmailTokenBody, req.body, res);
    if (!b) return;
    if (b.token !== LINK_TOKEN || loginLinkUsed) {
      return fail(res, 400, 'BAD_REQUEST', '登录链接无效、已使用或已过期，请重新登录', { token: ['登录链接无效'] });
    }
    loginLinkUsed = true;
    res.json({
      success: true,
      data: { uid: 1, username: 'admin', nickname: '管理员', avatar: null, roles: ['admin'] },
    });
  }),

  on(api.ssoLogin, (req, res) => {
    pending = {
      provider: req.params?.provider === 'oidc' ? 'oidc' : 'cas',
      providerName: req.params?.provider === 'oidc' ? '使用 OIDC 登录' : '统一身份认证登录',
      subject: '2021009',
      displayName: '张三',
      email: null,
      canCreate: true,
    };
    redirect(res, '/user/ssoBind');
  }),
  on(api.ssoLink, (_req, res) => redirect(res, '/user/security?linked=1')),
  on(api.casCallback, (_req, res) => redirect(res, '/home')),
  on(api.oidcCallback, (_req, res) => redirect(res, '/home')),
  on(api.casLogout, (_req, res) => res.json({ success: true })),
  on(api.ssoPending, (_req, res) => res.json({ success: true, data: pending })),
  on(api.ssoPendingLink, (req, res) => {
    const b = parse(PendingLinkBody, req.body, res);
    if (!b) return;
    if (!pending) return fail(res, 401, 'SSO_PENDING_EXPIRED', '统一身份认证已过期，请重新点击统一身份认证登录');
    if (b.username !== 'admin' || b.password !== PASSWORD) return fail(res, 401, 'UNAUTHORIZED', '用户名或密码错误');
    pending = null;
    res.json({ success: true, data: admin });
  }),
  on(api.ssoPendingCreate, (_req, res) => {
    if (!pending) return fail(res, 401, 'SSO_PENDING_EXPIRED', '统一身份认证已过期，请重新点击统一身份认证登录');
    pending = null;
    res.json({ success: true, data: { uid: 9, username: '2021009', nickname: '张三', avatar: null, roles: [] } });
  }),
  on(api.listIdentities, (_req, res) => res.json({ success: true, data: { identities, passwordLogin: true } })),
  on(api.unlinkIdentity, (req, res) => {
    const id = Number(req.params?.id);
    if (!identities.some((i) => i.id === id)) return fail(res, 404, 'NOT_FOUND', '该统一身份不存在或已解除关联');
    identities = identities.filter((i) => i.id !== id);
    res.json({ success: true, data: { identities, passwordLogin: true } });
  }),

  on(api.adminUserSecurity, (req, res) => {
    if (Number(req.params?.id) > 3) return fail(res, 404, 'NOT_FOUND', '用户不存在');
    res.json({ success: true, data: security() });
  }),
  on(api.adminResetTwoFactor, (_req, res) => {
    twoFactor = { enabled: false, enabledAt: null, recoveryCodesLeft: 0, trustedBrowsers: 0 };
    res.json({ success: true, data: security() });
  }),
  on(api.adminSetPasswordLogin, (req, res) => {
    const b = parse(AdminPasswordLoginBody, req.body, res);
    if (!b) return;
    if (!b.enabled && identities.length === 0) {
      return fail(res, 409, 'CONFLICT', '该用户没有关联统一身份，停用密码登录后将无法登录');
    }
    adminPasswordLogin = b.enabled;
    res.json({ success: true, data: security() });
  }),
  on(api.adminLinkIdentity, (req, res) => {
    const b = parse(AdminLinkIdentityBody, req.body, res);
    if (!b) return;
    if (identities.some((i) => i.provider === b.provider && i.subject === b.subject)) {
      return fail(res, 409, 'IDENTITY_CONFLICT', '这个统一身份已关联到其他账号');
    }
    identities = [
      ...identities,
      {
        id: nextIdentity++,
        provider: b.provider,
        subject: b.subject,
        displayName: null,
        email: null,
        createdAt: now(),
        lastLoginAt: null,
      },
    ];
    res.json({ success: true, data: security() });
  }),
  on(api.adminUnlinkIdentity, (req, res) => {
    const id = Number(req.params?.identityId);
    if (!identities.some((i) => i.id === id)) return fail(res, 404, 'NOT_FOUND', '该统一身份不存在或已解除关联');
    identities = identities.filter((i) => i.id !== id);
    res.json({ success: true, data: security() });
  }),
);
