/**
 * Every umi dev mock answers with the same shapes the server promises (src/contract).
 * A mock route without an entry in CASES fails this test.
 */
import fs from 'fs';
import path from 'path';
import type { z } from 'zod';
import {
  AdminCreateUserResponse,
  AdminDeleteUserResponse,
  AdminResetPasswordResponse,
  AdminUpdateUserResponse,
  AdminUserListResponse,
  AdminUserResponse,
  AuditListResponse,
  AuthSettings,
  AvatarResponse,
  ChangePasswordResponse,
  CreateTokenResponse,
  EndSessionsResponse,
  ErrorEnvelope,
  Health,
  LoginResponse,
  LogoutResponse,
  MeResponse,
  ProfileResponse,
  RegisterResponse,
  RevokeTokenResponse,
  SessionListResponse,
  TokenListResponse,
} from '@/contract';
import {
  ChannelListResponse as UmsChannelListResponse,
  ChannelResponse as UmsChannelResponse,
  ChannelTestResponse as UmsChannelTestResponse,
  DeleteChannelResponse as UmsDeleteChannelResponse,
  MessageActionResponse as UmsMessageActionResponse,
  MessageCreatedResponse as UmsMessageCreatedResponse,
  MessageDetailResponse as UmsMessageDetailResponse,
  MessageListResponse as UmsMessageListResponse,
  UmsStatsResponse,
} from '@/contract';

import {
  ImportCommitResponse as NjitImportCommitResponse,
  ImportListResponse as NjitImportListResponse,
  ImportPreviewResponse as NjitImportPreviewResponse,
  NjitAuditListResponse,
  NjitOptionsResponse,
  NjitOverviewResponse,
  RevealResponse as NjitRevealResponse,
  StudentResponse as NjitStudentResponse,
  StudentSearchResponse as NjitStudentSearchResponse,
} from '@/contract';

interface Case {
  schema: z.ZodTypeAny;
  /** Requests to replay, in order, with the status each must get. */
  calls: { body?: unknown; params?: Record<string, string>; query?: Record<string, string>; status: number; error?: boolean; retryAfter?: boolean }[];
}

