/**
 * Dev mocks of the user module (`npm run dev`), typed by src/contract/account.ts and
 * validating bodies with its schemas, so 400s carry the same field errors as the server.
 * The logged-in user is the mock admin (uid 1); tests/mock validates every answer.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathOf } from '../src/contract/endpoint';
import {
  AdminCreateUserBody,
  AdminResetPasswordBody,
  AdminUpdateUserBody,
  ChangePasswordBody,
  CreateTokenBody,
  DEFAULT_PREFERENCES,
  Preferences,
  UpdateProfileBody,
  type AdminUser,
  type AuditEntry,
  type SessionInfo,
  type TokenInfo,
} from '../src/contract';
import { fail, parse, type Req } from './_lib/http';
import * as userApi from '../src/contract/api/user';
import { defineMocks, on } from './_lib/endpoint';

const SELF = 1;
const now = () => new Date().toISOString();
const daysAgo = (d: number) => new Date(Date.now() - d * 86400000).toISOString();

function paged<T>(rows: T[], query: Req['query']) {
  const current = Math.max(1, Number(query?.current) || 1);
  const pageSize = Math.min(100, Math.max(1, Number(query?.pageSize) || 10));
  return {
    success: true as const,
    data: rows.slice((current - 1) * pageSize, current * pageSize),
    total: rows.length,
    current,
    pageSize,
  };
}

let users: AdminUser[] = [
  {
    uid: 1,
    username: 'admin',
    nickname: '管理员',
    avatar: null,
    roles: ['admin', 'njit'],
    status: 'active',
    createdAt: daysAgo(90),
    lastLoginAt: now(),
    activeTokens: 1,
    recentLoginFailures: 0,
  },
  {
    uid: 2,
    username: 'alice',
    nickname: '爱丽丝',
    avatar: null,
    roles: ['njit'],
    status: 'active',
    createdAt: daysAgo(30),
    lastLoginAt: daysAgo(2),
    activeTokens: 2,
    recentLoginFailures: 7,
  },
  {
    uid: 3,
    username: 'bob',
    nickname: null,
    avatar: null,
    roles: [],
    status: 'disabled',
    createdAt: daysAgo(10),
    lastLoginAt: null,
    activeTokens: 0,
    recentLoginFailures: 0,
  },
];
let nextUid = 4;
let avatarVersion = 0;

let sessions: SessionInfo[] = [
  {
    id: 1,
    userAgent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
    ip: '127.0.0.1',
    createdAt: daysAgo(1),
    lastSeenAt: now(),
    expiresAt: daysAgo(-29),
    persistent: true,
    current: true,
  },
  {
    id: 2,
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1',
    ip: '10.0.0.8',
    createdAt: daysAgo(5),
    lastSeenAt: daysAgo(1),
    expiresAt: daysAgo(-25),
    persistent: true,
    current: false,
  },
];

let tokens: TokenInfo[] = [
  {
    id: 1,
    name: 'OCS 脚本',
    prefix: 'pt_Demo0001',
    scopes: ['ocs:query'],
    createdAt: daysAgo(20),
    expiresAt: null,
    lastUsedAt: daysAgo(1),
    lastUsedIp: '10.0.0.8',
    revokedAt: null,
    status: 'active',
  },
  {
    id: 2,
    name: '旧推送',
    prefix: 'pt_Demo0002',
    scopes: ['ums:send'],
    createdAt: daysAgo(60),
    expiresAt: daysAgo(30),
    lastUsedAt: null,
    lastUsedIp: null,
    revokedAt: null,
    status: 'expired',
  },
];
let nextTokenId = 3;

const audit: AuditEntry[] = [
  {
    id: 1,
    actorId: 1,
    actorName: 'admin',
    action: 'user.update',
    targetType: 'user',
    targetId: '3',
    targetName: 'bob',
    before: { status: 'active' },
    after: { status: 'disabled' },
    ip: '127.0.0.1',
    createdAt: daysAgo(3),
  },
];
function record(action: string, target: AdminUser, before: AuditEntry['before'], after: AuditEntry['after']) {
  audit.unshift({
    id: audit.length + 1,
    actorId: SELF,
    actorName: 'admin',
    action,
    targetType: 'user',
    targetId: String(target.uid),
    targetName: target.username,
    before,
    after,
    ip: '127.0.0.1',
    createdAt: now(),
  });
}

const me = () => users.find((u) => u.uid === SELF)!;
const profile = () => {
  const { status: _s, activeTokens: _t, ...p } = me();
  return p;
};
const byId = (req: Req) => users.find((u) => u.uid === Number(req.params?.id));
const activeAdmins = () => users.filter((u) => u.status === 'active' && u.roles.includes('admin'));
const randomSecret = (n: number) =>
  Array.from(
    { length: n },
    () => 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789'[Math.floor(Math.random() * 57)],
  ).join('');

/** The mock user's preferences for the shell, kept in memory until the mock server restarts. */
let preferences: Preferences = DEFAULT_PREFERENCES;

