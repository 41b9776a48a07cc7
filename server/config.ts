/**
 * Environment parsing. Every variable the server reads is declared here and documented in docs/configuration.md.
 */
import path from 'node:path';
import { z } from 'zod';
import { ROLES, type Role } from '../src/contract/common';
import { parseIpAllowList } from './lib/ip-allow';
import { parseTrustProxy, type TrustProxy } from './lib/trust-proxy';

/** An optional variable: unset and empty both mean "not configured". */
const optional = <T extends z.ZodType<string | undefined, string>>(schema: T) =>
  schema.optional().or(z.literal('').transform(() => undefined));

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** The items of a comma-separated setting, trimmed, without empty ones. */
const commaList = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
export const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  /** The embedded database's buffer cache (Postgres's shared_buffers); unset keeps its 128MB. */
  PGLITE_SHARED_BUFFERS: optional(z.string().regex(/^[1-9][0-9]{0,6}(kB|MB|GB)$/, 'a size such as 16MB or 1GB')),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  ADMIN_PASSWORD: z
    .string()
    .min(8)
    .max(128)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  REGISTRATION: z.enum(['open', 'closed']).default('open'),
  /** The proxies in front of the portal: false, true (nginx on loopback), a hop count, or their addresses. */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v, ctx): TrustProxy => {
      try {
        return parseTrustProxy(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return parseTrustProxy('false');
      }
    }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PORTAL_TZ: z.string().min(1).default('Asia/Shanghai'),
  SESSION_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  UI_DIR: z.string().min(1).default('./dist'),
  /** Registrations accepted per IP per minute (bots); 0 turns the limit off. */
  REGISTER_RATE_LIMIT: z.coerce.number().int().min(0).default(20),
  /** NJIT: days the njit audit trail is kept before pruning. */
  NJIT_AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36500).default(365),
  /** NJIT: days after graduating or leaving before a student's record is purged; 0 keeps records. */
  NJIT_STUDENT_RETENTION_DAYS: z.coerce.number().int().min(0).max(36500).default(0),
  /** Read notifications are kept this many days (unread ones until read). */
  NOTIFICATIONS_RETENTION_DAYS: z.coerce.number().int().min(1).max(36500).default(180),
  /**
   * Seconds between heartbeats of the notification streams: a comment that keeps proxies from closing
   * an idle stream, and the moment each stream's session is checked again (a signed-out tab's stream ends).
   */
  NOTIFICATIONS_STREAM_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(300).default(25),
  /**
   * NJIT four-eyes reveals: the fields (phone, idCard, comma-separated) an administrator sees in full
   * only once another administrator approved the request; empty: a reason is enough, as before.
   */
  NJIT_REVEAL_APPROVAL: z
    .string()
    .default('')
    .transform((s, ctx) => {
      const fields = commaList(s);
      for (const f of fields) {
        if (f !== 'phone' && f !== 'idCard') {
          ctx.addIssue({ code: 'custom', message: `unknown field ${f}: phone or idCard` });
          return z.NEVER;
        }
      }
      return [...new Set(fields)] as ('phone' | 'idCard')[];
    }),
  /** NJIT four-eyes reveals: minutes the requester may see an approved field. */
  NJIT_REVEAL_APPROVAL_MINUTES: z.coerce.number().int().min(1).max(1440).default(10),
  /** NJIT: student searches and detail views per user per minute; 0 turns the limit off. */
  NJIT_QUERY_RATE_LIMIT: z.coerce.number().int().min(0).default(30),
  /** Key for stored secrets (webhooks, signing secrets, API keys). Required with DATABASE_URL. */
  PORTAL_SECRET: z
    .string()
    .min(16)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /**
   * Extra webhook base URLs accepted besides the robots' own (gateways, tests); generic webhooks under
   * them may be on a private or loopback address.
   */
  UMS_WEBHOOK_ALLOWLIST: z.string().default(''),
  /**
   * Base URLs OCS upstream banks and AI providers may use although they are on a private, loopback or
   * link-local address (a model server on the campus network); every other such URL is refused.
   */
  ADMIN_URL_ALLOWLIST: z
    .string()
    .default('')
    .transform((v, ctx) => {
      const list = commaList(v);
      const bad = list.filter((s) => !/^https?:\/\/[^/?#\s]+/i.test(s));
      if (bad.length) ctx.addIssue({ code: 'custom', message: `not http(s) base URLs: ${bad.join(', ')}` });
      return list;
    }),
  UMS_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(180),
  UMS_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  /** UMS: delivery attempts a channel fails in a row before administrators are told; 0: never. */
  UMS_CHANNEL_FAILING_NOTIFY_AT: z.coerce.number().int().min(0).max(10_000).default(5),
  /** Base delay of the exponential backoff for transient failures. */
  UMS_RETRY_BASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  UMS_SEND_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** Messages per minute per DingTalk or WeCom robot (both document 20), enforced before they do; 0 turns it off. */
  UMS_ROBOT_PER_MINUTE: z.coerce.number().int().min(0).max(10_000).default(20),
  /** Messages per minute per Feishu robot (Feishu documents 100 a minute and 5 a second); 0 turns it off. */
  UMS_FEISHU_PER_MINUTE: z.coerce.number().int().min(0).max(10_000).default(100),
  /** E-mails per minute per recipient address, whichever channels send them; 0 turns it off. */
  UMS_EMAIL_PER_MINUTE: z.coerce.number().int().min(0).max(10_000).default(10),
  /** SMTP server of the e-mail channel (smtp://user:pass@host:587, smtps://…:465); unset: no e-mail channel. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, 'must be an smtp:// or smtps:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Sender of UMS e-mail (`统一门户 <portal@example.edu>`); default: the SMTP user, or portal@localhost. */
  SMTP_FROM: z.string().max(320).optional(),
  /** Different addresses a user may have sent e-mail channel confirmation mails to in a day (PORTAL_TZ). */
  UMS_EMAIL_NEW_ADDRESSES_PER_DAY: z.coerce.number().int().min(1).max(10_000).default(5),
  UMS_TOKEN_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(60),
  UMS_TOKEN_BURST: z.coerce.number().int().min(0).max(100_000).default(20),
  /**
   * Messages a user may queue a minute, however sent (UI, token API, ServerChan/PushPlus), one per channel
   * of a fan-out; at least 10 (the widest fan-out), 0 turns it off.
   */
  UMS_USER_PER_MINUTE: z.coerce
    .number()
    .int()
    .refine((n) => n === 0 || (n >= 10 && n <= 100_000), 'must be 0 or 10 to 100000')
    .default(120),
  /** Scheduled messages (sendAt in the future) a user may have waiting at once; 0 turns it off. */
  UMS_USER_MAX_SCHEDULED: z.coerce.number().int().min(0).max(1_000_000).default(500),
  /** Run the delivery worker in this instance. */
  UMS_WORKER: bool.default(true),
  /**
   * The portal's public base URL (e.g. https://portal.example.edu), used in generated OCS configs and the
   * userscript. Unset: derived from each request's protocol and Host header.
   */
  PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^/?#]+(\/[^?#]*)?$/, 'must be an http:// or https:// URL without query')
    .transform((v) => v.replace(/\/+$/, ''))
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /**
   * Redis for the rate limits shared by N instances (redis://…); without it they live in the database
   * (PostgreSQL) or, on the embedded database, in memory.
   */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /**
   * Embedded database: how often the tables that changed enough get VACUUM / ANALYZE (what PostgreSQL's
   * autovacuum does; PGlite has none). 0 turns it off. Ignored with DATABASE_URL.
   */
  DB_MAINTENANCE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(86_400_000)
    .refine((v) => v === 0 || v >= 1_000, 'at least 1000 (ms), or 0 to turn it off')
    .default(10_000),
  /** OCS: how often each instance picks up questions added or changed by others for its fuzzy index. */
  OCS_INDEX_REFRESH_MS: z.coerce.number().int().min(100).max(3_600_000).default(5_000),
  /** OCS: open 未收录 questions at which administrators are told the queue is growing; 0: never. */
  OCS_MISSES_NOTIFY_AT: z.coerce.number().int().min(0).max(1_000_000).default(100),
  /** Bearer token that opens /metrics (Prometheus). Unset: only METRICS_ALLOW addresses may scrape. */
  METRICS_TOKEN: z
    .string()
    .min(16)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** IPs and CIDR blocks (comma-separated) that may scrape /metrics without the token. Default: none. */
  METRICS_ALLOW: z
    .string()
    .default('')
    .superRefine((v, ctx) => {
      try {
        parseIpAllowList(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
      }
    }),

  // ---------- institutional sign-in: e-mail, two-factor, CAS, OIDC ----------
  // E-mail verification and password reset send through SMTP_URL / SMTP_FROM (above).
  /** Roles that must use two-factor sign-in: `admin,njit`, or `true` for exactly those two; empty: none. */
  REQUIRE_2FA_ROLES: z
    .string()
    .default('')
    .transform((v, ctx) => {
      const value = v.trim();
      if (value === '' || value === 'false') return [] as Role[];
      if (value === 'true') return [...ROLES];
      const roles = value.split(',').map((r) => r.trim());
      const unknown = roles.filter((r) => !(ROLES as readonly string[]).includes(r));
      if (unknown.length) ctx.addIssue({ code: 'custom', message: `unknown role(s): ${unknown.join(', ')}` });
      return [...new Set(roles)] as Role[];
    }),
  /** CAS server base URL (https://cas.example.edu/cas): /login, /serviceValidate, /p3/serviceValidate. */
  CAS_URL: optional(
    z
      .string()
      .regex(/^https?:\/\/[^?#]+$/, 'must be an http:// or https:// URL without query')
      .transform((v) => v.replace(/\/+$/, '')),
  ),
  /** CAS protocol version: 3 validates at /p3/serviceValidate (with attributes), 2 at /serviceValidate. */
  CAS_VERSION: z.enum(['2', '3']).default('3'),
  /** A CAS whose usernames differ by case alone (JDOE and jdoe two people): match them exactly. */
  CAS_CASE_SENSITIVE: bool.default(false),
  /** Text of the login page's CAS button. */
  CAS_BUTTON: z.string().trim().min(1).max(32).default('统一身份认证登录'),
  /** OpenID Connect issuer (discovery at ISSUER/.well-known/openid-configuration). */
  OIDC_ISSUER: optional(z.string().regex(/^https?:\/\/[^?#]+$/, 'must be an http:// or https:// URL')),
  OIDC_CLIENT_ID: optional(z.string().min(1)),
  OIDC_CLIENT_SECRET: optional(z.string().min(1)),
  /** Scopes asked of the OIDC provider. */
  OIDC_SCOPES: z.string().trim().min(1).default('openid profile email'),
  /** Text of the login page's OIDC button. */
  OIDC_BUTTON: z.string().trim().min(1).max(32).default('使用 OIDC 登录'),
  /** An unknown SSO identity gets a new account at once (true) or must be linked to an existing one (false). */
  SSO_AUTO_CREATE: bool.default(false),
  /** `attribute=value:role` rules separated by `;` (CAS attributes, OIDC claims), e.g. `type=staff:njit`. */
  SSO_ROLE_MAP: z
    .string()
    .default('')
    .transform((v, ctx) => {
      try {
        return parseRoleMap(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return [];
      }
    }),
  /** Timeout of one request to the CAS server or the OIDC provider. */
  SSO_TIMEOUT_MS: z.coerce.number().int().min(500).max(60_000).default(10_000),
});

export type Config = z.infer<typeof ConfigSchema> & { dataDir: string; uiDir: string };

/** One rule of SSO_ROLE_MAP: an identity whose `attribute` has `value` (or contains it) gets `role`. */
export interface RoleRule {
  attribute: string;
  value: string;
  role: Role;
}

/** `type=staff:njit; memberOf=cn=admins,ou=groups:admin`: the role after the last `:`, the attribute before the first `=`. */
export function parseRoleMap(text: string): RoleRule[] {
  return text
    .split(';')
    .map((r) => r.trim())
    .filter(Boolean)
    .map((rule) => {
      const colon = rule.lastIndexOf(':');
      const eq = rule.indexOf('=');
      if (colon < 0 || eq <= 0 || eq > colon) throw new Error(`"${rule}" is not attribute=value:role`);
      const role = rule.slice(colon + 1).trim();
      if (!(ROLES as readonly string[]).includes(role)) throw new Error(`"${rule}": unknown role ${role}`);
      return { attribute: rule.slice(0, eq).trim(), value: rule.slice(eq + 1, colon).trim(), role: role as Role };
    });
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.superRefine((c, ctx) => {
    if (c.OIDC_ISSUER && (!c.OIDC_CLIENT_ID || !c.OIDC_CLIENT_SECRET)) {
      ctx.addIssue({ code: 'custom', path: ['OIDC_ISSUER'], message: 'needs OIDC_CLIENT_ID and OIDC_CLIENT_SECRET' });
    }
  }).safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  return {
    ...parsed.data,
    dataDir: path.resolve(parsed.data.DATA_DIR),
    uiDir: path.resolve(parsed.data.UI_DIR),
  };
}
