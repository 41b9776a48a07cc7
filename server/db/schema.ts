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
  at: Generated<Date>;
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

export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
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
}