const CASES: Record<string, Case> = {
  'GET /api/user/me': { schema: MeResponse, calls: [{ status: 200 }] },
  'POST /api/user/login': {
    schema: LoginResponse,
    calls: [
      { body: { username: 'admin', password: 'admin123456' }, status: 200 },
      { body: { username: 'admin', password: 'wrong' }, status: 401, error: true },
      { body: { username: '' }, status: 400, error: true },
    ],
  },
  'POST /api/user/register': {
    schema: RegisterResponse,
    calls: [
      { body: { username: 'admin', password: 'password123' }, status: 409, error: true },
      { body: { username: 'a b', password: 'password123' }, status: 400, error: true },
      { body: { username: 'newbie', password: 'password123', nickname: '新人' }, status: 200 },
    ],
  },
  'POST /api/user/logout': { schema: LogoutResponse, calls: [{ status: 200 }] },
  'GET /api/user/settings': { schema: AuthSettings, calls: [{ status: 200 }] },
  'GET /api/health': { schema: Health, calls: [{ status: 200 }] },

  // ---- user module (mock/account.ts) ----
  'GET /api/user/profile': { schema: ProfileResponse, calls: [{ status: 200 }] },
  'PATCH /api/user/profile': {
    schema: ProfileResponse,
    calls: [
      { body: { nickname: '新昵称' }, status: 200 },
      { body: { nickname: 'x'.repeat(33) }, status: 400, error: true },
    ],
  },
  'POST /api/user/avatar': { schema: AvatarResponse, calls: [{ status: 200 }] },
  'POST /api/user/password': {
    schema: ChangePasswordResponse,
    calls: [
      { body: { oldPassword: 'wrong-one', newPassword: 'password123' }, status: 400, error: true },
      { body: { oldPassword: 'admin123456', newPassword: 'short' }, status: 400, error: true },
      { body: { oldPassword: 'admin123456', newPassword: 'password123' }, status: 200 },
    ],
  },
  'GET /api/user/sessions': { schema: SessionListResponse, calls: [{ status: 200 }] },
  'DELETE /api/user/sessions/:id': {
    schema: EndSessionsResponse,
    calls: [
      { params: { id: '1' }, status: 400, error: true },
      { params: { id: '999' }, status: 404, error: true },
    ],
  },
  'POST /api/user/sessions/end-others': { schema: EndSessionsResponse, calls: [{ status: 200 }] },
  'GET /api/user/tokens': {
    schema: TokenListResponse,
    calls: [{ status: 200 }, { query: { current: '1', pageSize: '10', status: 'expired' }, status: 200 }],
  },
  'POST /api/user/tokens': {
    schema: CreateTokenResponse,
    calls: [
      { body: { name: '测试令牌', scopes: ['ocs:query'], expiresInDays: 30 }, status: 200 },
      { body: { name: '测试令牌', scopes: ['ums:send'], expiresInDays: null }, status: 409, error: true },
      { body: { name: '', scopes: [], expiresInDays: 5 }, status: 400, error: true },
    ],
  },
  'POST /api/user/tokens/:id/revoke': {
    schema: RevokeTokenResponse,
    calls: [
      { params: { id: '1' }, status: 200 },
      { params: { id: '999' }, status: 404, error: true },
    ],
  },
  'GET /api/user/admin/users': {
    schema: AdminUserListResponse,
    calls: [
      { status: 200 },
      { query: { current: '1', pageSize: '10', keyword: 'ali', role: 'njit', status: 'active', sortBy: 'lastLoginAt', order: 'ascend' }, status: 200 },
    ],
  },
  'POST /api/user/admin/users': {
    schema: AdminCreateUserResponse,
    calls: [
      { body: { username: 'carol', generatePassword: true, roles: ['njit'] }, status: 200 },
      { body: { username: 'dave', password: 'password123', nickname: '戴夫' }, status: 200 },
      { body: { username: 'Carol', password: 'password123' }, status: 409, error: true },
      { body: { username: 'eve' }, status: 400, error: true },
    ],
  },
  'GET /api/user/admin/users/:id': {
    schema: AdminUserResponse,
    calls: [
      { params: { id: '2' }, status: 200 },
      { params: { id: '999' }, status: 404, error: true },
    ],
  },
  'PATCH /api/user/admin/users/:id': {
    schema: AdminUpdateUserResponse,
    calls: [
      { params: { id: '2' }, body: { nickname: null, status: 'disabled' }, status: 200 },
      { params: { id: '1' }, body: { roles: ['njit'] }, status: 403, error: true },
      { params: { id: '2' }, body: {}, status: 400, error: true },
    ],
  },
  'POST /api/user/admin/users/:id/reset-password': {
    schema: AdminResetPasswordResponse,
    calls: [
      { params: { id: '2' }, body: { generatePassword: true }, status: 200 },
      { params: { id: '2' }, body: { password: 'password123' }, status: 200 },
      { params: { id: '2' }, body: {}, status: 400, error: true },
    ],
  },
  'DELETE /api/user/admin/users/:id': {
    schema: AdminDeleteUserResponse,
    calls: [
      { params: { id: '3' }, body: { confirm: 'bo' }, status: 400, error: true },
      { params: { id: '1' }, body: { confirm: 'admin' }, status: 403, error: true },
      { params: { id: '3' }, body: { confirm: 'bob' }, status: 200 },
    ],
  },
  'GET /api/user/admin/audit': {
    schema: AuditListResponse,
    calls: [{ status: 200 }, { query: { targetId: '3', action: 'user.delete' }, status: 200 }],
  },

  // ---- UMS (mock/ums.ts); order matters: channel 2 is tested, then deleted ----
  'GET /api/ums/channels': { schema: UmsChannelListResponse, calls: [{ status: 200 }] },
  'POST /api/ums/channels': {
    schema: UmsChannelResponse,
    calls: [
      { body: { name: '新群', webhook: 'https://oapi.dingtalk.com/robot/send?access_token=abcdef0123456789abcd', secret: 'SECabc123def456', isDefault: false }, status: 200 },
      { body: { name: '坏地址', webhook: 'https://example.com/hook' }, status: 400, error: true },
      { body: { name: '', webhook: '' }, status: 400, error: true },
    ],
  },
  'PATCH /api/ums/channels/:id': {
    schema: UmsChannelResponse,
    calls: [
      { params: { id: '1' }, body: { secret: '', keyword: '提醒' }, status: 200 },
      { params: { id: '1' }, body: { secret: 'not-sec' }, status: 400, error: true },
      { params: { id: '999' }, body: { name: 'x' }, status: 404, error: true },
    ],
  },
  'POST /api/ums/channels/:id/test': {
    schema: UmsChannelTestResponse,
    calls: [
      { params: { id: '1' }, status: 200 },
      { params: { id: '2' }, status: 200 },
      { params: { id: '999' }, status: 404, error: true },
    ],
  },
  'DELETE /api/ums/channels/:id': {
    schema: UmsDeleteChannelResponse,
    calls: [
      { params: { id: '1' }, status: 409, error: true },
      { params: { id: '2' }, status: 200 },
      { params: { id: '999' }, status: 404, error: true },
    ],
  },
  'POST /api/ums/messages': {
    schema: UmsMessageCreatedResponse,
    calls: [
      { body: { title: '测试', content: '**你好**' }, status: 200 },
      { body: { content: '中'.repeat(6667) }, status: 400, error: true },
      { body: { content: '' }, status: 400, error: true },
      { body: { content: '你好', channel: 999 }, status: 400, error: true },
    ],
  },
  'GET /api/ums/messages': {
    schema: UmsMessageListResponse,
    calls: [{ status: 200 }, { query: { current: '1', pageSize: '5', status: 'failed', keyword: '告警', from: '2020-01-01T00:00:00Z' }, status: 200 }],
  },
  'GET /api/ums/messages/:id': {
    schema: UmsMessageDetailResponse,
    calls: [
      { params: { id: '2' }, status: 200 },
      { params: { id: '999' }, status: 404, error: true },
    ],
  },
  'POST /api/ums/messages/:id/resend': {
    schema: UmsMessageActionResponse,
    calls: [
      { params: { id: '2' }, status: 200 },
      { params: { id: '1' }, status: 409, error: true },
    ],
  },
  'POST /api/ums/messages/:id/cancel': {
    schema: UmsMessageActionResponse,
    calls: [
      { params: { id: '4' }, status: 200 },
      { params: { id: '1' }, status: 409, error: true },
    ],
  },
  'GET /api/ums/stats': { schema: UmsStatsResponse, calls: [{ status: 200 }] },
  'GET /api/ums/send': {
    schema: UmsMessageCreatedResponse,
    calls: [
      { query: { token: 'pt_x', title: '构建完成', content: '全部测试通过' }, status: 200 },
      { query: { content: '没有令牌' }, status: 401, error: true },
    ],
  },
  'POST /api/ums/send': {
    schema: UmsMessageCreatedResponse,
    calls: [
      { query: { token: 'pt_x' }, body: { content: '表单内容', type: 'text' }, status: 200 },
      { query: { token: 'pt_x' }, body: {}, status: 400, error: true },
    ],
  },

  // ---- NJIT (mock/njit.ts) ----
  'GET /api/njit/students': {
    schema: NjitStudentSearchResponse,
    calls: [
      { query: { name: 'zs' }, status: 200 },
      { query: { studentNo: '2021', current: '1', pageSize: '10' }, status: 200 },
      { query: {}, status: 400, error: true },
      { query: { name: 'zs', pageSize: '51' }, status: 400, error: true },
    ],
  },
  'GET /api/njit/students/:id': {
    schema: NjitStudentResponse,
    calls: [
      { params: { id: '1' }, status: 200 },
      { params: { id: '999' }, status: 404, error: true },
    ],
  },
  'POST /api/njit/students/:id/reveal': {
    schema: NjitRevealResponse,
    calls: [
      { params: { id: '1' }, body: { field: 'phone', reason: '核实联系方式' }, status: 200 },
      { params: { id: '1' }, body: { field: 'phone', reason: '' }, status: 400, error: true },
      { params: { id: '999' }, body: { field: 'idCard', reason: '核实身份' }, status: 404, error: true },
    ],
  },
  'GET /api/njit/options': { schema: NjitOptionsResponse, calls: [{ status: 200 }] },
  'GET /api/njit/overview': { schema: NjitOverviewResponse, calls: [{ status: 200 }] },
  'POST /api/njit/imports': { schema: NjitImportPreviewResponse, calls: [{ status: 200 }] },
  'POST /api/njit/imports/:id/commit': {
    schema: NjitImportCommitResponse,
    calls: [
      { params: { id: 'mock-import' }, status: 200 },
      { params: { id: 'other' }, status: 404, error: true },
    ],
  },
  'GET /api/njit/imports': { schema: NjitImportListResponse, calls: [{ status: 200 }] },
  'GET /api/njit/audit': { schema: NjitAuditListResponse, calls: [{ status: 200 }, { query: { action: 'search', pageSize: '5' }, status: 200 }] },
};

