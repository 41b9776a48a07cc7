/** Kysely table types. One interface per table, named as the table. */
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export type UserStatus = 'active' | 'disabled' | 'deleted';

export interface UsersTable {
  id: Generated<number>;
  username: string;
  nickname: string | null;
  avatar: string | null;
  password_hash: string;
  roles: ColumnType<string[], string[] | undefined, string[]>;
  /** deleted: anonymised tombstone kept so ledgers and message history still point somewhere. */
  status: ColumnType<UserStatus, UserStatus | undefined, UserStatus>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  last_login_at: Date | null;
}

export interface SessionsTable {
  /** Public handle for listing and ending sessions; the secret is only ever stored as id_hash. */
  id: Generated<number>;
  id_hash: string;
  user_id: number;
  persistent: boolean;
  created_at: Generated<Date>;
  last_seen_at: Generated<Date>;
  expires_at: Timestamp;
  user_agent: string | null;
  ip: string | null;
}

export interface LoginFailuresTable {
  id: Generated<number>;
  username: string;
  ip: string;
  /** sha256 of the browser's device cookie when it sent one (migration 0010). */
  device: string | null;
  at: Generated<Date>;
}

/** Browsers that signed in to an account before (migration 0010): sha256 of the device cookie. */
export interface LoginDevicesTable {
  id_hash: string;
  user_id: number;
  created_at: Generated<Date>;
  last_used_at: Generated<Date>;
}

export interface ApiTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  prefix: string;
  token_hash: string;
  scopes: ColumnType<string[], string[], string[]>;
  created_at: Generated<Date>;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  last_used_ip: string | null;
}

export interface AvatarsTable {
  user_id: number;
  content: Buffer;
  mime: string;
  version: number;
  updated_at: Generated<Date>;
}

export interface AuditLogTable {
  id: Generated<number>;
  actor_id: number | null;
  actor_name: string;
  action: string;
  target_type: string;
  target_id: string | null;
  target_name: string | null;
  before: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  after: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  ip: string | null;
  created_at: Generated<Date>;
}

export interface UmsChannelsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  webhook_enc: string;
  webhook_masked: string;
  secret_enc: string | null;
  secret_masked: string | null;
  keyword: string | null;
  is_default: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  throttled_until: Date | null;
  last_success_at: Date | null;
  last_error_at: Date | null;
  last_error: string | null;
}

export interface UmsMessagesTable {
  id: Generated<number>;
  user_id: number;
  channel_id: number | null;
  type: string;
  title: string;
  content: string;
  extra: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  status: string;
  attempts: Generated<number>;
  send_at: Date | null;
  next_attempt_at: Date | null;
  locked_until: Date | null;
  last_error: string | null;
  source: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  delivered_at: Date | null;
}

export interface UmsAttemptsTable {
  id: Generated<number>;
  message_id: number;
  channel_id: number | null;
  at: Date;
  http_status: number | null;
  errcode: number | null;
  errmsg: string | null;
  /** Technical detail of a failure (error code and message); null when DingTalk answered in JSON. */
  detail: string | null;
  duration_ms: number;
  outcome: string;
}

export type NjitStudentStatus = '在读' | '休学' | '毕业' | '退学';

