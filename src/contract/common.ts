/**
 * Shapes shared by every HTTP call: the response envelope, roles and list paging.
 * Imported by the UI services, by mock/ and by the server — the single source of truth.
 */
import { z } from 'zod';

// Validation messages reach Chinese-speaking users in field errors; schema-specific messages override these.
z.config(z.locales.zhCN());
// In a browser the portal's CSP forbids eval, so zod's faster compiled parsers are out of reach there, and
// its probe for them (new Function) is refused and reported as a CSP violation: it is told not to try.
if (typeof window !== 'undefined') z.config({ jitless: true });

export const ROLES = ['admin', 'njit', 'njit_counselor', 'njit_teacher'] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

export { NJIT_ROLES, hasNjitRole, type NjitRole } from './njitRoles';

/** Ant Design Pro's showType: 0 silent, 1 warning, 2 error message, 4 notification, 9 redirect. */
export const ErrorEnvelope = z.object({
  success: z.literal(false),
  errorCode: z.string(),
  errorMessage: z.string(),
  showType: z.number().int().optional(),
  /** For 400s: field path -> messages. */
  data: z.record(z.string(), z.array(z.string())).optional(),
  /** For 5xx: the request's id (also its X-Request-Id header), for the user to quote to an operator. */
  requestId: z.string().optional(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

export function ok<T extends z.ZodTypeAny>(data: T) {
  return z.object({ success: z.literal(true), data });
}

export const OkEmpty = z.object({ success: z.literal(true) });

/** A row's id (a PostgreSQL integer): a larger number names no row and is refused, not looked up. */
export const RowId = z.number().int().positive().max(2_147_483_647);

export const PageQuery = z.object({
  current: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
});
export type PageQuery = z.infer<typeof PageQuery>;

export function page<T extends z.ZodTypeAny>(item: T) {
  return z.object({
    success: z.literal(true),
    data: z.array(item),
    total: z.number().int(),
    current: z.number().int(),
    pageSize: z.number().int(),
  });
}

export const Health = ok(
  z.object({
    status: z.enum(['ok', 'degraded']),
    database: z.enum(['ok', 'down']),
    version: z.string(),
    uptimeSeconds: z.number(),
  }),
);
export type Health = z.infer<typeof Health>;

/** Liveness: the process answers (no database involved). */
export const HealthLive = ok(
  z.object({
    status: z.literal('ok'),
    version: z.string(),
    uptimeSeconds: z.number(),
  }),
);
export type HealthLive = z.infer<typeof HealthLive>;

export const ReadinessCheck = z.enum(['database', 'migrations', 'ui']);
export type ReadinessCheck = z.infer<typeof ReadinessCheck>;

/** Readiness (HTTP 200, or 503 naming the failed checks): database, migrations applied, UI built. */
export const HealthReady = ok(
  z.object({
    status: z.enum(['ready', 'not_ready']),
    checks: z.object({
      database: z.enum(['ok', 'down']),
      /** `unknown` while the database is down. */
      migrations: z.enum(['ok', 'pending', 'unknown']),
      /** `missing`: no index.html under UI_DIR. */
      ui: z.enum(['ok', 'missing']),
    }),
    failed: z.array(ReadinessCheck),
    /** Migrations of this build the database has not applied. */
    pendingMigrations: z.array(z.string()),
    version: z.string(),
  }),
);
export type HealthReady = z.infer<typeof HealthReady>;
