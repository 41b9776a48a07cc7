/**
 * OCS upstream banks HTTP shapes (administrators): other AnswererWrapper-compatible question
 * banks the portal asks on a miss, before the AI. The request is described as OCS configs describe it
 * (URL, method, parameter template with ${title}, ${type}, ${options}, headers); the answer is picked
 * from the JSON reply with a JSONPath instead of running the config's handler. A secret (a token the
 * upstream wants) is write-only and goes where the template says ${secret}.
 */
import { z } from 'zod';
import { OkEmpty, ok } from './common';

const Iso = z.string();
const Templates = (what: string, max: number) =>
  z
    .record(
      z.string().trim().min(1, `${what}名称不能为空`).max(100, `${what}名称过长`),
      z.string().max(2000, `${what}的值过长`),
    )
    .refine((r) => Object.keys(r).length <= max, `${what}最多 ${max} 项`);

export const UPSTREAM_PLACEHOLDERS = ['title', 'type', 'options', 'secret'] as const;

export const UpstreamBody = z.object({
  name: z
    .string({ error: '请输入名称' })
    .trim()
    .min(1, '请输入名称')
    .max(64, '名称最多 64 个字符')
    .regex(/^[^\s:]+$/, '名称不能含空格或冒号'),
  enabled: z.boolean().default(true),
  /** Upstreams are asked in ascending position (then id): the order breaks ties between them. */
  position: z.number().int('须为整数').min(0, '不能小于 0').max(1000, '不能超过 1000').default(0),
  url: z
    .string({ error: '请输入接口地址' })
    .trim()
    .min(1, '请输入接口地址')
    .max(1000, '接口地址过长')
    .regex(/^https?:\/\/\S+$/i, '接口地址须以 http:// 或 https:// 开头'),
  method: z.enum(['get', 'post'], { error: '请选择请求方法' }),
  /** How a POST sends `data`: JSON, or a form. */
  bodyType: z.enum(['json', 'form']).default('json'),
  headers: Templates('请求头', 20).default({}),
  /** The parameters, values with ${title}/${type}/${options}/${secret} (GET: the query string). */
  data: Templates('参数', 30).default({}),
  /** JSONPath of the answer in the reply (jsonpath-plus), e.g. $.data.answer; an array is joined with #. */
  answerPath: z.string({ error: '请输入答案路径' }).trim().min(1, '请输入答案路径').max(500, '答案路径过长'),
  /** Write-only; null removes it. */
  secret: z.string().trim().max(500, '密钥过长').nullable().optional(),
  timeoutMs: z.number().int('须为整数').min(200, '不能少于 200 毫秒').max(20_000, '不能超过 20000 毫秒').default(5000),
  /** Points charged for an answer from this upstream. */
  price: z.number().int('须为整数').min(0, '不能为负').max(1_000_000, '单价过大').default(1),
  /** Calls a day (PORTAL_TZ), all instances together; null: no limit. */
  dailyBudget: z.number().int('须为整数').min(1, '至少为 1').max(10_000_000, '过大').nullable().default(null),
  /** Consecutive failures that open the circuit breaker, and how long it stays open. */
  breakerThreshold: z.number().int('须为整数').min(1, '至少为 1').max(100, '不能超过 100').default(5),
  breakerCooldownSeconds: z.number().int('须为整数').min(5, '至少 5 秒').max(3600, '不能超过 3600 秒').default(30),
});
export type UpstreamBody = z.input<typeof UpstreamBody>;
export const UpstreamPatchBody = UpstreamBody.partial();
export type UpstreamPatchBody = z.input<typeof UpstreamPatchBody>;

export const UpstreamBreaker = z.object({
  state: z.enum(['closed', 'open', 'half_open']),
  consecutiveFailures: z.number().int(),
  openUntil: Iso.nullable(),
});
export const UPSTREAM_BREAKER_LABELS = { closed: '正常', open: '已熔断', half_open: '试探中' } as const;

export const UpstreamStats = z.object({
  calls: z.number().int(),
  answered: z.number().int(),
  notFound: z.number().int(),
  failures: z.number().int(),
  /** Calls that got a usable reply (an answer or a clear "not found"), of all calls; null before any. */
  successRate: z.number().nullable(),
  /** Calls that gave an answer, of all calls. */
  answerRate: z.number().nullable(),
  avgLatencyMs: z.number().nullable(),
  lastLatencyMs: z.number().int().nullable(),
  lastError: z.string().nullable(),
  lastErrorAt: Iso.nullable(),
  lastOkAt: Iso.nullable(),
  budgetUsedToday: z.number().int(),
});

export const Upstream = z.object({
  id: z.number().int(),
  name: z.string(),
  enabled: z.boolean(),
  position: z.number().int(),
  url: z.string(),
  method: z.enum(['get', 'post']),
  bodyType: z.enum(['json', 'form']),
  headers: z.record(z.string(), z.string()),
  data: z.record(z.string(), z.string()),
  answerPath: z.string(),
  /** `ab…yz` when a secret is stored. */
  secretMasked: z.string().nullable(),
  timeoutMs: z.number().int(),
  price: z.number().int(),
  dailyBudget: z.number().int().nullable(),
  breakerThreshold: z.number().int(),
  breakerCooldownSeconds: z.number().int(),
  stats: UpstreamStats,
  /** As this server instance sees it. */
  breaker: UpstreamBreaker,
  createdAt: Iso,
  updatedAt: Iso,
});
export type Upstream = z.infer<typeof Upstream>;
export const UpstreamListResponse = ok(z.array(Upstream));
export const UpstreamResponse = ok(Upstream);
export const UpstreamDeleteResponse = OkEmpty;

export const UpstreamTestBody = z.object({
  title: z.string({ error: '请输入题目' }).trim().min(1, '请输入题目').max(2000, '题目过长'),
  type: z.enum(['single', 'multiple', 'judgement', 'completion', 'any']).default('any'),
  options: z.string().max(20_000, '选项过长').default(''),
});
export type UpstreamTestBody = z.input<typeof UpstreamTestBody>;
export const UpstreamTestResult = z.object({
  outcome: z.enum(['answered', 'not_found', 'failed']),
  /** In the test question's options when it maps to them. */
  answer: z.string().nullable(),
  error: z.string().nullable(),
  status: z.number().int().nullable(),
  latencyMs: z.number().int(),
  /** A short excerpt of the reply (at most 200 characters), for checking the answer path. */
  body: z.string().nullable(),
});
export type UpstreamTestResult = z.infer<typeof UpstreamTestResult>;
export const UpstreamTestResponse = ok(UpstreamTestResult);

/**
 * What an OCS AnswererWrapper (one object, or the first of an array) gives an upstream form: URL,
 * method, headers and parameter template. Its handler is not run; the answer path must be set by hand.
 * Throws a Chinese message when the text is not such a config.
 */
export function upstreamFromWrapper(text: string): Partial<z.input<typeof UpstreamBody>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('不是有效的 JSON');
  }
  const w = (Array.isArray(parsed) ? parsed[0] : parsed) as Record<string, unknown> | undefined;
  if (!w || typeof w !== 'object' || typeof w.url !== 'string') throw new Error('没有找到题库配置的 url');
  const strings = (v: unknown): Record<string, string> =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, typeof x === 'string' ? x : String(x)]),
        )
      : {};
  return {
    ...(typeof w.name === 'string' ? { name: w.name.replace(/[\s:]+/g, '-').slice(0, 64) } : {}),
    url: w.url,
    method: String(w.method).toLowerCase() === 'post' ? 'post' : 'get',
    headers: strings(w.headers),
    data: strings(w.data),
  };
}
