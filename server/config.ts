/**
 * Environment parsing. Every variable the server reads is declared here and documented in README.md.
 */
import path from 'node:path';
import { z } from 'zod';
import { parseIpAllowList } from './lib/ip-allow';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

export const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
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
  TRUST_PROXY: bool.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PORTAL_TZ: z.string().min(1).default('Asia/Shanghai'),
  SESSION_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  UI_DIR: z.string().min(1).default('./dist'),
  /** Registrations accepted per IP per minute (bots); 0 turns the limit off. */
  REGISTER_RATE_LIMIT: z.coerce.number().int().min(0).default(20),
  /** NJIT: days the njit audit trail is kept before pruning. */
  NJIT_AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36500).default(365),
  /** NJIT: student searches and detail views per user per minute; 0 turns the limit off. */
  NJIT_QUERY_RATE_LIMIT: z.coerce.number().int().min(0).default(30),
  /** Key for stored secrets (webhooks, signing secrets, API keys). Required with DATABASE_URL. */
  PORTAL_SECRET: z
    .string()
    .min(16)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Extra webhook base URLs accepted besides https://oapi.dingtalk.com/robot/send (gateways, tests). */
  UMS_WEBHOOK_ALLOWLIST: z.string().default(''),
  UMS_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(180),
  UMS_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  /** Base delay of the exponential backoff for transient failures. */
  UMS_RETRY_BASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  UMS_SEND_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** Messages per minute per DingTalk robot, enforced before DingTalk does; 0 turns it off. */
  UMS_ROBOT_PER_MINUTE: z.coerce.number().int().min(0).max(10_000).default(20),
  UMS_TOKEN_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(60),
  UMS_TOKEN_BURST: z.coerce.number().int().min(0).max(100_000).default(20),
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
  /** OCS: how often each instance picks up questions added or changed by others for its fuzzy index. */
  OCS_INDEX_REFRESH_MS: z.coerce.number().int().min(100).max(3_600_000).default(5_000),
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
});

export type Config = z.infer<typeof ConfigSchema> & { dataDir: string; uiDir: string };

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
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
