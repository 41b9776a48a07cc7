/**
 * OCS configuration: the AnswererWrapper array the OCS userscript reads to use this portal as a
 * question bank, the subscription route's query string, and the script-info answer for the pages.
 * Pure (no node or browser APIs): the config page, the mocks and the server build the same JSON.
 */
import { z } from 'zod';
import { ok } from './common';

/** Where the OCS script asks (GET and POST, and their CORS preflight): the descriptors in api/ocs.ts use it. */
export const OCS_QUERY_PATH = '/api/ocs/query';

export const OCS_REQUEST_TYPES = ['GM_xmlhttpRequest', 'fetch'] as const;
export const OcsRequestType = z.enum(OCS_REQUEST_TYPES);
export type OcsRequestType = z.infer<typeof OcsRequestType>;

export const OCS_METHODS = ['get', 'post'] as const;
export const OcsMethod = z.enum(OCS_METHODS);
export type OcsMethod = z.infer<typeof OcsMethod>;

export const OCS_ANSWERER_NAME = 'Portal 题库';

/**
 * OCS evaluates this string: its body returns a function of the parsed response that yields
 * [question, answer]; an undefined answer tells OCS this bank found nothing.
 */
export const OCS_HANDLER = 'return (res) => res.code === 1 ? [res.question, res.answer] : [res.msg, undefined]';

/**
 * The same, with the answer's source and confidence after the question (「…〔已核实 98%〕」), which is
 * what OCS shows in its answer panel; the answer itself, which OCS fills in, is untouched.
 */
export const OCS_HANDLER_DETAIL =
  'return (res) => { if (res.code !== 1) return [res.msg, undefined]; ' +
  "var s = String(res.source || ''); " +
  "var l = { import: '题库', verified: '已核实', ai: 'AI', corrected: '已纠错' }[s] || " +
  "(s.indexOf('upstream:') === 0 ? '上游 ' + s.slice(9) : s); " +
  "var c = typeof res.confidence === 'number' ? ' ' + Math.round(res.confidence * 100) + '%' : ''; " +
  "return [res.question + (l || c ? '〔' + l + c + '〕' : ''), res.answer]; }";

/** The shape ocsjs accepts for one question-bank entry (its `AnswererWrapper` interface). */
export const AnswererWrapper = z.object({
  name: z.string(),
  homepage: z.string().optional(),
  url: z.string(),
  method: OcsMethod,
  type: OcsRequestType,
  contentType: z.enum(['json', 'text']),
  headers: z.record(z.string(), z.string()).optional(),
  /** Values may hold ${title}, ${type} and ${options}, which OCS fills in per question. */
  data: z.record(z.string(), z.string()).optional(),
  handler: z.string(),
});
export type AnswererWrapper = z.infer<typeof AnswererWrapper>;

/** GET /api/ocs/config answers the bare array: OCS reads it as is, so no envelope. */
export const OcsConfigResponse = z.array(AnswererWrapper);

/**
 * GET /api/ocs/config query string. `token` is what a subscription URL carries; it is optional in the
 * schema only so that a missing token (or one sent as Bearer) is judged by the auth layer (401),
 * not by validation (400).
 */
export const OcsConfigQuery = z.object({
  token: z.string().max(200).optional(),
  type: OcsRequestType.default('GM_xmlhttpRequest'),
  method: OcsMethod.default('get'),
  /** 1: the handler shows each answer's source and confidence in OCS's answer panel. */
  detail: z.enum(['0', '1']).default('0'),
});
export type OcsConfigQuery = z.input<typeof OcsConfigQuery>;

export interface AnswererConfigInput {
  /** The portal's base URL, no trailing slash. */
  baseUrl: string;
  token: string;
  requestType: OcsRequestType;
  method: OcsMethod;
  /** Show source and confidence in OCS's answer panel (OCS_HANDLER_DETAIL). */
  detail?: boolean;
}

export function buildAnswererConfig({
  baseUrl,
  token,
  requestType,
  method,
  detail = false,
}: AnswererConfigInput): AnswererWrapper[] {
  return [
    {
      name: OCS_ANSWERER_NAME,
      homepage: `${baseUrl}/OCS/overview`,
      url: `${baseUrl}${OCS_QUERY_PATH}`,
      method,
      type: requestType,
      contentType: 'json',
      data: { title: '${title}', type: '${type}', options: '${options}', token },
      handler: detail ? OCS_HANDLER_DETAIL : OCS_HANDLER,
    },
  ];
}

/**
 * What the subscription URL answers when it cannot give a config (the token is revoked, unknown or
 * lacks its scope; a parameter is wrong): still the array the script's import spreads (anything else
 * shows its "Spread syntax requires…" error), holding one entry named after the problem, whose handler
 * also says it for every question if the user imports it anyway.
 */