function fakeRes() {
  const res = {
    statusCode: 200,
    headers: {} as Record<string, string>,
    body: undefined as unknown,
    status(code: number) {
      res.statusCode = code;
      return res;
    },
    setHeader(name: string, value: string) {
      res.headers[name.toLowerCase()] = value;
    },
    json(body: unknown) {
      res.body = body;
    },
  };
  return res;
}

type Handler = (
  req: { body?: unknown; query: object; params: object; headers: object },
  res: ReturnType<typeof fakeRes>,
) => void;

const mockDir = path.join(__dirname, '../../mock');
const handlers: Record<string, Handler> = {};
for (const file of fs.readdirSync(mockDir).filter((f) => /\.[jt]s$/.test(f))) {
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  Object.assign(handlers, require(path.join(mockDir, file)).default);
}

function call(route: string, body?: unknown, params: object = {}, query: object = {}) {
  const res = fakeRes();
  (handlers[route] as Handler)({ body, query, params, headers: {} }, res);
  return res;
}

describe('umi mocks match the contract', () => {
  it('every mock route has a schema mapping', () => {
    expect(Object.keys(handlers).sort()).toEqual(Object.keys(CASES).sort());
  });

  it.each(Object.entries(CASES))('%s', (route, { schema, calls }) => {
    for (const c of calls) {
      const res = call(route, c.body, c.params, c.query);
      expect(res.statusCode).toBe(c.status);
      const parsed = (c.error ? ErrorEnvelope : schema).safeParse(res.body);
      if (!parsed.success) throw new Error(`${route} ${JSON.stringify(res.body)}: ${parsed.error.message}`);
    }
  });

  it('logout ends the mock session: /me then answers 401 with an error envelope', () => {
    call('POST /api/user/logout');
    const me = call('GET /api/user/me');
    expect(me.statusCode).toBe(401);
    expect(ErrorEnvelope.parse(me.body).errorMessage).toBe('请先登录');
    call('POST /api/user/login', { username: 'admin', password: 'admin123456' });
    expect(MeResponse.parse(call('GET /api/user/me').body).data.username).toBe('admin');
  });

  it('lists what the account mocks changed: filters, revocations, audit rows newest first', () => {
    const found = AdminUserListResponse.parse(call('GET /api/user/admin/users', undefined, {}, { keyword: 'car' }).body);
    expect(found.data.map((u) => u.username)).toEqual(['carol']);
    const expired = TokenListResponse.parse(call('GET /api/user/tokens', undefined, {}, { status: 'revoked' }).body);
    expect(expired.data.map((t) => t.id)).toEqual([1]);
    const audit = AuditListResponse.parse(call('GET /api/user/admin/audit').body);
    expect(audit.data[0].action).toBe('user.delete');
    expect(audit.data[0].targetName).toBe('bob');
  });

  it('throttles repeated failed logins with 429 and Retry-After', () => {
    let res = call('POST /api/user/login', { username: 'admin', password: 'bad' });
    for (let i = 0; i < 6 && res.statusCode !== 429; i++) res = call('POST /api/user/login', { username: 'admin', password: 'bad' });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('900');
    expect(ErrorEnvelope.parse(res.body).errorMessage).toMatch(/次数过多/);
  });
});
