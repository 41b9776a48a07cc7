/**
 * Every umi dev mock answers with the same shapes the server promises (src/contract).
 * A mock route without an entry in CASES fails this test.
 */
import ExcelJS from 'exceljs';
import fs from 'fs';
import path from 'path';
import type { z } from 'zod';
import {
  AdminCreateUserResponse,
  AdminDeleteUserResponse,
  AdminResetPasswordResponse,
  AdminRevokeTokensResponse,
  AdminUnlockLoginResponse,
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
  OkEmpty as OkEmptySchema,
  Health,
  HealthLive,
  HealthReady,
  LoginResponse,
  LogoutResponse,
  PasswordLoginResponse,
  MeResponse,
  SignedInResponse,
  ProfileResponse,
  RegisterResponse,
  RevokeTokenResponse,
  SessionListResponse,
  TokenListResponse,
} from '@/contract';
import {
  CallbackSecretResponse as UmsCallbackSecretResponse,
  MarkReadResponse as UmsMarkReadResponse,
  TemplateListResponse as UmsTemplateListResponse,
  TemplateResponse as UmsTemplateResponse,
  ChannelKindListResponse as UmsChannelKindListResponse,
  ChannelListResponse as UmsChannelListResponse,
  ChannelResponse as UmsChannelResponse,
  ChannelTestResponse as UmsChannelTestResponse,
  DeleteChannelResponse as UmsDeleteChannelResponse,
  EmailConfirmResponse as UmsEmailConfirmResponse,
  MessageActionResponse as UmsMessageActionResponse,
  MessageCreatedResponse as UmsMessageCreatedResponse,
  MessageDetailResponse as UmsMessageDetailResponse,
  MessageListResponse as UmsMessageListResponse,
  PushPlusAnswer as UmsPushPlusAnswer,
  ServerChanAnswer as UmsServerChanAnswer,
  UmsHomeSummaryResponse,
  UmsStatsResponse,
} from '@/contract';

import {
  ImportCommitResponse as NjitImportCommitResponse,
  ImportListResponse as NjitImportListResponse,
  ImportPreviewResponse as NjitImportPreviewResponse,
  NjitAuditListResponse,
  NjitOptionsResponse,
  NjitOverviewResponse,
  PurgeResponse as NjitPurgeResponse,
  RetentionPreviewResponse as NjitRetentionPreviewResponse,
  RevealResponse as NjitRevealResponse,
  RevealRequestListResponse as NjitRevealRequestListResponse,
  RevealRequestResponse as NjitRevealRequestResponse,
  StudentDetailResponse as NjitStudentDetailResponse,
  ImportDiffResponse as NjitImportDiffResponse,
  StudentSearchResponse as NjitStudentSearchResponse,
} from '@/contract';
import { OcsScriptInfoResponse, ROSTER_COLUMNS, USERSCRIPT_VERSION } from '@/contract';
import {
  AskResponse as OcsAskResponse,
  LedgerListResponse as OcsLedgerListResponse,
  OcsHomeSummaryResponse,
  OcsOverviewResponse,
  QueryListResponse as OcsQueryListResponse,
  WalletResponse as OcsWalletResponse,
} from '@/contract';
import {
  AiAdminModelListResponse,
  AiAdminModelResponse,
  AiDeleteResponse,
  AiModelOptionListResponse,
  AiModelTestResponse,
  AiPromptDefaultsResponse,
  AiPromptPreviewResponse,
  AiProviderListResponse,
  AiProviderResponse,
  OcsPreferencesResponse,
} from '@/contract';
import {
  FreeClaimResponse as OcsFreeClaimResponse,
  FreeStatusResponse as OcsFreeStatusResponse,
  RedeemBatchListResponse as OcsRedeemBatchListResponse,
  RedeemBatchResponse as OcsRedeemBatchResponse,
  RedeemResponse as OcsRedeemResponse,
} from '@/contract';
import {
  AdjustBalanceResponse as OcsAdjustBalanceResponse,
  BankImportJobResponse as OcsBankImportJobResponse,
  BankImportPreviewResponse as OcsBankImportPreviewResponse,
  BankQuestionDeleteResponse as OcsBankQuestionDeleteResponse,
  BankQuestionListResponse as OcsBankQuestionListResponse,
  BankQuestionResponse as OcsBankQuestionResponse,
  BankStatsResponse as OcsBankStatsResponse,
  OcsAdminLedgerResponse,
  OcsAdminUserListResponse,
  OcsSettingsResponse,
  OcsSetupStatusResponse,
  SampleBankImportResponse as OcsSampleBankImportResponse,
} from '@/contract';
import {
  MissAnswerResponse as OcsMissAnswerResponse,
  MissDismissResponse as OcsMissDismissResponse,
  MissDraftResponse as OcsMissDraftResponse,
  MissListResponse as OcsMissListResponse,
  OcsReportContextResponse,
  OcsReportResponse,
  ReviewAcceptResponse as OcsReviewAcceptResponse,
  ReviewDetailResponse as OcsReviewDetailResponse,
  ReviewMergeResponse as OcsReviewMergeResponse,
  ReviewQueueResponse as OcsReviewQueueResponse,
  ReviewRejectResponse as OcsReviewRejectResponse,
  UpstreamDeleteResponse as OcsUpstreamDeleteResponse,
  UpstreamListResponse as OcsUpstreamListResponse,
  UpstreamResponse as OcsUpstreamResponse,
  UpstreamTestResponse as OcsUpstreamTestResponse,
} from '@/contract';
import {
  AdminUserSecurityResponse,
  DisableTwoFactorResponse,
  EmailStatusResponse,
  ForgetBrowsersResponse,
  ForgotPasswordResponse,
  IdentityListResponse,
  PendingIdentityResponse,
  RecoveryCodesResponse,
  ResetCheckResponse,
  ResetPasswordResponse,
  SsoSignInResponse,
  TwoFactorSetupResponse,
  TwoFactorStatusResponse,
  VerifyEmailResponse,
} from '@/contract';
import { PreferencesResponse } from '@/contract';
import {
  NotificationListResponse,
  NotificationPreferencesResponse,
  UnreadCountResponse,
  MarkReadResponse as NotificationsReadResponse,
} from '@/contract';
import { SearchHitsResponse, StudentHitsResponse } from '@/contract';
import {
  FieldPolicyResponse,
  MyFieldsResponse,
  PolicyPreviewResponse,
  UserScopeListResponse,
  UserScopeResponse,
  DEFAULT_FIELD_LEVELS,
} from '@/contract';
import { z as zod } from 'zod';
import { allEndpoints } from '@/contract/api';
import { keyOf } from '@/contract/endpoint';

interface Case {
  schema: z.ZodTypeAny;
  /** Requests to replay, in order, with the status each must get. */
  calls: {
    body?: unknown;
    params?: Record<string, string>;
    query?: Record<string, string>;
    status: number;
    error?: boolean;
    retryAfter?: boolean;
  }[];
}

