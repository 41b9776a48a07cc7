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
  /** false: the local password is refused, the user signs in through SSO only (migration 0011c). */
  password_login: Generated<boolean>;
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
  /** The SSO login this session came from: 'cas' with the service ticket's hash, for single logout (0011c). */
  sso_provider: string | null;
  sso_session_hash: string | null;
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
  /** "Trust this browser": until then no second factor is asked on it (migration 0011). */
  trusted_until: Date | null;
}

/** A user's TOTP (migration 0011): the secret sealed by the SecretBox, and one being set up. */
export interface UserTwoFactorTable {
  user_id: number;
  secret_enc: string | null;
  enabled_at: Date | null;
  pending_secret_enc: string | null;
  pending_created_at: Date | null;
  /** The last TOTP time step accepted: a code is never accepted twice. */
  last_step: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  updated_at: Generated<Date>;
}

export interface UserRecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  created_at: Generated<Date>;
  used_at: Date | null;
}

/** A first factor that was right, waiting for the second (migration 0011). */
export interface LoginChallengesTable {
  id_hash: string;
  user_id: number;
  remember: boolean;
  attempts: Generated<number>;
  created_at: Generated<Date>;
  expires_at: Timestamp;
  sso_provider: string | null;
  sso_session_hash: string | null;
}

/** A user's e-mail address (migration 0011b): `email` verified, `pending_email` awaiting its link. */
export interface UserEmailsTable {
  user_id: number;
  email: string | null;
  verified_at: Date | null;
  pending_email: string | null;
  pending_sent_at: Date | null;
  updated_at: Generated<Date>;
}

export interface EmailTokensTable {
  token_hash: string;
  user_id: number;
  /** A sign-in link while the account's failures make unknown browsers wait (migration 0028_login_links). */
  purpose: 'verify' | 'reset' | 'login';
  email: string;
  created_at: Generated<Date>;
  expires_at: Timestamp;
  used_at: Date | null;
}

/** A CAS or OIDC identity linked to an account (migration 0011c). */
export interface UserIdentitiesTable {
  id: Generated<number>;
  user_id: number;
  provider: 'cas' | 'oidc';
  subject: string;
  display_name: string | null;
  email: string | null;
  attributes: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  created_at: Generated<Date>;
  last_login_at: Date | null;
}

/** A sign-in started with an identity server, or an identity waiting to be linked (migration 0011c). */
export interface SsoStatesTable {
  id_hash: string;
  provider: string;
  purpose: 'login' | 'link' | 'pending';
  user_id: number | null;
  redirect: string;
  code_verifier_enc: string | null;
  nonce: string | null;
  identity: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  created_at: Generated<Date>;
  expires_at: Timestamp;
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
  /** When the owner was told it expires within a week (migration 0032_notifications). */
  expiry_told_at: Date | null;
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
  /** dingtalk | wecom | feishu | webhook | email (migration 0013). */
  kind: ColumnType<string, string | undefined, string>;
  /** A kind's settings that are not secret (a webhook's method, template, success rule). */
  config: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  /** A kind's secret settings (a webhook's request headers), sealed by the SecretBox. */
  config_enc: string | null;
  /** Quiet hours in minutes after midnight (PORTAL_TZ), both or neither (migration 0013b). */
  quiet_start: number | null;
  quiet_end: number | null;
  /** Merge what pacing would hold longer than this into one digest; null: off (migration 0013f). */
  digest_after_seconds: number | null;
  /** What its attempts are paced under (the adapter's paceKey); null until filled in at start (0027). */
  pace_key: string | null;
  /** kind email: when the address's owner agreed to receive messages; null: not yet (0027). */
  confirmed_at: Date | null;
  /** Delivery attempts failed in a row since the last delivered one (0040). */
  failures_in_row: Generated<number>;
}

/** Confirmation mails of e-mail channels, each link known by its hash (0027). */
export interface UmsEmailConfirmationsTable {
  id: Generated<number>;
  user_id: number;
  /** null once the channel is deleted: the mail still counts against the day's cap (0027). */
  channel_id: number | null;
  address_hash: string;
  token_hash: string;
  created_at: Generated<Date>;
  expires_at: Date;
  used_at: Date | null;
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
  /** 0 low, 1 normal, 2 high, 3 urgent (migration 0013b). */
  priority: Generated<number>;
  idempotency_key: string | null;
  /** The first row of a fan-out send; null for a message to one channel. */
  group_id: number | null;
  /** Channels still to try, in order, when the current one fails for good. */
  fallback: ColumnType<number[], number[] | undefined, number[]>;
  /** Where the final outcome is POSTed, and that callback's own state (migration 0013c). */
  callback_url: string | null;
  callback_status: 'pending' | 'sent' | 'failed' | null;
  callback_attempts: Generated<number>;
  callback_next_at: Date | null;
  callback_error: string | null;
  callback_sent_at: Date | null;
  /** When its owner read it in the portal's inbox; null: unread (migration 0013e). */
  read_at: Date | null;
  /** The digest this message was merged into (status `merged`, migration 0013f). */
  digest_id: number | null;
  /** The claim of the worker attempting it (status sending); its writes check it is still theirs (0027). */
  claim_id: string | null;
}

