/**
 * Dev mocks of the accounts API (`npm run dev`), typed by src/contract.
 * One in-memory session: admin/admin123456 logs in; tests/mock validates every answer.
 */
import type { CurrentUser, NotSignedIn } from '../src/contract';
import { fail } from './_lib/http';
import * as userApi from '../src/contract/api/user';
import { defineMocks, on } from './_lib/endpoint';

const admin: CurrentUser = { uid: 1, username: 'admin', nickname: '管理员', avatar: null, roles: ['admin', 'njit'] };
let current: CurrentUser | null = admin;
// Failed logins within the last 15 minutes (the server throttles per username and IP).
let failedAt: number[] = [];
const WINDOW_MS = 15 * 60 * 1000;

export default defineMocks(
  // Nobody signed in is an answer (200), as the server gives it to a visitor without a session cookie.
  on(userApi.me, (_req, res) => {
    if (!current) {
      const nobody: NotSignedIn = { success: false, errorCode: 'UNAUTHORIZED', errorMessage: '请先登录', showType: 0 };
      return res.json(nobody);
    }
    res.json({ success: true, data: current });
  }),

  on(userApi.login, (req, res) => {
    const { username, password } = req.body ?? {};
    if (!username || !password) {
      return fail(res, 400, 'BAD_REQUEST', '请求参数有误', {
        ...(username ? {} : { username: ['请输入用户名'] }),
        ...(password ? {} : { password: ['请输入密码'] }),
      });
    }
    failedAt = failedAt.filter((t) => Date.now() - t < WINDOW_MS);
    if (failedAt.length >= 5) {
      res.setHeader('Retry-After', '900');
      return fail(res, 429, 'TOO_MANY_ATTEMPTS', '登录失败次数过多，请 15 分钟后再试');
    }
    // `attacked` stands for an account whose failed logins make new browsers wait: a sign-in link
    // may be on its way, whatever the password (its page: /user/loginLink#token=mock-link-token-0001).
    if (username === 'attacked') return res.json({ success: true, data: { loginLink: true, minutes: 15 } });
    if ((username !== 'admin' && username !== 'totp') || password !== 'admin123456') {
      failedAt.push(Date.now());
      return fail(res, 401, 'BAD_CREDENTIALS', '用户名或密码错误');
    }
    failedAt = [];
    // `totp` with the same password shows the second step (code 123456, mock/identity.ts).
    if (username === 'totp') return res.json({ success: true, data: { challenge: 'totp' } });
    current = admin;
    res.json({ success: true, data: admin });
  }),

  on(userApi.register, (req, res) => {
    const { username, nickname } = req.body ?? {};
    if (typeof username !== 'string' || !/^[A-Za-z0-9_-]{3,32}$/.test(username)) {
      return fail(res, 400, 'BAD_REQUEST', '请求参数有误', { username: ['用户名只能包含字母、数字、下划线和连字符'] });
    }
    if (username.toLowerCase() === 'admin') return fail(res, 409, 'USERNAME_TAKEN', '用户名已被占用');
    current = { uid: 2, username, nickname: nickname || null, avatar: null, roles: [] };
    res.json({ success: true, data: current });
  }),

  on(userApi.logout, (_req, res) => {
    current = null;
    res.json({ success: true });
  }),

  on(userApi.settings, (_req, res) => {
    res.json({
      success: true,
      data: {
        registration: 'open',
        passwordReset: true,
        sso: {
          cas: { label: '统一身份认证登录', loginUrl: '/api/user/sso/cas/login' },
          oidc: { label: '使用 OIDC 登录', loginUrl: '/api/user/sso/oidc/login' },
        },
      },
    });
  }),
);