export interface NjitStudentsTable {
  id: Generated<number>;
  student_no: string;
  name: string;
  name_pinyin: string;
  name_initials: string;
  gender: '男' | '女' | null;
  college: string | null;
  major: string | null;
  class_name: string | null;
  grade: number | null;
  status: NjitStudentStatus;
  phone: string | null;
  id_card: string | null;
  dormitory: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface NjitImportStagingTable {
  id: string;
  user_id: number;
  file_name: string;
  total_rows: number;
  rejected_rows: number;
  rows: ColumnType<unknown, string, string>;
  created_at: Generated<Date>;
  expires_at: Timestamp;
}

export interface NjitImportsTable {
  id: Generated<number>;
  user_id: number | null;
  user_name: string;
  file_name: string;
  total_rows: number;
  inserted: number;
  updated: number;
  rejected: number;
  created_at: Generated<Date>;
}

export interface NjitAuditTable {
  id: Generated<number>;
  user_id: number | null;
  user_name: string;
  action: string;
  ip: string | null;
  criteria: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  result_count: number | null;
  record_ids: ColumnType<number[], number[] | undefined, number[]>;
  reason: string | null;
  created_at: Generated<Date>;
}

type Json<T> = ColumnType<T, string, string>;

export type OcsQuestionType = 'single' | 'multiple' | 'judgement' | 'completion' | 'any';

export interface OcsQuestionsTable {
  id: Generated<number>;
  title_hash: string;
  options_hash: string;
  norm_title: string;
  title: string;
  type: OcsQuestionType;
  options: ColumnType<string[], string | undefined, string>;
  answer: Json<string[]>;
  source: 'import' | 'manual' | 'ai';
  status: ColumnType<'verified' | 'unverified' | 'wrong', 'verified' | 'unverified' | 'wrong' | undefined>;
  hit_count: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface OcsWalletsTable {
  user_id: number;
  balance: Generated<number>;
  updated_at: Generated<Date>;
}

export type OcsLedgerKind = 'charge' | 'topup' | 'free' | 'redeem' | 'adjust' | 'refund';

export interface OcsLedgerTable {
  id: Generated<number>;
  user_id: number;
  kind: OcsLedgerKind;
  amount: number;
  balance_after: number;
  memo: Generated<string>;
  query_id: number | null;
  actor_id: number | null;
  created_at: Generated<Date>;
}

export type OcsOutcome = 'bank' | 'ai' | 'cache' | 'miss' | 'no_balance' | 'error';

export interface OcsQueriesTable {
  id: Generated<number>;
  user_id: number;
  token_id: number | null;
  title: string;
  title_hash: string;
  type: string;
  outcome: OcsOutcome;
  question_id: number | null;
  answer: string | null;
  cost: Generated<number>;
  model_id: number | null;
  message: string | null;
  created_at: Generated<Date>;
}

export interface OcsSettingsTable {
  key: string;
  value: Json<unknown>;
  updated_at: Generated<Date>;
}

export interface OcsProvidersTable {
  id: Generated<number>;
  name: string;
  base_url: string;
  api_key_enc: string;
  api_key_masked: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface OcsModelsTable {
  id: Generated<number>;
  provider_id: number;
  model: string;
  display_name: string;
  price: number;
  enabled: Generated<boolean>;
  timeout_ms: Generated<number>;
  max_tokens: number | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface OcsPreferencesTable {
  user_id: number;
  prompt_template: string | null;
  model_id: number | null;
  strategy: Generated<'bank_ai' | 'bank' | 'ai'>;
  daily_ai_cap: number | null;
  updated_at: Generated<Date>;
}

export interface OcsFreeClaimsTable {
  user_id: number;
  day: ColumnType<string, string, string>;
  amount: number;
  created_at: Generated<Date>;
}

export interface OcsRedeemBatchesTable {
  id: Generated<number>;
  note: Generated<string>;
  value: number;
  max_uses: number;
  code_count: number;
  expires_at: Date | null;
  disabled: Generated<boolean>;
  downloaded_at: Date | null;
  created_by: number | null;
  created_at: Generated<Date>;
}

export interface OcsRedeemCodesTable {
  id: Generated<number>;
  batch_id: number;
  code_hash: string;
  code_enc: string | null;
  uses: Generated<number>;
}

export interface OcsRedemptionsTable {
  code_id: number;
  user_id: number;
  created_at: Generated<Date>;
}

export interface OcsRedeemFailuresTable {
  id: Generated<number>;
  user_id: number;
  at: Generated<Date>;
}

export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
  login_devices: LoginDevicesTable;
  api_tokens: ApiTokensTable;
  avatars: AvatarsTable;
  audit_log: AuditLogTable;
  njit_students: NjitStudentsTable;
  njit_import_staging: NjitImportStagingTable;
  njit_imports: NjitImportsTable;
  njit_audit: NjitAuditTable;
  ums_channels: UmsChannelsTable;
  ums_messages: UmsMessagesTable;
  ums_attempts: UmsAttemptsTable;
  ocs_questions: OcsQuestionsTable;
  ocs_wallets: OcsWalletsTable;
  ocs_ledger: OcsLedgerTable;
  ocs_queries: OcsQueriesTable;
  ocs_settings: OcsSettingsTable;
  ocs_providers: OcsProvidersTable;
  ocs_models: OcsModelsTable;
  ocs_preferences: OcsPreferencesTable;
  ocs_free_claims: OcsFreeClaimsTable;
  ocs_redeem_batches: OcsRedeemBatchesTable;
  ocs_redeem_codes: OcsRedeemCodesTable;
  ocs_redemptions: OcsRedemptionsTable;
  ocs_redeem_failures: OcsRedeemFailuresTable;
}