export function refusalConfig(baseUrl: string, message: string): AnswererWrapper[] {
  return [
    {
      name: message,
      homepage: `${baseUrl}/OCS/configGen`,
      url: `${baseUrl}${OCS_QUERY_PATH}`,
      method: 'get',
      type: 'fetch',
      contentType: 'json',
      data: {},
      handler: `return () => [${JSON.stringify(message)}, undefined]`,
    },
  ];
}

export interface OcsSample {
  title: string;
  type: string;
  options: string;
}

/**
 * Substitutes ${title}/${type}/${options} the way OCS does before sending. One pass, so a question
 * that itself contains "${type}" is sent verbatim rather than expanded again.
 */
export function fillTemplate(data: Record<string, string>, sample: OcsSample): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(data)) {
    out[key] = value.replace(/\$\{(title|type|options)\}/g, (_m, name: keyof OcsSample) => sample[name]);
  }
  return out;
}

/** OCS_HANDLER (or, with `detail`, OCS_HANDLER_DETAIL) as code: the pages cannot eval the string (CSP). */
export function applyOcsHandler(res: unknown, detail = false): [unknown, unknown] {
  const r = (res ?? {}) as {
    code?: unknown;
    question?: unknown;
    answer?: unknown;
    msg?: unknown;
    source?: unknown;
    confidence?: unknown;
  };
  if (r.code !== 1) return [r.msg, undefined];
  if (!detail) return [r.question, r.answer];
  const s = String(r.source || '');
  const labels: Record<string, string> = { import: '题库', verified: '已核实', ai: 'AI', corrected: '已纠错' };
  const l = labels[s] || (s.indexOf('upstream:') === 0 ? `上游 ${s.slice(9)}` : s);
  const c = typeof r.confidence === 'number' ? ` ${Math.round(r.confidence * 100)}%` : '';
  return [String(r.question) + (l || c ? `〔${l}${c}〕` : ''), r.answer];
}

/**
 * GET /api/ocs/userscript.user.js: the script's text. Documented as the 200 answer; the handler sends it
 * itself as text/javascript.
 */
export const OcsUserscript = z.string();

/** GET /api/ocs/script-info: what the config and download pages show. */
export const OcsChangelogEntry = z.object({ version: z.string(), date: z.string(), changes: z.array(z.string()) });
export type OcsChangelogEntry = z.infer<typeof OcsChangelogEntry>;

export const OcsScriptInfo = z.object({
  /** Public base URL (PUBLIC_URL, or derived from the request), no trailing slash. */
  baseUrl: z.string(),
  version: z.string(),
  /** Newest first. */
  changelog: z.array(OcsChangelogEntry),
  userscriptUrl: z.string(),
  /** Append `?token=…&type=…&method=…` to get an OCS subscription URL. */
  subscriptionBase: z.string(),
});
export type OcsScriptInfo = z.infer<typeof OcsScriptInfo>;
export const OcsScriptInfoResponse = ok(OcsScriptInfo);
export type OcsScriptInfoResponse = z.infer<typeof OcsScriptInfoResponse>;

/** The subscription URL OCS can import the configuration from. */
export function subscriptionUrl(
  subscriptionBase: string,
  q: { token: string; type: OcsRequestType; method: OcsMethod; detail?: boolean },
): string {
  const params = new URLSearchParams({ token: q.token, type: q.type, method: q.method });
  if (q.detail) params.set('detail', '1');
  return `${subscriptionBase}?${params.toString()}`;
}

// ---------- the portal's userscript ----------

/** The userscript's version; the script (server/modules/ocs/script/userscript.ts) and its download page show it. */
export const USERSCRIPT_VERSION = '1.2.0';

/** Newest first; the download page shows it as a timeline. Bump USERSCRIPT_VERSION with each entry. */
export const USERSCRIPT_CHANGELOG: Array<{ version: string; date: string; changes: string[] }> = [
  {
    version: '1.2.0',
    date: '2026-12-05',
    changes: ['多个答案（多选的各个选项、各个填空）分行显示，选项中的 #、; 等符号原样保留'],
  },
  {
    version: '1.1.0',
    date: '2026-11-25',
    changes: [
      '选中多道带题号的题目（或在脚本菜单中选择“查询本页全部题目”）时一次批量查询，最多 100 题',
      '答案显示来源（题库、已核实、AI、上游题库）与置信度',
      '每个答案旁的“答案有误？”一键反馈错误答案，可附上正确答案',
    ],
  },
  {
    version: '1.0.0',
    date: '2026-11-22',
    changes: [
      '选中题目（可连同选项）后按 Alt+Q 或点击悬浮按钮“题”查询答案',
      '面板显示答案、来源（题库或 AI）、本次消耗和剩余点数，按 Esc 或 × 关闭',
      '首次使用时填写令牌，可在脚本菜单“设置令牌”中修改',
      '网络错误、超时和令牌无效时给出中文提示',
    ],
  },
];