/** Message templates with {{variables}} (migration 0013d). */
export interface UmsTemplatesTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  title: Generated<string>;
  content: string;
  type: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** One callback signing secret per user (migration 0013c), sealed by the SecretBox. */
export interface UmsCallbackSecretsTable {
  user_id: number;
  secret_enc: string;
  created_at: Generated<Date>;
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
  /** What the attempt counts against for pacing: a robot's, an address's or a channel's key (0013, 0027). */
  pace_key: string | null;
  /** When it was answered (or given up on); null while in flight (0027). */
  done_at: Date | null;
}

export type NjitStudentStatus = '在读' | '休学' | '毕业' | '退学' | '离校';

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
  /** When the student graduated or left (set by a trigger, migration 0038); null for everyone else. */
  left_at: Generated<Date | null>;
}

export interface NjitImportStagingTable {
  id: string;
  user_id: number;
  file_name: string;
  total_rows: number;
  rejected_rows: number;
  created_at: Generated<Date>;
  expires_at: Timestamp;
}

/** A staged import's valid rows, a chunk at a time (a JSON array of StudentInput). */
export interface NjitImportStagingChunksTable {
  import_id: string;
  seq: number;
  rows: ColumnType<unknown, string, string>;
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

/** Per NJIT role and student field: full, masked or hidden (migration 0042). */
export interface NjitFieldPolicyTable {
  role: string;
  field: string;
  level: 'full' | 'masked' | 'hidden';
}

/** The colleges and classes a counselor or teacher may look up; both empty: no limit (migration 0042). */
export interface NjitUserScopesTable {
  user_id: number;
  colleges: ColumnType<string[], string[] | undefined, string[]>;
  classes: ColumnType<string[], string[] | undefined, string[]>;
  updated_at: Generated<Date>;
}

/** One row; its token changes with every statement that writes njit_students (migration 0019). */
export interface NjitRosterTable {
  singleton: Generated<boolean>;
  token: Generated<string>;
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

/** A field of a student's record corrected by hand (migration 0041): the next import keeps it unless told otherwise. */
export interface NjitStudentEditsTable {
  student_id: number;
  field: string;
  user_id: number | null;
  user_name: string;
  edited_at: Generated<Date>;
}

export interface NjitRevealRequestsTable {
  id: Generated<number>;
  student_id: number;
  field: 'phone' | 'idCard';
  reason: string;
  requester_id: number;
  requester_name: string;
  status: ColumnType<'pending' | 'approved' | 'refused', 'pending' | undefined, 'approved' | 'refused'>;
  decider_id: number | null;
  decider_name: string | null;
  decided_at: Date | null;
  expires_at: Date | null;
  created_at: Generated<Date>;
}

type Json<T> = ColumnType<T, string, string>;

export type OcsQuestionType = 'single' | 'multiple' | 'judgement' | 'completion' | 'any';

/** Where a bank answer came from (migration 0012 added corrected and upstream:<name>). */
export type OcsQuestionSource = 'import' | 'manual' | 'ai' | 'corrected' | `upstream:${string}`;

export interface OcsQuestionsTable {
  id: Generated<number>;
  title_hash: string;
  options_hash: string;
  norm_title: string;
  title: string;
  type: OcsQuestionType;
  options: ColumnType<string[], string | undefined, string>;
  answer: Json<string[]>;
  source: OcsQuestionSource;
  status: ColumnType<'verified' | 'unverified' | 'wrong', 'verified' | 'unverified' | 'wrong' | undefined>;
  /** 存疑: reported by several independent users, not reviewed yet (migration 0012). */
  disputed: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** How often each question answered a query (migration 0017; no row: never). */
export interface OcsQuestionHitsTable {
  question_id: number;
  hits: number;
}

/**
 * The bank's generation (migration 0021): one row, raised by every statement that changes or removes
 * ocs_questions rows, in its transaction.
 */
export interface OcsBankGenerationTable {
  id: Generated<boolean>;
  n: number;
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
  /** The answer's provenance and confidence, when answered (migration 0012). */
  source: string | null;
  confidence: number | null;
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
  /** Answers below this confidence are "not found", free (migration 0012). */
  min_confidence: Generated<number>;
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

/** A user's report of a wrong answer (migration 0012b). */
export interface OcsReportsTable {
  id: Generated<number>;
  user_id: number;
  query_id: number;
  question_id: number | null;
  answer: string;
  proposed: ColumnType<string[] | null, string | null | undefined, string | null>;
  reason: Generated<string>;
  weight: number;
  status: Generated<'open' | 'accepted' | 'rejected'>;
  merged_from: number | null;
  resolved_by: number | null;
  resolved_at: Date | null;
  resolution: string | null;
  refunded: Generated<number>;
  created_at: Generated<Date>;
}

/** What review changed on a bank question (migration 0012b). */
export interface OcsQuestionHistoryTable {
  id: Generated<number>;
  question_id: number;
  actor_id: number | null;
  actor_name: Generated<string>;
  action: string;
  before: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  after: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  reason: Generated<string>;
  created_at: Generated<Date>;
}

/** The 未收录 queue: questions that found no answer (migration 0012c). */
export interface OcsMissesTable {
  id: Generated<number>;
  title_hash: string;
  type: OcsQuestionType;
  options_hash: string;
  norm_title: string;
  title: string;
  options: ColumnType<string[], string | undefined, string>;
  count: Generated<number>;
  first_at: Generated<Date>;
  last_at: Generated<Date>;
  status: Generated<'open' | 'answered' | 'dismissed'>;
  draft: ColumnType<string[] | null, string | null | undefined, string | null>;
  draft_model: string | null;
  question_id: number | null;
  resolved_by: number | null;
  resolved_at: Date | null;
}

/** An upstream question bank (migration 0012d). */
export interface OcsUpstreamsTable {
  id: Generated<number>;
  name: string;
  enabled: Generated<boolean>;
  position: Generated<number>;
  url: string;
  method: 'get' | 'post';
  body_type: Generated<'json' | 'form'>;
  headers: ColumnType<Record<string, string>, string | undefined, string>;
  data: ColumnType<Record<string, string>, string | undefined, string>;
  answer_path: string;
  secret_enc: string | null;
  secret_masked: string | null;
  timeout_ms: Generated<number>;
  price: Generated<number>;
  daily_budget: number | null;
  breaker_threshold: Generated<number>;
  breaker_cooldown_ms: Generated<number>;
  calls: Generated<number>;
  answered: Generated<number>;
  not_found: Generated<number>;
  failures: Generated<number>;
  latency_ms_total: Generated<number>;
  last_latency_ms: number | null;
  last_error: string | null;
  last_error_at: Date | null;
  last_ok_at: Date | null;
  budget_day: ColumnType<string | null, string | null | undefined, string | null>;
  budget_used: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** What the portal told a user (migration 0032_notifications); read_at null while unread. */
export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  title: string;
  body: Generated<string>;
  link: string | null;
  created_at: Generated<Date>;
  read_at: Date | null;
}

/** A kind of notification a user turned off or forwards (migration 0039_notification_preferences); no row: on, not forwarded. */
export interface NotificationPreferencesTable {
  user_id: number;
  kind: string;
  enabled: Generated<boolean>;
  forward: Generated<boolean>;
}

/** The UMS channel a user's forwarded notifications go to (migration 0039); null once it was deleted. */
export interface NotificationForwardingTable {
  user_id: number;
  channel_id: number | null;
}

/** A user's preferences for the shell (migration 0033_user_preferences); no row: the defaults. */
export interface UserPreferencesTable {
  user_id: number;
  dark: boolean;
  compact: boolean;
  primary_color: string;
  sider_collapsed: boolean;
  updated_at: Generated<Date>;
}

export interface DB {
  users: UsersTable;
  user_preferences: UserPreferencesTable;
  notifications: NotificationsTable;
  notification_preferences: NotificationPreferencesTable;
  notification_forwarding: NotificationForwardingTable;
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
  login_devices: LoginDevicesTable;
  user_two_factor: UserTwoFactorTable;
  user_recovery_codes: UserRecoveryCodesTable;
  login_challenges: LoginChallengesTable;
  user_emails: UserEmailsTable;
  email_tokens: EmailTokensTable;
  user_identities: UserIdentitiesTable;
  sso_states: SsoStatesTable;
  api_tokens: ApiTokensTable;
  avatars: AvatarsTable;
  audit_log: AuditLogTable;
  njit_students: NjitStudentsTable;
  njit_import_staging: NjitImportStagingTable;
  njit_import_staging_chunks: NjitImportStagingChunksTable;
  njit_imports: NjitImportsTable;
  njit_audit: NjitAuditTable;
  njit_reveal_requests: NjitRevealRequestsTable;
  njit_student_edits: NjitStudentEditsTable;
  njit_roster: NjitRosterTable;
  njit_field_policy: NjitFieldPolicyTable;
  njit_user_scopes: NjitUserScopesTable;
  ums_channels: UmsChannelsTable;
  ums_messages: UmsMessagesTable;
  ums_attempts: UmsAttemptsTable;
  ums_callback_secrets: UmsCallbackSecretsTable;
  ums_templates: UmsTemplatesTable;
  ums_email_confirmations: UmsEmailConfirmationsTable;
  ocs_questions: OcsQuestionsTable;
  ocs_question_hits: OcsQuestionHitsTable;
  ocs_bank_generation: OcsBankGenerationTable;
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
  ocs_reports: OcsReportsTable;
  ocs_question_history: OcsQuestionHistoryTable;
  ocs_misses: OcsMissesTable;
  ocs_upstreams: OcsUpstreamsTable;
}
