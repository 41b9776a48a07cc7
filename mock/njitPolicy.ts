/**
 * Dev mocks of the NJIT field policy (`npm run dev`), keyed and typed by src/contract/api/njitPolicy.ts:
 * the grid kept in memory from today's defaults, two made-up counselors and teachers with their scopes,
 * and a preview of a made-up student. tests/mock validates every answer.
 */
import {
  DEFAULT_FIELD_LEVELS,
  FieldPolicyBody,
  NJIT_ROLES,
  PolicyPreviewQuery,
  POLICY_FIELDS,
  type RoleFieldPolicy,
  type Student,
  type UserScope,
  UserScopeBody,
} from '../src/contract';
import * as policyApi from '../src/contract/api/njitPolicy';
import { fail, parse } from './_lib/http';
import { defineMocks, on } from './_lib/endpoint';

let policy: RoleFieldPolicy[] = NJIT_ROLES.map((role) => ({ role, fields: { ...DEFAULT_FIELD_LEVELS } }));

const scopes: UserScope[] = [
  {
    userId: 7,
    username: 'wanglaoshi',
    nickname: '王老师',
    roles: ['njit_counselor'],
    colleges: [],
    classes: ['软件211'],
  },
  { userId: 8, username: 'zhaolaoshi', nickname: '赵老师', roles: ['njit_teacher'], colleges: [], classes: [] },
];

const STUDENT: Student = {
  id: 1,
  studentNo: '202101010001',
  name: '张三',
  gender: '男',
  college: '计算机工程学院',
  major: '软件工程',
  className: '软件211',
  grade: 2021,
  status: '在读',
  phone: '13812341234',
  idCard: '32010220030101123X',
  dormitory: '东区1栋100',
  updatedAt: '2025-09-01T02:00:00.000Z',
};

/** The demo's stand-in for the server's showStudent: the first character kept, the rest starred. */
function asRoleSees(role: RoleFieldPolicy): Student {
  const out: Record<string, unknown> = { id: STUDENT.id, updatedAt: STUDENT.updatedAt };
  for (const f of POLICY_FIELDS) {
    const v = STUDENT[f];
    if (role.fields[f] === 'full') out[f] = v;
    else if (role.fields[f] === 'masked') out[f] = v === null || v === undefined ? v : `${String(v)[0]}***`;
  }
  return out as Student;
}

export default defineMocks(
  on(policyApi.getFieldPolicy, (_req, res) => res.json({ success: true, data: { roles: policy } })),

  on(policyApi.setFieldPolicy, (req, res) => {
    const body = parse(FieldPolicyBody, req.body, res);
    if (!body) return;
    policy = policy.map((p) => body.roles.find((r) => r.role === p.role) ?? p);
    res.json({ success: true, data: { roles: policy } });
  }),

  on(policyApi.previewFieldPolicy, (req, res) => {
    const q = parse(PolicyPreviewQuery, req.query, res);
    if (!q) return;
    if (q.studentNo !== STUDENT.studentNo) return fail(res, 404, 'NOT_FOUND', '没有这个学号的学生');
    res.json({ success: true, data: { role: q.role, student: asRoleSees(policy.find((p) => p.role === q.role)!) } });
  }),

  on(policyApi.listUserScopes, (_req, res) => res.json({ success: true, data: scopes })),

  on(policyApi.setUserScope, (req, res) => {
    const body = parse(UserScopeBody, req.body, res);
    if (!body) return;
    const user = scopes.find((s) => s.userId === Number(req.params?.userId));
    if (!user) return fail(res, 404, 'NOT_FOUND', '用户不存在');
    Object.assign(user, body);
    res.json({ success: true, data: user });
  }),

  on(policyApi.myFields, (_req, res) =>
    res.json({ success: true, data: { fields: policy.find((p) => p.role === 'njit')!.fields, scoped: false } }),
  ),
);
