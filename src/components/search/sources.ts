/**
 * What the header's search asks, per kind: the module's own search endpoint, who may ask it (the access
 * flags of the pages the results lead to) and where a result leads. A student leads to the NJIT page's
 * detail drawer, whose request is the audited detail view.
 */
import type { AccessFlags } from '@/access';
import type { SearchHit, Student } from '@/contract';
import * as njitApi from '@/contract/api/njit';
import * as ocsApi from '@/contract/api/ocs';
import * as ocsAdminApi from '@/contract/api/ocsAdmin';
import * as umsApi from '@/contract/api/ums';
import * as userApi from '@/contract/api/user';
import { call } from '@/services/call';

/** One row of the dialog, whatever its kind. */
export interface ResultItem {
  key: string;
  title: string;
  detail: string | null;
  path: string;
}

export interface Source {
  kind: string;
  label: string;
  endpoint: typeof userApi.searchTokens | typeof njitApi.quickSearch;
  allowed(flags: AccessFlags): boolean;
  items(data: unknown[]): ResultItem[];
}

/**
 * Asks one kind. Failures are the dialog's to show (a line in the kind's group), not the request layer's
 * message on every keystroke; a request that a newer one replaced is aborted.
 */
export async function ask(source: Source, q: string, signal: AbortSignal): Promise<ResultItem[]> {
  const res = await call(
    source.endpoint as typeof userApi.searchTokens,
    { query: { q } },
    { skipErrorHandler: true, signal },
  );
  return source.items(res.data);
}

const hits = (kind: string, path: (h: SearchHit) => string) => (data: unknown[]) =>
  (data as SearchHit[]).map((h) => ({ key: `${kind}-${h.id}`, title: h.title, detail: h.detail, path: path(h) }));

export const SOURCES: Source[] = [
  {
    kind: 'students',
    label: '学生',
    endpoint: njitApi.quickSearch,
    allowed: (f) => f.isNjit,
    items: (data) =>
      (data as Student[]).map((s) => ({
        key: `students-${s.id}`,
        title: `${s.name}（${s.studentNo}）`,
        detail: [s.college, s.major, s.className, s.phone].filter(Boolean).join(' · ') || null,
        path: `/njit/queryStuInfo?student=${s.id}`,
      })),
  },
  {
    kind: 'users',
    label: '用户',
    endpoint: userApi.adminSearchUsers,
    allowed: (f) => f.isAdmin,
    items: hits('users', (h) => `/user/admin/editUser?uid=${h.id}`),
  },
  {
    kind: 'messages',
    label: '我的消息',
    endpoint: umsApi.searchMessages,
    allowed: (f) => f.isLoggedIn,
    items: hits('messages', (h) => `/UMS/queryMessage?id=${h.id}`),
  },
  {
    kind: 'queries',
    label: '我的 OCS 查询',
    endpoint: ocsApi.searchQueries,
    allowed: (f) => f.isLoggedIn,
    items: hits('queries', () => '/OCS/bill'),
  },
  {
    kind: 'bank',
    label: '题库题目',
    endpoint: ocsAdminApi.searchBank,
    allowed: (f) => f.isAdmin,
    items: hits('bank', (h) => `/OCS/OCSAdmin/bank?question=${h.id}`),
  },
  {
    kind: 'tokens',
    label: '我的令牌',
    endpoint: userApi.searchTokens,
    allowed: (f) => f.isLoggedIn,
    items: hits('tokens', () => '/user/tokenManage'),
  },
];
