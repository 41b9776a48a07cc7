/**
 * The account endpoints the shell and the sign-in pages need before anything else: the public settings,
 * the current user, register, login, logout and the shell's preferences. They live apart from the rest of
 * the user endpoints so that the code every first visit downloads (umi.js and the login page) carries
 * these seven descriptors, not all thirty of the personal centre and user administration. user.ts
 * re-exports them: the contract's index and the server see one user module.
 */
import { endpoint } from '../endpoint';

const tags = ['user'];

/** Public: is registration open? */
export const settings = endpoint({
  method: 'GET',
  path: '/api/user/settings',
  access: 'public',
  tags,
  summary: '公开的账号设置',
  schema: (c) => ({ response: c.AuthSettings }),
});

/**
 * Public: a visitor without a session cookie gets `{ success: false, errorCode: 'UNAUTHORIZED' }` with
 * HTTP 200; a session cookie that names no live session (the session ended) gets 401.
 */
export const me = endpoint({
  method: 'GET',
  path: '/api/user/me',
  access: 'public',
  tags,
  summary: '当前用户',
  schema: (c) => ({ response: c.MeResponse }),
});

/** Creates the account and logs it in. */
export const register = endpoint({
  method: 'POST',
  path: '/api/user/register',
  access: 'public',
  tags,
  summary: '注册',
  schema: (c) => ({ body: c.RegisterBody, response: c.RegisterResponse }),
});

/** Sets the session cookie. */
export const login = endpoint({
  method: 'POST',
  path: '/api/user/login',
  access: 'public',
  tags,
  summary: '登录',
  schema: (c) => ({ body: c.LoginBody, response: c.PasswordLoginResponse }),
});

/** Deletes the server-side session. */
export const logout = endpoint({
  method: 'POST',
  path: '/api/user/logout',
  access: 'user',
  tags,
  summary: '退出登录',
  schema: (c) => ({ response: c.LogoutResponse }),
});

/** The signed-in user's preferences for the shell (theme, primary colour, side menu); defaults until first saved. */
export const getPreferences = endpoint({
  method: 'GET',
  path: '/api/user/preferences',
  access: 'user',
  tags,
  summary: '我的偏好设置',
  schema: (c) => ({ response: c.PreferencesResponse }),
});

/** Replaces them whole: every field, no other. */
export const putPreferences = endpoint({
  method: 'PUT',
  path: '/api/user/preferences',
  access: 'user',
  tags,
  summary: '保存偏好设置',
  schema: (c) => ({ body: c.Preferences, response: c.PreferencesResponse }),
});
