/**
 * HTTP shapes of the NJIT field policy: per NJIT role and per student field, whether the field is shown
 * in full, masked or hidden, and per counselor or teacher the colleges and classes they may look up.
 * The server applies it on every path that returns student data (server/modules/njit/policy.ts).
 */
import { z } from 'zod';
import { NJIT_ROLES, ok } from './common';
import { ROSTER_COLUMNS, Student, type RosterField } from './njit';

/** Every student field a roster brings, in the roster's order. */
export const POLICY_FIELDS = ROSTER_COLUMNS.map((c) => c.field) as [RosterField, ...RosterField[]];
export const PolicyField = z.enum(POLICY_FIELDS);
export type PolicyField = RosterField;
export const POLICY_FIELD_LABELS = Object.fromEntries(ROSTER_COLUMNS.map((c) => [c.field, c.label])) as Record<
  PolicyField,
  string
>;

export const FIELD_LEVELS = ['full', 'masked', 'hidden'] as const;
export const FieldLevel = z.enum(FIELD_LEVELS);
export type FieldLevel = z.infer<typeof FieldLevel>;
export const FIELD_LEVEL_LABELS: Record<FieldLevel, string> = { full: '完整', masked: '脱敏', hidden: '隐藏' };

/**
 * Fields with a handful of values (男/女, a year, four statuses): a mask would either give the value
 * away or say nothing, so they are shown or hidden, never masked.
 */
export const UNMASKABLE_FIELDS: readonly PolicyField[] = ['gender', 'grade', 'status'];

/** Today's behaviour, for every NJIT role: phone and ID number masked (revealable), the rest in full. */
export const DEFAULT_FIELD_LEVELS: Record<PolicyField, FieldLevel> = Object.fromEntries(
  POLICY_FIELDS.map((f) => [f, f === 'phone' || f === 'idCard' ? 'masked' : 'full']),
) as Record<PolicyField, FieldLevel>;

export const NjitRoleSchema = z.enum(NJIT_ROLES, { error: '角色应为 njit、njit_counselor 或 njit_teacher' });

const FieldLevels = z
  .object(Object.fromEntries(POLICY_FIELDS.map((f) => [f, FieldLevel])) as Record<PolicyField, typeof FieldLevel>)
  .strict()
  .superRefine((levels, ctx) => {
    for (const f of UNMASKABLE_FIELDS) {
      if (levels[f] === 'masked') {
        ctx.addIssue({
          code: 'custom',
          path: [f],
          message: `「${POLICY_FIELD_LABELS[f]}」只能完整显示或隐藏，不能脱敏`,
        });
      }
    }
  });
export type FieldLevels = Record<PolicyField, FieldLevel>;

export const RoleFieldPolicy = z.object({ role: NjitRoleSchema, fields: FieldLevels });
export type RoleFieldPolicy = z.infer<typeof RoleFieldPolicy>;

export const FieldPolicyResponse = ok(z.object({ roles: z.array(RoleFieldPolicy) }));

/** The whole grid: each NJIT role once. */
export const FieldPolicyBody = z.object({
  roles: z
    .array(RoleFieldPolicy)
    .min(1, '请至少提交一个角色的字段策略')
    .max(NJIT_ROLES.length)
    .refine((rs) => new Set(rs.map((r) => r.role)).size === rs.length, '同一角色只能出现一次'),
});
export type FieldPolicyBody = z.infer<typeof FieldPolicyBody>;

/** The roles a row scope applies to (plain njit and administrators are never limited). */
export const SCOPED_ROLES = ['njit_counselor', 'njit_teacher'] as const;
export const MAX_SCOPE_ENTRIES = 200;

const ScopeName = z.string().trim().min(1, '名称不能为空').max(64, '最多 64 个字符');
const ScopeList = z
  .array(ScopeName)
  .max(MAX_SCOPE_ENTRIES, `最多 ${MAX_SCOPE_ENTRIES} 项`)
  .transform((xs) => [...new Set(xs)]);

export const UserScopeBody = z.object({ colleges: ScopeList, classes: ScopeList });
export type UserScopeBody = z.infer<typeof UserScopeBody>;

/** A counselor or teacher and what they may look up; both lists empty: every student. */
export const UserScope = z.object({
  userId: z.number().int(),
  username: z.string(),
  nickname: z.string().nullable(),
  roles: z.array(z.string()),
  colleges: z.array(z.string()),
  classes: z.array(z.string()),
});
export type UserScope = z.infer<typeof UserScope>;
export const UserScopeListResponse = ok(z.array(UserScope));
export const UserScopeResponse = ok(UserScope);
export const UserScopeParams = z.object({ userId: z.coerce.number().int().positive().max(2_147_483_647) });

export const PolicyPreviewQuery = z.object({
  role: NjitRoleSchema,
  studentNo: z.string().trim().min(1, '请输入学号').max(20, '学号最多 20 个字符'),
});
export const PolicyPreviewResponse = ok(z.object({ role: NjitRoleSchema, student: Student }));

/** What the caller's own roles let them see, so the lookup page shows only the criteria it may use. */
export const MyFieldsResponse = ok(z.object({ fields: FieldLevels, scoped: z.boolean() }));