export default defineMocks(
  on(userApi.getPreferences, (_req, res) => {
    res.json({ success: true, data: preferences });
  }),
  on(userApi.putPreferences, (req, res) => {
    const b = parse(Preferences, req.body, res);
    if (!b) return;
    preferences = b;
    res.json({ success: true, data: preferences });
  }),
  on(userApi.getProfile, (_req, res) => {
    res.json({ success: true, data: profile() });
  }),
  on(userApi.updateProfile, (req, res) => {
    const b = parse(UpdateProfileBody, req.body, res);
    if (!b) return;
    users = users.map((u) => (u.uid === SELF ? { ...u, nickname: b.nickname || null } : u));
    res.json({ success: true, data: profile() });
  }),
  // Multipart is not parsed by the mock server: any upload "succeeds", and the picture served for it
  // (below) is the default one.
  on(userApi.uploadAvatar, (_req, res) => {
    avatarVersion += 1;
    const avatar = `${pathOf(userApi.avatar, { id: SELF })}?v=${avatarVersion}`;
    users = users.map((u) => (u.uid === SELF ? { ...u, avatar } : u));
    res.json({ success: true, data: { avatar } });
  }),
  // An uploaded avatar's address (as the server gives it, /api/user/avatar/:id?v=) answers the default picture.
  on(userApi.avatar, (_req, res) => {
    res.setHeader('Content-Type', 'image/png');
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.send(fs.readFileSync(path.join(__dirname, '../public/assets/avatar/default.png')));
  }),
  on(userApi.changePassword, (req, res) => {
    const b = parse(ChangePasswordBody, req.body, res);
    if (!b) return;
    if (b.oldPassword !== 'admin123456')
      return fail(res, 400, 'WRONG_PASSWORD', '当前密码不正确', { oldPassword: ['当前密码不正确'] });
    const ended = sessions.filter((s) => !s.current).length;
    sessions = sessions.filter((s) => s.current);
    const revoked = b.revokeTokens ? tokens.filter((t) => !t.revokedAt).length : 0;
    if (b.revokeTokens) tokens = tokens.map((t) => (t.revokedAt ? t : { ...t, revokedAt: now() }));
    res.json({ success: true, data: { endedSessions: ended, revokedTokens: revoked } });
  }),
  on(userApi.listSessions, (_req, res) => {
    res.json({ success: true, data: sessions });
  }),
  on(userApi.endSession, (req, res) => {
    const target = sessions.find((s) => s.id === Number(req.params?.id));
    if (!target) return fail(res, 404, 'NOT_FOUND', '会话不存在或已结束');
    if (target.current) return fail(res, 400, 'CURRENT_SESSION', '不能结束当前会话，请使用退出登录');
    sessions = sessions.filter((s) => s !== target);
    res.json({ success: true, data: { ended: 1 } });
  }),
  on(userApi.endOtherSessions, (_req, res) => {
    const ended = sessions.filter((s) => !s.current).length;
    sessions = sessions.filter((s) => s.current);
    res.json({ success: true, data: { ended } });
  }),

  on(userApi.listTokens, (req, res) => {
    const status = req.query?.status;
    res.json(
      paged(
        tokens.filter((t) => !status || t.status === status),
        req.query,
      ),
    );
  }),
  on(userApi.createToken, (req, res) => {
    const b = parse(CreateTokenBody, req.body, res);
    if (!b) return;
    if (tokens.some((t) => t.name === b.name)) return fail(res, 409, 'TOKEN_NAME_TAKEN', '已有同名令牌，请换一个名称');
    if (tokens.filter((t) => t.status === 'active').length >= 20)
      return fail(res, 409, 'TOKEN_LIMIT', '最多只能有 20 个有效令牌，请先撤销不用的令牌');
    const token = `pt_${randomSecret(8)}_${randomSecret(32)}`;
    const info: TokenInfo = {
      id: nextTokenId++,
      name: b.name,
      prefix: token.slice(0, 11),
      scopes: b.scopes,
      createdAt: now(),
      expiresAt: b.expiresInDays ? daysAgo(-b.expiresInDays) : null,
      lastUsedAt: null,
      lastUsedIp: null,
      revokedAt: null,
      status: 'active',
    };
    tokens = [info, ...tokens];
    res.json({ success: true, data: { ...info, token } });
  }),
  on(userApi.revokeToken, (req, res) => {
    const t = tokens.find((x) => x.id === Number(req.params?.id));
    if (!t) return fail(res, 404, 'NOT_FOUND', '令牌不存在');
    const revoked: TokenInfo = t.status === 'revoked' ? t : { ...t, status: 'revoked', revokedAt: now() };
    tokens = tokens.map((x) => (x === t ? revoked : x));
    res.json({ success: true, data: revoked });
  }),

  on(userApi.adminListUsers, (req, res) => {
    const q = req.query ?? {};
    const keyword = q.keyword?.trim().toLowerCase();
    const sortBy = q.sortBy === 'lastLoginAt' ? 'lastLoginAt' : 'createdAt';
    const dir = q.order === 'ascend' ? 1 : -1;
    const rows = users
      .filter(
        (u) =>
          !keyword || u.username.toLowerCase().includes(keyword) || (u.nickname ?? '').toLowerCase().includes(keyword),
      )
      .filter((u) => !q.role || u.roles.includes(q.role as never))
      .filter((u) => !q.status || u.status === q.status)
      .sort((a, b) => dir * String(a[sortBy] ?? '').localeCompare(String(b[sortBy] ?? '')));
    res.json(paged(rows, q));
  }),
  on(userApi.adminCreateUser, (req, res) => {
    const b = parse(AdminCreateUserBody, req.body, res);
    if (!b) return;
    if (users.some((u) => u.username.toLowerCase() === b.username.toLowerCase())) {
      return fail(res, 409, 'USERNAME_TAKEN', '用户名已被占用', { username: ['用户名已被占用'] });
    }
    const user: AdminUser = {
      uid: nextUid++,
      username: b.username,
      nickname: b.nickname || null,
      avatar: null,
      roles: b.roles,
      status: 'active',
      createdAt: now(),
      lastLoginAt: null,
      activeTokens: 0,
      recentLoginFailures: 0,
    };
    users = [...users, user];
    record('user.create', user, null, { username: user.username, nickname: user.nickname, roles: user.roles });
    res.json({
      success: true,
      data: { ...user, ...(b.generatePassword ? { generatedPassword: randomSecret(16) } : {}) },
    });
  }),
  on(userApi.adminGetUser, (req, res) => {
    const user = byId(req);
    if (!user) return fail(res, 404, 'NOT_FOUND', '用户不存在');
    res.json({ success: true, data: user });
  }),
  on(userApi.adminUpdateUser, (req, res) => {
    const user = byId(req);
    if (!user) return fail(res, 404, 'NOT_FOUND', '用户不存在');
    const b = parse(AdminUpdateUserBody, req.body, res);
    if (!b) return;
    const next: AdminUser = { ...user, ...b, nickname: b.nickname === undefined ? user.nickname : b.nickname || null };
    if (user.uid === SELF && (!next.roles.includes('admin') || next.status !== 'active')) {
      return fail(res, 403, 'SELF_PROTECTED', '不能移除自己的管理员角色或停用自己');
    }
    const losesAdmin =
      user.roles.includes('admin') &&
      user.status === 'active' &&
      (!next.roles.includes('admin') || next.status !== 'active');
    if (losesAdmin && activeAdmins().length <= 1)
      return fail(res, 409, 'LAST_ADMIN', '这是最后一个有效的管理员，不能移除');
    const endedSessions = user.status === 'active' && next.status === 'disabled' ? 1 : 0;
    users = users.map((u) => (u === user ? next : u));
    record(
      'user.update',
      user,
      { nickname: user.nickname, roles: user.roles, status: user.status },
      { nickname: next.nickname, roles: next.roles, status: next.status },
    );
    res.json({ success: true, data: { ...next, endedSessions } });
  }),
  on(userApi.adminResetPassword, (req, res) => {
    const user = byId(req);
    if (!user) return fail(res, 404, 'NOT_FOUND', '用户不存在');
    const b = parse(AdminResetPasswordBody, req.body, res);
    if (!b) return;
    const revokedTokens = b.revokeTokens ? user.activeTokens : 0;
    users = users.map((u) => (u === user && b.revokeTokens ? { ...u, activeTokens: 0 } : u));
    record('user.reset_password', user, null, { generatedPassword: b.generatePassword, revokedTokens });
    res.json({
      success: true,
      data: { endedSessions: 1, revokedTokens, ...(b.generatePassword ? { generatedPassword: randomSecret(16) } : {}) },
    });
  }),
  on(userApi.adminRevokeTokens, (req, res) => {
    const user = byId(req);
    if (!user) return fail(res, 404, 'NOT_FOUND', '用户不存在');
    const revokedTokens = user.activeTokens;
    users = users.map((u) => (u === user ? { ...u, activeTokens: 0 } : u));
    record('user.revoke_tokens', user, null, { revokedTokens });
    res.json({ success: true, data: { revokedTokens } });
  }),
  on(userApi.adminUnlockLogin, (req, res) => {
    const user = byId(req);
    if (!user) return fail(res, 404, 'NOT_FOUND', '用户不存在');
    const clearedFailures = user.recentLoginFailures;
    users = users.map((u) => (u === user ? { ...u, recentLoginFailures: 0 } : u));
    record('user.unlock_login', user, null, { clearedFailures });
    res.json({ success: true, data: { clearedFailures } });
  }),
  on(userApi.adminDeleteUser, (req, res) => {
    const user = byId(req);
    if (!user) return fail(res, 404, 'NOT_FOUND', '用户不存在');
    if (req.body?.confirm !== user.username)
      return fail(res, 400, 'CONFIRM_MISMATCH', '确认的用户名不一致', { confirm: ['请输入该用户的用户名以确认'] });
    if (user.uid === SELF) return fail(res, 403, 'SELF_PROTECTED', '不能删除自己');
    if (user.roles.includes('admin') && user.status === 'active' && activeAdmins().length <= 1)
      return fail(res, 409, 'LAST_ADMIN', '这是最后一个有效的管理员，不能删除');
    users = users.filter((u) => u !== user);
    record('user.delete', user, { username: user.username, roles: user.roles }, null);
    res.json({ success: true });
  }),
  on(userApi.adminAudit, (req, res) => {
    const q = req.query ?? {};
    const rows = audit.filter(
      (a) => (!q.targetId || a.targetId === q.targetId) && (!q.action || a.action === q.action),
    );
    res.json(paged(rows, q));
  }),
);