const CASES: Record<string, Case> = {
  'GET /api/user/me': { schema: MeResponse, calls: [{ status: 200 }] },
  'POST /api/user/login': {
    schema: PasswordLoginResponse,
    calls: [
      { body: { username: 'totp', password: 'admin123456' }, status: 200 },
      { body: { username: 'attacked', password: 'whatever' }, status: 200 },
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

  // ---- institutional sign-in (mock/identity.ts); order matters: set-up before enable, ssoLogin before pending ----
  'POST /api/user/login/verify': {
    schema: SignedInResponse,
    calls: [
      { body: { code: '123456', trustBrowser: true }, status: 200 },
      { body: { code: 'abcd-efgh-jkmn' }, status: 200 },
      { body: { code: '000000' }, status: 401, error: true },
      { body: { code: '' }, status: 400, error: true },
    ],
  },
  'GET /api/user/2fa': { schema: TwoFactorStatusResponse, calls: [{ status: 200 }] },
  'POST /api/user/2fa/setup': { schema: TwoFactorSetupResponse, calls: [{ status: 200 }] },
  'POST /api/user/2fa/enable': {
    schema: RecoveryCodesResponse,
    calls: [
      { body: { code: '12345' }, status: 400, error: true },
      { body: { code: '654321' }, status: 400, error: true },
      { body: { code: '123456' }, status: 200 },
    ],
  },
  'POST /api/user/2fa/recovery-codes': {
    schema: RecoveryCodesResponse,
    calls: [
      { body: { code: 'nope' }, status: 400, error: true },
      { body: { code: '123456' }, status: 200 },
    ],
  },
  'POST /api/user/2fa/forget-browsers': { schema: ForgetBrowsersResponse, calls: [{ status: 200 }] },
  'POST /api/user/2fa/disable': {
    schema: DisableTwoFactorResponse,
    calls: [
      { body: { code: '000000' }, status: 400, error: true },
      { body: { code: 'abcd-efgh-jkmn' }, status: 200 },
    ],
  },
  'GET /api/user/email': { schema: EmailStatusResponse, calls: [{ status: 200 }] },
  'PUT /api/user/email': {
    schema: EmailStatusResponse,
    calls: [
      { body: { email: 'not-an-address' }, status: 400, error: true },
      { body: { email: 'taken@example.edu' }, status: 409, error: true },
      { body: { email: 'new@example.edu' }, status: 200 },
    ],
  },
  'POST /api/user/email/verify': {
    schema: VerifyEmailResponse,
    calls: [
      { body: { token: 'short' }, status: 400, error: true },
      { body: { token: 'mock-link-token-0001' }, status: 200 },
      { body: { token: 'mock-link-token-0001' }, status: 400, error: true },
    ],
  },
  'DELETE /api/user/email': { schema: EmailStatusResponse, calls: [{ status: 200 }] },
  'POST /api/user/password/forgot': {
    schema: ForgotPasswordResponse,
    calls: [
      { body: { account: 'admin' }, status: 200 },
      { body: { account: 'nobody@example.edu' }, status: 200 },
      { body: { account: ' ' }, status: 400, error: true },
    ],
  },
  'POST /api/user/password/reset/check': {
    schema: ResetCheckResponse,
    calls: [
      { body: { token: 'mock-link-token-0001' }, status: 200 },
      { body: { token: 'mock-link-token-9999' }, status: 400, error: true },
    ],
  },
  'POST /api/user/password/reset': {
    schema: ResetPasswordResponse,
    calls: [
      { body: { token: 'mock-link-token-0001', newPassword: 'short' }, status: 400, error: true },
      { body: { token: 'mock-link-token-0001', newPassword: 'a-new-password', revokeTokens: true }, status: 200 },
      { body: { token: 'mock-link-token-0001', newPassword: 'a-new-password' }, status: 400, error: true },
    ],
  },
  'POST /api/user/login/link': {
    schema: LoginResponse,
    calls: [
      { body: { token: 'short' }, status: 400, error: true },
      { body: { token: 'mock-link-token-0001' }, status: 200 },
      { body: { token: 'mock-link-token-0001' }, status: 400, error: true },
    ],
  },
  'GET /api/user/sso/:provider/login': {
    schema: zod.literal(''),
    calls: [{ params: { provider: 'cas' }, status: 302 }],
  },
  'GET /api/user/sso/:provider/link': {
    schema: zod.literal(''),
    calls: [{ params: { provider: 'oidc' }, status: 302 }],
  },
  'GET /api/user/sso/cas/callback': { schema: zod.literal(''), calls: [{ status: 302 }] },
  'GET /api/user/sso/oidc/callback': { schema: zod.literal(''), calls: [{ status: 302 }] },
  'POST /api/user/sso/cas/callback': { schema: OkEmptySchema, calls: [{ status: 200 }] },
  'GET /api/user/sso/pending': { schema: PendingIdentityResponse, calls: [{ status: 200 }] },
  'POST /api/user/sso/pending/link': {
    schema: SsoSignInResponse,
    calls: [
      { body: { username: 'admin', password: 'wrong' }, status: 401, error: true },
      { body: { username: '' }, status: 400, error: true },
      { body: { username: 'admin', password: 'admin123456' }, status: 200 },
      { body: { username: 'admin', password: 'admin123456' }, status: 401, error: true },
    ],
  },
  'POST /api/user/sso/pending/create': { schema: SsoSignInResponse, calls: [{ status: 401, error: true }] },
  'GET /api/user/identities': { schema: IdentityListResponse, calls: [{ status: 200 }] },
  'GET /api/user/admin/users/:id/security': {
    schema: AdminUserSecurityResponse,
    calls: [
      { params: { id: '2' }, status: 200 },
      { params: { id: '999' }, status: 404, error: true },
    ],
  },
  'POST /api/user/admin/users/:id/identities': {
    schema: AdminUserSecurityResponse,
    calls: [
      { params: { id: '2' }, body: { provider: 'oidc', subject: 'alice' }, status: 200 },
      { params: { id: '2' }, body: { provider: 'oidc', subject: 'alice' }, status: 409, error: true },
      { params: { id: '2' }, body: { provider: 'ldap', subject: 'x' }, status: 400, error: true },
    ],
  },
  'PUT /api/user/admin/users/:id/password-login': {
    schema: AdminUserSecurityResponse,
    calls: [
      { params: { id: '2' }, body: { enabled: false }, status: 200 },
      { params: { id: '2' }, body: { enabled: 'no' }, status: 400, error: true },
      { params: { id: '2' }, body: { enabled: true }, status: 200 },
    ],
  },
  'POST /api/user/admin/users/:id/reset-2fa': {
    schema: AdminUserSecurityResponse,
    calls: [{ params: { id: '2' }, status: 200 }],
  },
  'DELETE /api/user/admin/users/:id/identities/:identityId': {
    schema: AdminUserSecurityResponse,
    calls: [
      { params: { id: '2', identityId: '2' }, status: 200 },
      { params: { id: '2', identityId: '2' }, status: 404, error: true },
    ],
  },
  'DELETE /api/user/identities/:id': {
    schema: IdentityListResponse,
    calls: [
      { params: { id: '1' }, status: 200 },
      { params: { id: '1' }, status: 404, error: true },
    ],
  },
  'GET /api/user/settings': { schema: AuthSettings, calls: [{ status: 200 }] },
  'GET /api/health': { schema: Health, calls: [{ status: 200 }] },
  'GET /api/health/live': { schema: HealthLive, calls: [{ status: 200 }] },
  'GET /api/health/ready': { schema: HealthReady, calls: [{ status: 200 }] },

  // ---- user module (mock/account.ts) ----
  'GET /api/user/profile': { schema: ProfileResponse, calls: [{ status: 200 }] },
  // Order matters: a save, then the unknown key and the bad colour change nothing.
  'PUT /api/user/preferences': {
    schema: PreferencesResponse,
    calls: [
      { body: { dark: true, compact: false, primaryColor: '#531dab', siderCollapsed: true }, status: 200 },
      {
        body: { dark: true, compact: false, primaryColor: '#531dab', siderCollapsed: true, x: 1 },
        status: 400,
        error: true,
      },
      { body: { dark: true, compact: false, primaryColor: 'red', siderCollapsed: true }, status: 400, error: true },
    ],
  },
  'GET /api/user/preferences': { schema: PreferencesResponse, calls: [{ status: 200 }] },
  'PATCH /api/user/profile': {
    schema: ProfileResponse,
    calls: [
      { body: { nickname: '新昵称' }, status: 200 },
      { body: { nickname: 'x'.repeat(33) }, status: 400, error: true },
    ],
  },
  'POST /api/user/avatar': {
    schema: AvatarResponse.refine(
      (a) => /^\/api\/user\/avatar\/1\?v=\d+$/.test(a.data.avatar),
      '头像地址应为服务器的格式',
    ),
    calls: [{ status: 200 }],
  },
  // The picture behind that address: a PNG.
  'GET /api/user/avatar/:id': {
    schema: zod.instanceof(Buffer).refine((b) => b.subarray(1, 4).toString() === 'PNG', 'PNG'),
    calls: [{ params: { id: '1' }, query: { v: '1' }, status: 200 }],
  },
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
      {
        query: {
          current: '1',
          pageSize: '10',
          keyword: 'ali',
          role: 'njit',
          status: 'active',
          sortBy: 'lastLoginAt',
          order: 'ascend',
        },
        status: 200,
      },
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
  'POST /api/user/admin/users/:id/revoke-tokens': {
    schema: AdminRevokeTokensResponse,
    calls: [
      { params: { id: '2' }, status: 200 },
      { params: { id: '999' }, status: 404, error: true },
    ],
  },
  'POST /api/user/admin/users/:id/unlock-login': {
    schema: AdminUnlockLoginResponse,
    calls: [
      { params: { id: '2' }, status: 200 },
      { params: { id: '999' }, status: 404, error: true },
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
  'GET /api/ums/channel-kinds': { schema: UmsChannelKindListResponse, calls: [{ status: 200 }] },
  'GET /api/ums/callback-secret': { schema: UmsCallbackSecretResponse, calls: [{ status: 200 }] },
  'GET /api/ums/templates': { schema: UmsTemplateListResponse, calls: [{ status: 200 }] },
  'POST /api/ums/messages/:id/read': {
    schema: UmsMarkReadResponse,
    calls: [
      { params: { id: '1' }, status: 200 },
      { params: { id: '999' }, status: 404, error: true },
    ],
  },
  'POST /api/ums/messages/read-all': { schema: UmsMarkReadResponse, calls: [{ status: 200 }] },
  'POST /api/ums/templates': {
    schema: UmsTemplateResponse,
    calls: [
      { body: { name: '值班', title: '{{who}} 值班', content: '今天 {{who}}' }, status: 200 },
      { body: { name: '值班', content: 'x' }, status: 409, error: true },
      { body: { name: '', content: '' }, status: 400, error: true },
    ],
  },
  'PATCH /api/ums/templates/:id': {
    schema: UmsTemplateResponse,
    calls: [
      { params: { id: '1' }, body: { content: '{{x}}' }, status: 200 },
      { params: { id: '999' }, body: { name: 'x' }, status: 404, error: true },
    ],
  },
  'DELETE /api/ums/templates/:id': {
    schema: UmsDeleteChannelResponse,
    calls: [
      { params: { id: '2' }, status: 200 },
      { params: { id: '999' }, status: 404, error: true },
    ],
  },
  'POST /api/ums/callback-secret/rotate': { schema: UmsCallbackSecretResponse, calls: [{ status: 200 }] },
  // The drop-in compatible endpoints answer refusals in their own shape, not the envelope.
  'GET /:sendkey.send': {
    schema: UmsServerChanAnswer,
    calls: [
      { params: { sendkey: 'pt_x' }, query: { title: '构建完成', desp: '**通过**' }, status: 200 },
      { params: { sendkey: 'pt_x' }, query: {}, status: 400 },
    ],
  },
  'POST /:sendkey.send': {
    schema: UmsServerChanAnswer,
    calls: [{ params: { sendkey: 'pt_x' }, body: { text: '旧字段' }, status: 200 }],
  },
  'GET /send': {
    schema: UmsPushPlusAnswer,
    calls: [
      { query: { token: 'pt_x', title: '日报', content: '完成', template: 'txt' }, status: 200 },
      { query: { content: 'x' }, status: 401 },
      { query: { token: 'pt_x' }, status: 400 },
    ],
  },
  'POST /send': {
    schema: UmsPushPlusAnswer,
    calls: [{ body: { token: 'pt_x', content: '<b>告警</b>' }, status: 200 }],
  },
  'GET /send/:token': {
    schema: UmsPushPlusAnswer,
    calls: [{ params: { token: 'pt_x' }, query: { content: '路径里的令牌' }, status: 200 }],
  },
  'POST /send/:token': {
    schema: UmsPushPlusAnswer,
    calls: [{ params: { token: 'pt_x' }, body: { content: '路径里的令牌' }, status: 200 }],
  },
  'POST /api/ums/channels': {
    schema: UmsChannelResponse,
    calls: [
      {
        body: {
          name: '新群',
          webhook: 'https://oapi.dingtalk.com/robot/send?access_token=abcdef0123456789abcd',
          secret: 'SECabc123def456',
          isDefault: false,
        },
        status: 200,
      },
      { body: { name: '坏地址', webhook: 'https://example.com/hook' }, status: 400, error: true },
      { body: { name: '', webhook: '' }, status: 400, error: true },
      {
        body: {
          kind: 'wecom',
          name: '研发群',
          webhook: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=693a91f6',
        },
        status: 200,
      },
      { body: { kind: 'email', name: '邮箱', email: 'me@njit.edu.cn' }, status: 200 },
      {
        body: {
          kind: 'webhook',
          name: '平台',
          webhook: 'https://ops.example.edu/h',
          headers: [{ name: 'X-A', value: 'b' }],
        },
        status: 200,
      },
      { body: { kind: 'email', name: '邮箱', email: 'nope' }, status: 400, error: true },
      { body: { kind: 'wecom', name: 'x', webhook: 'https://x.example', secret: 'SECx' }, status: 400, error: true },
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
      { params: { id: '5' }, status: 409, error: true },
      { params: { id: '999' }, status: 404, error: true },
    ],
  },
  // Channel 5 is the e-mail channel added above: pending until its link (mock token) is opened.
  'POST /api/ums/channels/:id/confirmation': {
    schema: UmsChannelResponse,
    calls: [
      { params: { id: '5' }, status: 200 },
      { params: { id: '1' }, status: 409, error: true },
      { params: { id: '999' }, status: 404, error: true },
    ],
  },
  'POST /api/ums/email/confirm': {
    schema: UmsEmailConfirmResponse,
    calls: [
      { body: { token: 'x'.repeat(43) }, status: 400, error: true },
      { body: { token: '' }, status: 400, error: true },
      { body: { token: 'mockconfirm500000000' }, status: 200 },
      { body: { token: 'mockconfirm500000000' }, status: 409, error: true },
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
  // ---- the notification centre (mock/notifications.ts); order matters: read one, then all ----
  'GET /api/notifications': {
    schema: NotificationListResponse,
    calls: [
      { status: 200 },
      { query: { current: '1', pageSize: '2', kind: 'ums.failed', read: 'unread' }, status: 200 },
      { query: { kind: 'nope' }, status: 400, error: true },
    ],
  },
  'GET /api/notifications/unread-count': { schema: UnreadCountResponse, calls: [{ status: 200 }] },
  'POST /api/notifications/read': {
    schema: NotificationsReadResponse,
    calls: [
      { body: { ids: [5] }, status: 200 },
      { body: { ids: [] }, status: 400, error: true },
    ],
  },
  'POST /api/notifications/read-all': { schema: NotificationsReadResponse, calls: [{ status: 200 }] },
  'GET /api/notifications/preferences': { schema: NotificationPreferencesResponse, calls: [{ status: 200 }] },
  'PUT /api/notifications/preferences': {
    schema: NotificationPreferencesResponse,
    calls: [
      { body: { enabled: { 'ums.failed': false, 'ocs.balance.low': true } }, status: 200 },
      { body: { forward: { 'ocs.balance.low': true }, forwardChannelId: 1 }, status: 200 },
      { body: { forwardChannelId: null }, status: 200 },
      { body: { enabled: { nope: false } }, status: 400, error: true },
      { body: { forwardChannelId: 0 }, status: 400, error: true },
      { body: { enabled: { 'ums.failed': 'no' } }, status: 400, error: true },
    ],
  },

  'GET /api/ums/messages': {
    schema: UmsMessageListResponse,
    calls: [
      { status: 200 },
      {
        query: { current: '1', pageSize: '5', status: 'failed', keyword: '告警', from: '2020-01-01T00:00:00Z' },
        status: 200,
      },
    ],
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
  'GET /api/ums/home-summary': { schema: UmsHomeSummaryResponse, calls: [{ status: 200 }] },
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

  // ---- the header's search (mock/search.ts; students in mock/njit.ts) ----
  'GET /api/njit/search': {
    schema: StudentHitsResponse,
    calls: [
      { query: { q: 'zs' }, status: 200 },
      { query: { q: '2021' }, status: 200 },
      { query: { q: ' ' }, status: 400, error: true },
    ],
  },
  ...Object.fromEntries(
    [
      'GET /api/user/tokens/search',
      'GET /api/user/admin/search',
      'GET /api/ums/search',
      'GET /api/ocs/search',
      'GET /api/ocs/admin/bank/search',
    ].map((route) => [
      route,
      {
        schema: SearchHitsResponse,
        calls: [
          { query: { q: '光合' }, status: 200 },
          { query: { q: '' }, status: 400, error: true },
          { query: { q: 'x'.repeat(65) }, status: 400, error: true },
          { query: { q: 'a\u0000b' }, status: 400, error: true },
        ],
      },
    ]),
  ),

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
    schema: NjitStudentDetailResponse,
    calls: [
      { params: { id: '1' }, status: 200 },
      { params: { id: '999' }, status: 404, error: true },
    ],
  },
  'PATCH /api/njit/students/:id': {
    schema: NjitStudentDetailResponse,
    calls: [
      { params: { id: '3' }, body: { dormitory: '西区9栋909' }, status: 200 },
      { params: { id: '3' }, body: { phone: '123' }, status: 400, error: true },
      { params: { id: '3' }, body: {}, status: 400, error: true },
      { params: { id: '999' }, body: { dormitory: '西区9栋909' }, status: 404, error: true },
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
  'POST /api/njit/students/:id/reveal-requests': {
    schema: NjitRevealRequestResponse,
    calls: [
      { params: { id: '1' }, body: { field: 'idCard', reason: '办理学籍证明' }, status: 200 },
      { params: { id: '1' }, body: { field: 'idCard', reason: '' }, status: 400, error: true },
      { params: { id: '999' }, body: { field: 'idCard', reason: '办理学籍证明' }, status: 404, error: true },
    ],
  },
  'GET /api/njit/reveal-requests': {
    schema: NjitRevealRequestListResponse,
    calls: [
      { query: { scope: 'pending' }, status: 200 },
      { query: { scope: 'mine', current: '1', pageSize: '10' }, status: 200 },
      { query: { scope: 'all' }, status: 400, error: true },
    ],
  },
  'POST /api/njit/reveal-requests/:id/decision': {
    schema: NjitRevealRequestResponse,
    calls: [
      { params: { id: '1' }, body: { decision: 'approve' }, status: 200 },
      { params: { id: '1' }, body: { decision: 'refuse' }, status: 409, error: true },
      { params: { id: '1' }, body: { decision: 'maybe' }, status: 400, error: true },
      { params: { id: '999' }, body: { decision: 'approve' }, status: 404, error: true },
    ],
  },
  'POST /api/njit/reveal-requests/:id/reveal': {
    schema: NjitRevealResponse,
    calls: [
      { params: { id: '2' }, status: 409, error: true },
      { params: { id: '999' }, status: 404, error: true },
    ],
  },
  'GET /api/njit/options': { schema: NjitOptionsResponse, calls: [{ status: 200 }] },
  'GET /api/njit/overview': { schema: NjitOverviewResponse, calls: [{ status: 200 }] },
  'POST /api/njit/imports': { schema: NjitImportPreviewResponse, calls: [{ status: 200 }] },
  'GET /api/njit/imports/:id/diff': {
    schema: NjitImportDiffResponse,
    calls: [
      { params: { id: 'mock-import' }, query: { kind: 'changed' }, status: 200 },
      { params: { id: 'mock-import' }, query: { kind: 'missing', current: '1', pageSize: '10' }, status: 200 },
      { params: { id: 'mock-import' }, query: { kind: 'all' }, status: 400, error: true },
      { params: { id: 'other' }, query: {}, status: 404, error: true },
    ],
  },
  'POST /api/njit/imports/:id/commit': {
    schema: NjitImportCommitResponse,
    calls: [
      { params: { id: 'mock-import' }, body: { manual: 'overwrite' }, status: 400, error: true },
      { params: { id: 'mock-import' }, status: 200 },
      { params: { id: 'other' }, status: 404, error: true },
    ],
  },
  'GET /api/njit/imports': { schema: NjitImportListResponse, calls: [{ status: 200 }] },
  'GET /api/njit/audit/export': {
    schema: zod.string().startsWith('\uFEFF编号,时间,用户,操作,IP,条件,结果数,记录编号,原因\r\n'),
    calls: [
      { query: { action: 'search' }, status: 200 },
      { query: { action: 'nonsense' }, status: 400, error: true },
    ],
  },
  // The Excel template is an asynchronous answer: its own test below.
  'GET /api/njit/imports/template': {
    schema: zod.string().startsWith('\uFEFF学号,姓名,性别,学院,专业,班级,年级,状态,手机号,身份证号,宿舍\r\n'),
    calls: [
      { query: { format: 'csv' }, status: 200 },
      { query: { format: 'pdf' }, status: 400, error: true },
    ],
  },
  'GET /api/njit/retention': {
    schema: NjitRetentionPreviewResponse,
    calls: [
      { status: 200 },
      { query: { withinDays: '30', current: '1', pageSize: '10' }, status: 200 },
      { query: { withinDays: '-1' }, status: 400, error: true },
      { query: { pageSize: '51' }, status: 400, error: true },
    ],
  },
  'POST /api/njit/retention/purge': {
    schema: NjitPurgeResponse,
    calls: [
      { body: { cutoff: '2020-01-01T00:00:00Z' }, status: 200 },
      { body: { cutoff: 'yesterday' }, status: 400, error: true },
      { body: { cutoff: '2999-01-01T00:00:00Z' }, status: 400, error: true },
    ],
  },
  'GET /api/njit/audit': {
    schema: NjitAuditListResponse,
    calls: [{ status: 200 }, { query: { action: 'search', pageSize: '5' }, status: 200 }],
  },

  // ---- NJIT field policy (mock/njitPolicy.ts); order matters: saved before previewed ----
  'GET /api/njit/policy': { schema: FieldPolicyResponse, calls: [{ status: 200 }] },
  'PUT /api/njit/policy': {
    schema: FieldPolicyResponse,
    calls: [
      { body: { roles: [{ role: 'njit', fields: { ...DEFAULT_FIELD_LEVELS, name: 'hidden' } }] }, status: 200 },
      {
        body: { roles: [{ role: 'njit', fields: { ...DEFAULT_FIELD_LEVELS, grade: 'masked' } }] },
        status: 400,
        error: true,
      },
      { body: { roles: [] }, status: 400, error: true },
    ],
  },
  'GET /api/njit/policy/preview': {
    schema: PolicyPreviewResponse,
    calls: [
      { query: { role: 'njit', studentNo: '202101010001' }, status: 200 },
      { query: { role: 'njit', studentNo: '1' }, status: 404, error: true },
      { query: { role: 'admin', studentNo: '1' }, status: 400, error: true },
    ],
  },
  'GET /api/njit/policy/mine': { schema: MyFieldsResponse, calls: [{ status: 200 }] },
  'GET /api/njit/scopes': { schema: UserScopeListResponse, calls: [{ status: 200 }] },
  'PUT /api/njit/scopes/:userId': {
    schema: UserScopeResponse,
    calls: [
      { params: { userId: '7' }, body: { colleges: ['计算机工程学院'], classes: [] }, status: 200 },
      { params: { userId: '999' }, body: { colleges: [], classes: [] }, status: 404, error: true },
      { params: { userId: '7' }, body: { colleges: 'x' }, status: 400, error: true },
    ],
  },

  // ---- OCS script (mock/ocsScript.ts) ----
  'GET /api/ocs/script-info': { schema: OcsScriptInfoResponse, calls: [{ status: 200 }] },
  'GET /api/ocs/userscript.user.js': {
    schema: zod.string().regex(new RegExp(`^// ==UserScript==\n[\\s\\S]*// @version +${USERSCRIPT_VERSION}\n`)),
    calls: [{ status: 200 }],
  },

  // ---- OCS wallet, ledger, queries, ask (mock/ocs.ts); the 6th ask within 10 s is rate-limited ----
  'GET /api/ocs/overview': { schema: OcsOverviewResponse, calls: [{ status: 200 }] },
  'GET /api/ocs/home-summary': { schema: OcsHomeSummaryResponse, calls: [{ status: 200 }] },
  'GET /api/ocs/wallet': { schema: OcsWalletResponse, calls: [{ status: 200 }] },
  'GET /api/ocs/ledger': {
    schema: OcsLedgerListResponse,
    calls: [
      { status: 200 },
      { query: { current: '1', pageSize: '5', kind: 'charge', from: '2020-01-01', to: '2999-12-31' }, status: 200 },
      { query: { kind: 'bogus' }, status: 400, error: true },
      { query: { from: '2025/01/01' }, status: 400, error: true },
    ],
  },
  'GET /api/ocs/ledger.csv': {
    schema: zod.string().startsWith('\uFEFF时间,类型,金额,余额,说明\r\n'),
    calls: [
      { query: { kind: 'free' }, status: 200 },
      { query: { to: 'yesterday' }, status: 400, error: true },
    ],
  },
  'GET /api/ocs/queries': {
    schema: OcsQueryListResponse,
    calls: [
      { status: 200 },
      { query: { outcome: 'miss', pageSize: '5' }, status: 200 },
      { query: { outcome: 'x' }, status: 400, error: true },
    ],
  },
  'POST /api/ocs/ask': {
    schema: OcsAskResponse,
    calls: [
      { body: { title: '中华人民共和国的首都是哪座城市？', type: 'single', options: ['上海', '北京'] }, status: 200 },
      { body: { title: '细胞膜的主要成分是', options: ['脂质和蛋白质', '糖类'] }, status: 200 },
      { body: { title: '这道题找不到' }, status: 200 },
      { body: { title: ' ' }, status: 400, error: true },
      { body: { title: '中华人民共和国的首都是哪座城市？' }, status: 200 },
      { body: { title: '再问一次' }, status: 429, error: true },
    ],
  },

  // ---- OCS free points and redeem codes (mock/ocsFree.ts); order matters: 5 wrong codes, then 429 ----
  'GET /api/ocs/free': { schema: OcsFreeStatusResponse, calls: [{ status: 200 }] },
  'POST /api/ocs/free/claim': { schema: OcsFreeClaimResponse, calls: [{ status: 200 }, { status: 409, error: true }] },
  'POST /api/ocs/redeem': {
    schema: OcsRedeemResponse,
    calls: [
      { body: { code: 'abcd efgh jkmn pqrs tvwx' }, status: 200 },
      { body: { code: 'ABCDEFGHJKMNPQRSTVWX' }, status: 409, error: true },
      { body: { code: ' ' }, status: 400, error: true },
      ...['W1', 'W2', 'W3', 'W4', 'W5'].map((code) => ({ body: { code }, status: 400, error: true })),
      { body: { code: 'ABCD-EFGH-JKMN-PQRS-TVWX' }, status: 429, error: true, retryAfter: true },
    ],
  },
  'GET /api/ocs/admin/redeem-batches': {
    schema: OcsRedeemBatchListResponse,
    calls: [
      { status: 200 },
      { query: { current: '1', pageSize: '2' }, status: 200 },
      { query: { pageSize: '101' }, status: 400, error: true },
    ],
  },
  'POST /api/ocs/admin/redeem-batches': {
    schema: OcsRedeemBatchResponse,
    calls: [
      { body: { value: 10, count: 5, maxUses: 1, note: '测试批次' }, status: 200 },
      { body: { value: 10, count: 10001, maxUses: 1 }, status: 400, error: true },
      { body: { value: 10, count: 1, maxUses: 1, expiresAt: '2000-01-01T00:00:00Z' }, status: 400, error: true },
    ],
  },
  'GET /api/ocs/admin/redeem-batches/:id/codes.csv': {
    schema: zod.string().startsWith('\uFEFF兑换码,面值,可用次数,过期时间,备注\r\n'),
    calls: [
      { params: { id: '1' }, status: 200 },
      { params: { id: '1' }, status: 410, error: true },
      { params: { id: '999' }, status: 404, error: true },
    ],
  },
  'POST /api/ocs/admin/redeem-batches/:id/disable': {
    schema: OcsRedeemBatchResponse,
    calls: [
      { params: { id: '1' }, status: 200 },
      { params: { id: '999' }, status: 404, error: true },
    ],
  },

  // ---- OCS AI (mock/ocsAi.ts); model 3 is disabled, provider 2 is deleted last ----
  'GET /api/ocs/preferences': { schema: OcsPreferencesResponse, calls: [{ status: 200 }] },
  'PUT /api/ocs/preferences': {
    schema: OcsPreferencesResponse,
    calls: [
      { body: { promptTemplate: '请回答：${title}', modelId: 2, strategy: 'ai', dailyAiCap: 20 }, status: 200 },
      { body: { promptTemplate: '没有题目变量' }, status: 400, error: true },
      { body: { modelId: 3 }, status: 400, error: true },
      { body: { dailyAiCap: -1 }, status: 400, error: true },
      { body: { promptTemplate: null, dailyAiCap: null }, status: 200 },
    ],
  },
  'GET /api/ocs/models': { schema: AiModelOptionListResponse, calls: [{ status: 200 }] },
  'GET /api/ocs/prompt-defaults': { schema: AiPromptDefaultsResponse, calls: [{ status: 200 }] },
  'POST /api/ocs/prompt-preview': {
    schema: AiPromptPreviewResponse,
    calls: [
      { body: { template: '${type}：${title}\n${options}', type: 'multiple' }, status: 200 },
      { body: { template: '${title}' + '字'.repeat(3993) }, status: 400, error: true },
    ],
  },
  'GET /api/ocs/admin/providers': { schema: AiProviderListResponse, calls: [{ status: 200 }] },
  'POST /api/ocs/admin/providers': {
    schema: AiProviderResponse,
    calls: [
      { body: { name: 'Ollama', baseURL: 'http://127.0.0.1:11434/v1', apiKey: 'ollama-local-key' }, status: 200 },
      { body: { name: 'Ollama', baseURL: 'http://127.0.0.1:11434/v1', apiKey: 'k' }, status: 409, error: true },
      { body: { name: 'x', baseURL: 'ftp://example.com', apiKey: 'k' }, status: 400, error: true },
      { body: { name: 'y', baseURL: 'https://u:p@example.com/v1', apiKey: 'k' }, status: 400, error: true },
    ],
  },
  'PATCH /api/ocs/admin/providers/:id': {
    schema: AiProviderResponse,
    calls: [
      { params: { id: '1' }, body: { name: 'DeepSeek 官方', apiKey: 'sk-new-key-0000' }, status: 200 },
      { params: { id: '999' }, body: { name: 'x' }, status: 404, error: true },
    ],
  },
  'DELETE /api/ocs/admin/providers/:id': {
    schema: AiDeleteResponse,
    calls: [
      { params: { id: '999' }, status: 404, error: true },
      { params: { id: '2' }, status: 200 },
    ],
  },
  'GET /api/ocs/admin/models': { schema: AiAdminModelListResponse, calls: [{ status: 200 }] },
  'POST /api/ocs/admin/models': {
    schema: AiAdminModelResponse,
    calls: [
      { body: { providerId: 1, model: 'deepseek-coder', displayName: 'DeepSeek Coder', price: 3 }, status: 200 },
      { body: { providerId: 1, model: 'm', displayName: 'd', price: -1 }, status: 400, error: true },
      { body: { providerId: 999, model: 'm', displayName: 'd', price: 1 }, status: 400, error: true },
    ],
  },
  'PATCH /api/ocs/admin/models/:id': {
    schema: AiAdminModelResponse,
    calls: [
      { params: { id: '1' }, body: { price: 4, enabled: false }, status: 200 },
      { params: { id: '1' }, body: { timeoutMs: 10 }, status: 400, error: true },
      { params: { id: '999' }, body: { price: 1 }, status: 404, error: true },
    ],
  },
  'POST /api/ocs/admin/models/:id/test': {
    schema: AiModelTestResponse,
    calls: [
      { params: { id: '1' }, body: { type: 'single' }, status: 200 },
      { params: { id: '3' }, status: 200 },
      { params: { id: '999' }, status: 404, error: true },
    ],
  },
  'DELETE /api/ocs/admin/models/:id': {
    schema: AiDeleteResponse,
    calls: [
      { params: { id: '3' }, status: 200 },
      { params: { id: '3' }, status: 404, error: true },
    ],
  },

  // ---- OCS administration: users, settings, bank (mock/ocsAdmin.ts); order matters: import commit before polls ----
  'GET /api/ocs/admin/users': {
    schema: OcsAdminUserListResponse,
    calls: [
      { status: 200 },
      { query: { keyword: 'ali', sortBy: 'balance', order: 'ascend' }, status: 200 },
      { query: { sortBy: 'x' }, status: 400, error: true },
    ],
  },
  'POST /api/ocs/admin/users/:id/adjust': {
    schema: OcsAdjustBalanceResponse,
    calls: [
      { params: { id: '2' }, body: { amount: 10, reason: '补偿' }, status: 200 },
      { params: { id: '3' }, body: { amount: -1, reason: '扣减' }, status: 409, error: true },
      { params: { id: '2' }, body: { amount: 5 }, status: 400, error: true },
      { params: { id: '999' }, body: { amount: 5, reason: '不存在' }, status: 404, error: true },
    ],
  },
  'GET /api/ocs/admin/users/:id/ledger': {
    schema: OcsAdminLedgerResponse,
    calls: [{ params: { id: '2' }, status: 200 }],
  },
  'GET /api/ocs/admin/settings': { schema: OcsSettingsResponse, calls: [{ status: 200 }] },
  'PUT /api/ocs/admin/settings': {
    schema: OcsSettingsResponse,
    calls: [
      { body: { bankPrice: 2, freeDaily: 10, fuzzyThreshold: 0.6, ratePerSecond: 10, rateBurst: 20 }, status: 200 },
      {
        body: { bankPrice: 2, freeDaily: 10, fuzzyThreshold: 0.1, ratePerSecond: 10, rateBurst: 20 },
        status: 400,
        error: true,
      },
    ],
  },
  'GET /api/ocs/admin/setup': { schema: OcsSetupStatusResponse, calls: [{ status: 200 }] },
  'POST /api/ocs/admin/bank/sample': { schema: OcsSampleBankImportResponse, calls: [{ status: 200 }, { status: 200 }] },
  'GET /api/ocs/admin/bank/stats': { schema: OcsBankStatsResponse, calls: [{ status: 200 }] },
  'GET /api/ocs/admin/bank/questions': {
    schema: OcsBankQuestionListResponse,
    calls: [
      { status: 200 },
      { query: { keyword: '首都', type: 'single', status: 'verified', sortBy: 'hits' }, status: 200 },
      { query: { status: 'x' }, status: 400, error: true },
    ],
  },
  'GET /api/ocs/admin/bank/questions/:id': {
    schema: OcsBankQuestionResponse,
    calls: [
      { params: { id: '1' }, status: 200 },
      { params: { id: '999' }, status: 404, error: true },
    ],
  },
  'PUT /api/ocs/admin/bank/questions/:id': {
    schema: OcsBankQuestionResponse,
    calls: [
      {
        params: { id: '1' },
        body: { title: '中华人民共和国的首都是？', type: 'single', options: ['上海', '北京'], answer: ['B'] },
        status: 200,
      },
      {
        params: { id: '2' },
        body: { title: '中华人民共和国的首都是？', type: 'single', options: ['上海', '北京'], answer: ['B'] },
        status: 409,
        error: true,
      },
      { params: { id: '1' }, body: { title: '', type: 'single', answer: [] }, status: 400, error: true },
    ],
  },
  'POST /api/ocs/admin/bank/questions/:id/status': {
    schema: OcsBankQuestionResponse,
    calls: [
      { params: { id: '3' }, body: { status: 'verified' }, status: 200 },
      { params: { id: '3' }, body: { status: 'x' }, status: 400, error: true },
    ],
  },
  'DELETE /api/ocs/admin/bank/questions/:id': {
    schema: OcsBankQuestionDeleteResponse,
    calls: [
      { params: { id: '4' }, status: 200 },
      { params: { id: '4' }, status: 404, error: true },
    ],
  },
  'GET /api/ocs/admin/bank/export': {
    schema: zod.string().min(2),
    calls: [
      { query: { format: 'json' }, status: 200 },
      { query: { format: 'csv' }, status: 200 },
      { query: { format: 'xml' }, status: 400, error: true },
    ],
  },
  'POST /api/ocs/admin/bank/imports': { schema: OcsBankImportPreviewResponse, calls: [{ status: 200 }] },
  'POST /api/ocs/admin/bank/imports/:id/commit': {
    schema: OcsBankImportJobResponse,
    calls: [
      { params: { id: '0e5f2c1a-7b3d-4c8e-9f10-123456789abc' }, status: 200 },
      { params: { id: 'other' }, status: 404, error: true },
    ],
  },
  'GET /api/ocs/admin/bank/imports/:id': {
    schema: OcsBankImportJobResponse,
    calls: [
      { params: { id: '0e5f2c1a-7b3d-4c8e-9f10-123456789abc' }, status: 200 },
      { params: { id: 'other' }, status: 404, error: true },
    ],
  },

  // ---- OCS reports (users: mock/ocs.ts); query 2 is answered, an unknown id 404s, a second report 409s ----
  'GET /api/ocs/queries/:id/report': {
    schema: OcsReportContextResponse,
    calls: [
      { params: { id: '2' }, status: 200 },
      { params: { id: '999999' }, status: 404, error: true },
      { params: { id: 'x' }, status: 400, error: true },
    ],
  },
  'POST /api/ocs/reports': {
    schema: OcsReportResponse,
    calls: [
      { body: { queryId: 2, proposed: '北京', reason: '教材原文' }, status: 200 },
      { body: { queryId: 2 }, status: 409, error: true },
      { body: { queryId: 999999 }, status: 404, error: true },
      { body: { queryId: -1 }, status: 400, error: true },
    ],
  },

  // ---- OCS review and the 未收录 queue (mock/ocsReview.ts); question 11 is accepted, then refused ----
  'GET /api/ocs/admin/reviews': {
    schema: OcsReviewQueueResponse,
    calls: [
      { status: 200 },
      { query: { status: 'all', disputed: 'true', keyword: '首都' }, status: 200 },
      { query: { status: 'bogus' }, status: 400, error: true },
    ],
  },
  'GET /api/ocs/admin/reviews/:id': {
    schema: OcsReviewDetailResponse,
    calls: [
      { params: { id: '11' }, status: 200 },
      { params: { id: '999' }, status: 404, error: true },
    ],
  },
  'POST /api/ocs/admin/reviews/accept': {
    schema: OcsReviewAcceptResponse,
    calls: [
      { body: { items: [{ questionId: 11, answer: ['北京'] }], reason: '教材原文' }, status: 200 },
      { body: { items: [{ questionId: 11, answer: ['北京'] }], reason: '再来' }, status: 409, error: true },
      { body: { items: [], reason: 'x' }, status: 400, error: true },
      { body: { items: [{ questionId: 11, answer: ['北京'] }] }, status: 400, error: true },
    ],
  },
  'POST /api/ocs/admin/reviews/reject': {
    schema: OcsReviewRejectResponse,
    calls: [
      { body: { questionIds: [12], reason: '原答案正确' }, status: 200 },
      { body: { questionIds: [], reason: 'x' }, status: 400, error: true },
    ],
  },
  'POST /api/ocs/admin/reviews/merge': {
    schema: OcsReviewMergeResponse,
    calls: [
      { body: { targetId: 11, sourceIds: [11], reason: 'x' }, status: 400, error: true },
      { body: { targetId: 11, sourceIds: [12], reason: '同一题' }, status: 200 },
      { body: { targetId: 999, sourceIds: [11], reason: 'x' }, status: 404, error: true },
    ],
  },
  'GET /api/ocs/admin/misses': {
    schema: OcsMissListResponse,
    calls: [
      { status: 200 },
      { query: { status: 'dismissed', keyword: 'TCP' }, status: 200 },
      { query: { status: 'gone' }, status: 400, error: true },
    ],
  },
  'POST /api/ocs/admin/misses/:id/draft': {
    schema: OcsMissDraftResponse,
    calls: [
      { params: { id: '2' }, status: 200 },
      { params: { id: '999' }, status: 404, error: true },
    ],
  },
  'POST /api/ocs/admin/misses/answer': {
    schema: OcsMissAnswerResponse,
    calls: [
      { body: { items: [{ id: 1, answer: ['不是选项'] }] }, status: 400, error: true },
      { body: { items: [{ id: 1, answer: ['SYN+ACK'] }] }, status: 200 },
      { body: { items: [{ id: 1, answer: ['SYN+ACK'] }] }, status: 409, error: true },
      { body: { items: [] }, status: 400, error: true },
    ],
  },
  'POST /api/ocs/admin/misses/dismiss': {
    schema: OcsMissDismissResponse,
    calls: [
      { body: { ids: [3] }, status: 200 },
      { body: { ids: [3] }, status: 409, error: true },
      { body: { ids: [] }, status: 400, error: true },
    ],
  },

  // ---- OCS upstream banks (mock/ocsUpstream.ts); order matters: create, rename clash, delete ----
  'GET /api/ocs/admin/upstreams': { schema: OcsUpstreamListResponse, calls: [{ status: 200 }] },
  'POST /api/ocs/admin/upstreams': {
    schema: OcsUpstreamResponse,
    calls: [
      {
        body: {
          name: '新题库',
          url: 'https://t.example/q',
          method: 'get',
          answerPath: '$.data.answer',
          secret: 'abcdefghijk',
        },
        status: 200,
      },
      {
        body: { name: '新题库', url: 'https://t.example/q', method: 'get', answerPath: '$.a' },
        status: 409,
        error: true,
      },
      { body: { name: 'x y', url: 'ftp://x', method: 'put', answerPath: '' }, status: 400, error: true },
    ],
  },
  'PATCH /api/ocs/admin/upstreams/:id': {
    schema: OcsUpstreamResponse,
    calls: [
      { params: { id: '1' }, body: { enabled: false, secret: null }, status: 200 },
      { params: { id: '1' }, body: { name: '备用题库' }, status: 409, error: true },
      { params: { id: '999' }, body: {}, status: 404, error: true },
      { params: { id: '1' }, body: { timeoutMs: 1 }, status: 400, error: true },
    ],
  },
  'POST /api/ocs/admin/upstreams/:id/test': {
    schema: OcsUpstreamTestResponse,
    calls: [
      { params: { id: '1' }, body: { title: '测试', options: 'A. 北京\nB. 上海' }, status: 200 },
      { params: { id: '2' }, body: { title: '测试' }, status: 200 },
      { params: { id: '1' }, body: { title: '' }, status: 400, error: true },
    ],
  },
  'DELETE /api/ocs/admin/upstreams/:id': {
    schema: OcsUpstreamDeleteResponse,
    calls: [
      { params: { id: '2' }, status: 200 },
      { params: { id: '2' }, status: 404, error: true },
    ],
  },
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
    /** Non-JSON answers (the OCS ledger CSV). */
    send(body: unknown) {
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

  it('every mock answers an endpoint of the contract', () => {
    const declared = new Set(allEndpoints().map(([, e]) => keyOf(e)));
    expect(Object.keys(handlers).filter((k) => !declared.has(k))).toEqual([]);
  });

  it.each(Object.entries(CASES))('%s', (route, { schema, calls }) => {
    for (const c of calls) {
      const res = call(route, c.body, c.params, c.query);
      expect(res.statusCode).toBe(c.status);
      const parsed = (c.error ? ErrorEnvelope : schema).safeParse(res.body);
      if (!parsed.success) throw new Error(`${route} ${JSON.stringify(res.body)}: ${parsed.error.message}`);
    }
  });

  it('answers the roster templates, the Excel one a workbook with the header the importer reads', async () => {
    const res = fakeRes();
    await (handlers['GET /api/njit/imports/template'] as unknown as (...a: unknown[]) => Promise<void>)(
      { query: { format: 'xlsx' }, params: {}, headers: {} },
      res,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.body as ArrayBuffer);
    expect((wb.worksheets[0]!.getRow(1).values as unknown[]).slice(1)).toEqual(ROSTER_COLUMNS.map((c) => c.label));
  });

  it('the search mocks find by the words: a student by initials, masked; a bank question by its title', () => {
    const students = StudentHitsResponse.parse(call('GET /api/njit/search', undefined, {}, { q: 'zs' }).body);
    expect(students.data.map((s) => s.name)).toEqual(['张三', '张三丰']);
    expect(students.data[0].phone).toBe('138****1234');
    const bank = SearchHitsResponse.parse(call('GET /api/ocs/admin/bank/search', undefined, {}, { q: '光合' }).body);
    expect(bank.data.map((h) => h.title)).toEqual(['光合作用发生在哪个细胞器', '光合作用的产物是']);
  });

  it('logout ends the mock session: /me then answers nobody (200, success:false), as the server does', () => {
    call('POST /api/user/logout');
    const me = call('GET /api/user/me');
    expect(me.statusCode).toBe(200);
    expect(MeResponse.parse(me.body)).toMatchObject({ success: false, errorCode: 'UNAUTHORIZED' });
    call('POST /api/user/login', { username: 'admin', password: 'admin123456' });
    expect(MeResponse.parse(call('GET /api/user/me').body)).toMatchObject({ data: { username: 'admin' } });
  });

  it('lists what the account mocks changed: filters, revocations, audit rows newest first', () => {
    const found = AdminUserListResponse.parse(
      call('GET /api/user/admin/users', undefined, {}, { keyword: 'car' }).body,
    );
    expect(found.data.map((u) => u.username)).toEqual(['carol']);
    const expired = TokenListResponse.parse(call('GET /api/user/tokens', undefined, {}, { status: 'revoked' }).body);
    expect(expired.data.map((t) => t.id)).toEqual([1]);
    const audit = AuditListResponse.parse(call('GET /api/user/admin/audit').body);
    expect(audit.data[0].action).toBe('user.delete');
    expect(audit.data[0].targetName).toBe('bob');
  });

  it('OCS ledger: repeated kind filters, a balance that is the last row, a CSV of the same rows', () => {
    const all = OcsLedgerListResponse.parse(call('GET /api/ocs/ledger', undefined, {}, { pageSize: '100' }).body);
    const wallet = OcsWalletResponse.parse(call('GET /api/ocs/wallet').body);
    expect(all.data[0].balanceAfter).toBe(wallet.data.balance);
    all.data
      .slice(1)
      .forEach((older, i) => expect(all.data[i].balanceAfter).toBe(older.balanceAfter + all.data[i].amount));
    const some = OcsLedgerListResponse.parse(
      call('GET /api/ocs/ledger', undefined, {}, { pageSize: '100', kind: ['free', 'redeem'] }).body,
    );
    expect(new Set(some.data.map((l) => l.kind))).toEqual(new Set(['free', 'redeem']));
    const csv = String(call('GET /api/ocs/ledger.csv', undefined, {}, { kind: ['free', 'redeem'] }).body)
      .trim()
      .split('\r\n');
    expect(csv).toHaveLength(some.total + 1);
  });

  it('OCS first run: the sample import adds its questions once; saving the settings completes the checklist', () => {
    call('POST /api/ocs/admin/bank/sample');
    const again = OcsSampleBankImportResponse.parse(call('POST /api/ocs/admin/bank/sample').body);
    expect(again.data).toMatchObject({ inserted: 0, skipped: again.data.total });
    call('PUT /api/ocs/admin/settings', {
      bankPrice: 2,
      freeDaily: 10,
      fuzzyThreshold: 0.6,
      ratePerSecond: 10,
      rateBurst: 20,
    });
    expect(OcsSetupStatusResponse.parse(call('GET /api/ocs/admin/setup').body).data).toMatchObject({
      bank: { done: true },
      price: { done: true, bankPrice: 2 },
      complete: true,
    });
    expect(OcsOverviewResponse.parse(call('GET /api/ocs/overview').body).data.serviceReady).toEqual({
      bank: true,
      ai: true,
    });
  });

  it('answers the home page’s summaries from the same data as the pages they lead to', () => {
    const ums = UmsHomeSummaryResponse.parse(call('GET /api/ums/home-summary').body).data;
    const unreadInList = UmsMessageListResponse.parse(
      call('GET /api/ums/messages', undefined, {}, { read: 'unread', pageSize: '100' }).body,
    ).total;
    expect(ums.unread).toBe(unreadInList);
    expect(ums.latest.length).toBeLessThanOrEqual(5);
    const ocs = OcsHomeSummaryResponse.parse(call('GET /api/ocs/home-summary').body).data;
    expect(ocs.balance).toBe(OcsOverviewResponse.parse(call('GET /api/ocs/overview').body).data.balance);
    expect(ocs.admin?.reviewsWaiting).toBe(
      OcsReviewQueueResponse.parse(call('GET /api/ocs/admin/reviews', undefined, {}, { status: 'open' }).body).total,
    );
    expect(ocs.admin?.missesOpen).toBe(
      OcsMissListResponse.parse(call('GET /api/ocs/admin/misses', undefined, {}, { status: 'open' }).body).total,
    );
  });

  it('throttles repeated failed logins with 429 and Retry-After', () => {
    let res = call('POST /api/user/login', { username: 'admin', password: 'bad' });
    for (let i = 0; i < 6 && res.statusCode !== 429; i++)
      res = call('POST /api/user/login', { username: 'admin', password: 'bad' });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('900');
    expect(ErrorEnvelope.parse(res.body).errorMessage).toMatch(/次数过多/);
  });
});
