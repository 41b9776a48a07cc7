/**
 * Dev mocks of the header's search (`npm run dev`) for the kinds whose modules' mocks hold no rows of
 * their own to search: my tokens, users, my messages, my OCS queries and bank questions, a few made-up
 * rows each (students are searched in mock/njit.ts). tests/mock validates every answer.
 */
import { SEARCH_LIMIT, SearchQuery, type SearchHit } from '../src/contract';
import type { Endpoint } from '../src/contract/endpoint';
import * as ocsApi from '../src/contract/api/ocs';
import * as ocsAdminApi from '../src/contract/api/ocsAdmin';
import * as umsApi from '../src/contract/api/ums';
import * as userApi from '../src/contract/api/user';
import { parse } from './_lib/http';
import { defineMocks, on } from './_lib/endpoint';

const hits = (rows: [string, string | null][]): SearchHit[] =>
  rows.map(([title, detail], i) => ({ id: i + 1, title, detail }));

const TOKENS = hits([
  ['OCS 脚本', 'pt_a1b2c3d4… · 有效'],
  ['服务器告警推送', 'pt_e5f6a7b8… · 有效'],
  ['旧的部署脚本', 'pt_c9d0e1f2… · 已撤销'],
]);
const USERS = hits([
  ['管理员（admin）', '管理员'],
  ['张老师（zhang）', 'NJIT'],
  ['alice', null],
]);
const MESSAGES = hits([
  ['服务器 CPU 告警', '已送达'],
  ['每日报表', '已送达'],
  ['数据库备份失败', '失败'],
]);
const QUERIES = hits([
  ['光合作用发生在哪个细胞器', '题库 · 叶绿体'],
  ['牛顿第一定律又称为', 'AI · 惯性定律'],
]);
const BANK = hits([
  ['光合作用发生在哪个细胞器', '#1 · 单选题'],
  ['光合作用的产物是', '#2 · 多选题'],
  ['细胞呼吸的场所是', '#3 · 单选题'],
]);

/** A search over fixed rows: titles containing the words, a handful at most. */
function searchOver(endpoint: Endpoint, rows: SearchHit[]) {
  return on(endpoint, (req, res) => {
    const parsed = parse(SearchQuery, req.query, res);
    if (!parsed) return;
    const q = parsed.q.toLowerCase();
    res.json({
      success: true,
      data: rows.filter((r) => r.title.toLowerCase().includes(q)).slice(0, SEARCH_LIMIT),
    } as never);
  });
}

export default defineMocks(
  searchOver(userApi.searchTokens, TOKENS),
  searchOver(userApi.adminSearchUsers, USERS),
  searchOver(umsApi.searchMessages, MESSAGES),
  searchOver(ocsApi.searchQueries, QUERIES),
  searchOver(ocsAdminApi.searchBank, BANK),
);
