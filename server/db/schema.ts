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

export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
  api_tokens: ApiTokensTable;
  avatars: AvatarsTable;
  audit_log: AuditLogTable;
}
