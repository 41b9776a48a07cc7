/**
 * Dev mocks of the NJIT student lookup (`npm run dev`), keyed and typed by src/contract/api/njit.ts. A
 * handful of made-up students (no real data); phones and IDs masked as the server does. The upload mock
 * ignores the file and answers a canned preview with two problems. tests/mock validates every answer.
 */
import {
  EDITABLE_FIELDS,
  ImportCommitBody,
  ImportDiffQuery,
  type ImportDiffItem,
  type ManualEdit,
  StudentEditBody,
  NJIT_AUDIT_CSV_HEADER,
  NJIT_MAX_PAGE_SIZE,
  NjitAuditExportQuery,
  PurgeBody,
  type PurgeCandidate,
  RetentionPreviewQuery,
  RevealBody,
  RevealDecisionBody,
  RevealRequestListQuery,
  RosterTemplateQuery,
  type RevealRequest,
  SEARCH_LIMIT,
  SearchQuery,
  type ImportSummary,
  type NjitAuditEntry,
  type Student,
  type StudentStatus,
} from '../src/contract';
import * as njitApi from '../src/contract/api/njit';
import {
  rosterTemplateCsv,
  rosterTemplateDisposition,
  rosterTemplateXlsx,
  ROSTER_TEMPLATE_TYPES,
} from '../src/contract/njitTemplate';
import { fail, parse } from './_lib/http';
import { defineMocks, on } from './_lib/endpoint';

// name, pinyin, initials, college, major, class, grade, status, phone, id
const PEOPLE: [string, string, string, string, string, string, number, StudentStatus, string, string][] = [
  [
    '张三',
    'zhangsan',
    'zs',
    '计算机工程学院',
    '软件工程',
    '软件211',
    2021,
    '在读',
    '13812341234',
    '32010220030101123X',
  ],
  [
    '张三丰',
    'zhangsanfeng',
    'zsf',
    '计算机工程学院',
    '软件工程',
    '软件211',
    2021,
    '休学',
    '13900001111',
    '320102200302021237',
  ],
  ['李四', 'lisi', 'ls', '计算机工程学院', '网络工程', '网络211', 2021, '在读', '15011112222', '320104200304041242'],
  ['王五', 'wangwu', 'ww', '电力工程学院', '电气工程及其自动化', '电气221', 2022, '在读', '18622223333', ''],
  ['赵六', 'zhaoliu', 'zl', '电力工程学院', '电气工程及其自动化', '电气221', 2022, '毕业', '', '320102200405051236'],
  ['欧阳娜', 'ouyangna', 'oyn', '经济与管理学院', '会计学', '会计231', 2023, '在读', '17700001234', ''],
];

const full = PEOPLE.map(([name, py, ini, college, major, className, grade, status, phone, idCard], i) => ({
  id: i + 1,
  studentNo: `${grade}0${i + 1}010${String(i + 1).padStart(3, '0')}`,
  name,
  py,
  ini,
  gender: (i % 2 === 0 ? '男' : '女') as Student['gender'],
  college,
  major,
  className,
  grade,
  status,
  phone: phone || null,
  idCard: idCard || null,
  dormitory: `东区${i + 1}栋${100 + i}`,
  updatedAt: '2025-09-01T02:00:00.000Z',
}));

const mask = (s: string | null, head: number) =>
  s ? `${s.slice(0, head)}${'*'.repeat(s.length - head - 4)}${s.slice(-4)}` : null;
const masked = ({ py: _p, ini: _i, ...s }: (typeof full)[number]): Student => ({
  ...s,
  phone: mask(s.phone, 3),
  idCard: mask(s.idCard, 4),
});

/** Fields corrected by hand, per student id; 张三's college starts corrected, so the import diff shows one. */
const manualEdits = new Map<number, ManualEdit[]>([
  [1, [{ field: 'college', userName: 'admin', editedAt: '2025-10-08T03:00:00.000Z' }]],
]);
const detail = (s: (typeof full)[number]) => ({ ...masked(s), manualEdits: manualEdits.get(s.id) ?? [] });

/** The canned diff of the canned upload: 张三 (college corrected by hand) and 张三丰 change, one new, 王五 missing. */
const DIFF: Record<ImportDiffQuery['kind'], ImportDiffItem[]> = {
  changed: [
    {
      studentId: 1,
      studentNo: full[0]!.studentNo,
      name: full[0]!.name,
      status: full[0]!.status,
      changes: [
        { field: 'college', stored: '信息工程学院', roster: full[0]!.college, manual: true, editedBy: 'admin' },
        { field: 'phone', stored: mask(full[0]!.phone, 3), roster: '139****0000', manual: false, editedBy: null },
      ],
    },
    {
      studentId: 2,
      studentNo: full[1]!.studentNo,
      name: full[1]!.name,
      status: full[1]!.status,
      changes: [{ field: 'grade', stored: String(full[1]!.grade), roster: '2020', manual: false, editedBy: null }],
    },
  ],
  new: [{ studentId: null, studentNo: '20230601099', name: '钱七', status: '在读', changes: [] }],
  missing: [{ studentId: 4, studentNo: full[3]!.studentNo, name: full[3]!.name, status: full[3]!.status, changes: [] }],
};

let queriesToday = 3;
const audit: NjitAuditEntry[] = [];
const logAudit = (action: string, criteria: Record<string, unknown>, ids: number[], reason: string | null = null) =>
  audit.unshift({
    id: audit.length + 1,
    userId: 1,
    userName: 'admin',
    action,
    ip: '127.0.0.1',
    criteria,
    resultCount: ids.length,
    recordIds: ids,
    reason,
    createdAt: new Date().toISOString(),
  });

// Four-eyes reveals: the signed-in demo administrator is 'admin'; 李老师 asked for one to decide.
const revealRequests: RevealRequest[] = [
  {
    id: 1,
    studentId: 2,
    studentName: full[1]!.name,
    studentNo: full[1]!.studentNo,
    field: 'idCard',
    reason: '办理学籍证明',
    requesterName: '李老师',
    status: 'pending',
    deciderName: null,
    decidedAt: null,
    expiresAt: null,
    createdAt: '2025-09-01T03:00:00.000Z',
  },
];

const lastImport: ImportSummary = {
  id: 1,
  userName: 'admin',
  fileName: '2025级新生名单.xlsx',
  totalRows: 6,
  inserted: 6,
  updated: 0,
  rejected: 0,
  createdAt: '2025-09-01T02:00:00.000Z',
};

// Retention: a demo policy of three years and a few made-up former students, two of them due.
const RETENTION_DAYS = 1095;
const DAY_MS = 86_400_000;
const daysAgo = (d: number) => new Date(Date.now() - d * DAY_MS).toISOString();
let leavers: Omit<PurgeCandidate, 'dueAt'>[] = [
  ['钱七', '毕业', 1200],
  ['孙八', '退学', 1100],
  ['周九', '毕业', 1080],
  ['吴十', '毕业', 400],
].map(([name, status, ago], i) => ({
  id: 100 + i,
  studentNo: `2019010${i + 1}0${String(i + 1).padStart(3, '0')}`,
  name: name as string,
  status: status as PurgeCandidate['status'],
  college: '计算机工程学院',
  className: '软件191',
  leftAt: daysAgo(ago as number),
}));

const CRITERIA = ['studentNo', 'name', 'college', 'major', 'className', 'grade', 'status'];

export default defineMocks(
  on(njitApi.searchStudents, (req, res) => {
    const q = req.query ?? {};
    const current = Number(q.current ?? 1);
    const pageSize = Number(q.pageSize ?? 10);
    if (pageSize > NJIT_MAX_PAGE_SIZE)
      return fail(res, 400, 'VALIDATION_FAILED', `输入有误：每页最多 ${NJIT_MAX_PAGE_SIZE} 条`);
    if (!CRITERIA.some((k) => q[k]?.trim())) {
      return fail(res, 400, 'BAD_REQUEST', '请至少输入一个查询条件（学号、姓名、学院、专业、班级、年级或状态）');
    }
    queriesToday += 1;
    const name = q.name?.trim().toLowerCase();
    const hits = full.filter(
      (s) =>
        (!q.studentNo || s.studentNo.startsWith(q.studentNo)) &&
        (!name || s.name.includes(name) || s.py.startsWith(name) || s.ini.startsWith(name)) &&
        (!q.college || s.college === q.college) &&
        (!q.major || s.major === q.major) &&
        (!q.className || s.className === q.className) &&
        (!q.grade || String(s.grade) === q.grade) &&
        (!q.status || s.status === q.status),
    );
    const data = hits.slice((current - 1) * pageSize, current * pageSize).map(masked);
    logAudit(
      'search',
      { ...q },
      data.map((s) => s.id),
    );
    res.json({
      success: true,
      data,
      total: hits.length,
      current,
      pageSize,
      capped: false,
    });
  }),

  // The header's search: a number's start, else pinyin, initials or part of the name, as the server reads it.
  on(njitApi.quickSearch, (req, res) => {
    const parsed = parse(SearchQuery, req.query, res);
    if (!parsed) return;
    const q = parsed.q.toLowerCase();
    const byNumber = /^[a-z0-9]+$/.test(q) && /\d/.test(q);
    const data = full
      .filter((s) =>
        byNumber ? s.studentNo.startsWith(q) : s.name.includes(q) || s.py.startsWith(q) || s.ini.startsWith(q),
      )
      .slice(0, SEARCH_LIMIT)
      .map(masked);
    logAudit(
      'search',
      byNumber ? { studentNo: q } : { name: q },
      data.map((s) => s.id),
    );
    res.json({ success: true, data });
  }),

  on(njitApi.getStudent, (req, res) => {
    const s = full.find((x) => x.id === Number(req.params?.id));
    if (!s) return fail(res, 404, 'NOT_FOUND', '学生不存在');
    logAudit('detail', { id: s.id }, [s.id]);
    res.json({ success: true, data: detail(s) });
  }),

  on(njitApi.editStudent, (req, res) => {
    const body = parse(StudentEditBody, req.body, res);
    if (!body) return;
    const s = full.find((x) => x.id === Number(req.params?.id));
    if (!s) return fail(res, 404, 'NOT_FOUND', '学生不存在');
    const changed = EDITABLE_FIELDS.filter((f) => body[f] !== undefined && body[f] !== s[f]);
    for (const f of changed) Object.assign(s, { [f]: body[f] });
    const kept = (manualEdits.get(s.id) ?? []).filter((e) => !changed.includes(e.field));
    const at = new Date().toISOString();
    manualEdits.set(s.id, [...kept, ...changed.map((field) => ({ field, userName: 'admin', editedAt: at }))]);
    if (changed.length > 0) logAudit('edit', { id: s.id, fields: changed }, [s.id]);
    res.json({ success: true, data: detail(s) });
  }),

  on(njitApi.revealField, (req, res) => {
    const parsed = RevealBody.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'VALIDATION_FAILED', `输入有误：${parsed.error.issues[0].message}`);
    const s = full.find((x) => x.id === Number(req.params?.id));
    if (!s) return fail(res, 404, 'NOT_FOUND', '学生不存在');
    logAudit('reveal', { id: s.id, field: parsed.data.field }, [s.id], parsed.data.reason);
    res.json({
      success: true,
      data: { field: parsed.data.field, value: s[parsed.data.field] },
    });
  }),

  on(njitApi.requestReveal, (req, res) => {
    const body = parse(RevealBody, req.body, res);
    if (!body) return;
    const s = full.find((x) => x.id === Number(req.params?.id));
    if (!s) return fail(res, 404, 'NOT_FOUND', '学生不存在');
    const open = revealRequests.find(
      (r) => r.requesterName === 'admin' && r.studentId === s.id && r.field === body.field && r.status === 'pending',
    );
    const made: RevealRequest = open ?? {
      id: revealRequests.length + 1,
      studentId: s.id,
      studentName: s.name,
      studentNo: s.studentNo,
      field: body.field,
      reason: body.reason,
      requesterName: 'admin',
      status: 'pending',
      deciderName: null,
      decidedAt: null,
      expiresAt: null,
      createdAt: new Date().toISOString(),
    };
    if (!open) {
      revealRequests.unshift(made);
      logAudit('reveal_request', { id: s.id, field: body.field, request: made.id }, [s.id], body.reason);
    }
    res.json({ success: true, data: made });
  }),

  on(njitApi.listRevealRequests, (req, res) => {
    const q = parse(RevealRequestListQuery, req.query ?? {}, res);
    if (!q) return;
    const rows = revealRequests.filter((r) =>
      q.scope === 'mine' ? r.requesterName === 'admin' : r.status === 'pending' && r.requesterName !== 'admin',
    );
    res.json({
      success: true,
      data: rows.slice((q.current - 1) * q.pageSize, q.current * q.pageSize),
      total: rows.length,
      current: q.current,
      pageSize: q.pageSize,
    });
  }),

  on(njitApi.decideRevealRequest, (req, res) => {
    const body = parse(RevealDecisionBody, req.body, res);
    if (!body) return;
    const r = revealRequests.find((x) => x.id === Number(req.params?.id));
    if (!r) return fail(res, 404, 'NOT_FOUND', '申请不存在');
    if (r.requesterName === 'admin') return fail(res, 403, 'FORBIDDEN', '不能审批自己的申请：请另一位管理员审批');
    if (r.status !== 'pending') return fail(res, 409, 'CONFLICT', '该申请已处理');
    r.status = body.decision === 'approve' ? 'approved' : 'refused';
    r.deciderName = 'admin';
    r.decidedAt = new Date().toISOString();
    r.expiresAt = body.decision === 'approve' ? new Date(Date.now() + 10 * 60_000).toISOString() : null;
    logAudit('reveal_decide', { id: r.studentId, field: r.field, request: r.id, decision: body.decision }, [
      r.studentId,
    ]);
    res.json({ success: true, data: r });
  }),

  on(njitApi.revealApproved, (req, res) => {
    const r = revealRequests.find((x) => x.id === Number(req.params?.id) && x.requesterName === 'admin');
    if (!r) return fail(res, 404, 'NOT_FOUND', '申请不存在');
    if (r.status === 'pending') return fail(res, 409, 'CONFLICT', '申请尚未批准：请等待另一位管理员审批');
    if (r.status === 'refused') return fail(res, 409, 'CONFLICT', '申请已被拒绝');
    if (new Date(r.expiresAt!).getTime() <= Date.now())
      return fail(res, 409, 'CONFLICT', '批准已过期：如仍需查看，请重新申请');
    const s = full.find((x) => x.id === r.studentId)!;
    logAudit('reveal', { id: s.id, field: r.field, request: r.id }, [s.id], r.reason);
    res.json({ success: true, data: { field: r.field, value: s[r.field] } });
  }),

  on(njitApi.options, (_req, res) => {
    res.json({
      success: true,
      data: {
        colleges: [...new Set(full.map((s) => s.college))],
        majors: [...new Map(full.map((s) => [s.major, { college: s.college, major: s.major }])).values()],
        grades: [...new Set(full.map((s) => s.grade))].sort().reverse(),
        // The demo asks for approval of ID numbers, as a careful deployment would.
        approval: { fields: ['idCard'], minutes: 10 },
      },
    });
  }),

  on(njitApi.overview, (_req, res) => {
    const count = (key: 'college' | 'status' | 'grade') =>
      [
        ...full.reduce((m, s) => m.set(String(s[key]), (m.get(String(s[key])) ?? 0) + 1), new Map<string, number>()),
      ].map(([name, n]) => ({ name, count: n }));
    res.json({
      success: true,
      data: {
        total: full.length,
        byCollege: count('college'),
        byGrade: count('grade'),
        byStatus: count('status'),
        lastImport,
        queriesToday,
        queriesThisMinute: 1,
        queryLimitPerMinute: 30,
      },
    });
  }),

  on(njitApi.uploadImport, (_req, res) => {
    res.json({
      success: true,
      data: {
        importId: 'mock-import',
        fileName: '新生名单.csv',
        format: 'csv',
        encoding: 'gbk',
        totalRows: 5,
        validRows: 3,
        rejectedRows: 2,
        toInsert: 2,
        toUpdate: 1,
        issues: [
          { row: 3, field: '姓名', message: '缺少姓名' },
          { row: 6, field: '学号', message: '学号在文件中重复（与第 2 行相同）' },
        ],
        issueCount: 2,
        warnings: [{ row: 4, field: '手机号', message: '手机号格式不正确（应为 11 位，以 1 开头），该项留空导入' }],
        warningCount: 1,
        sample: full.slice(0, 3).map((s, i) => {
          const { id: _id, updatedAt: _u, ...rest } = masked(s);
          return { ...rest, row: i + 2 };
        }),
        columns: { 学号: '学号', 姓名: '姓名', 手机号: '手机号', 身份证号: '身份证号' },
        expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
      },
    });
  }),

  on(njitApi.importDiff, (req, res) => {
    const q = parse(ImportDiffQuery, req.query ?? {}, res);
    if (!q) return;
    if (req.params?.id !== 'mock-import') return fail(res, 404, 'NOT_FOUND', '导入批次不存在或已过期，请重新上传文件');
    const all = DIFF[q.kind];
    res.json({
      success: true,
      data: all.slice((q.current - 1) * q.pageSize, q.current * q.pageSize),
      total: all.length,
      current: q.current,
      pageSize: q.pageSize,
      counts: { new: DIFF.new.length, changed: DIFF.changed.length, missing: DIFF.missing.length, manualConflicts: 1 },
    });
  }),

  on(njitApi.commitImport, (req, res) => {
    const body = parse(ImportCommitBody, req.body ?? {}, res);
    if (!body) return;
    if (req.params?.id !== 'mock-import') return fail(res, 404, 'NOT_FOUND', '导入批次不存在或已过期，请重新上传文件');
    // The one manual conflict of the canned diff: 张三's college.
    const choice = body.choices.find((c) => c.studentNo === full[0]!.studentNo && c.field === 'college');
    const take = choice?.take ?? body.manual;
    if (take === 'roster') manualEdits.set(1, []);
    const markedLeft = body.missing === 'mark_left' && full[3]!.status === '在读' ? 1 : 0;
    if (markedLeft) full[3]!.status = '离校';
    logAudit('import', { fileName: '新生名单.csv', ...body, choices: body.choices.length }, []);
    res.json({
      success: true,
      data: {
        ...lastImport,
        id: 2,
        fileName: '新生名单.csv',
        totalRows: 5,
        inserted: 2,
        updated: 1,
        rejected: 2,
        createdAt: new Date().toISOString(),
        keptManual: take === 'keep' ? 1 : 0,
        takenRoster: take === 'roster' ? 1 : 0,
        markedLeft,
      },
    });
  }),

  // The same templates as the server's, made from the same column list.
  on(njitApi.importTemplate, async (req, res) => {
    const q = parse(RosterTemplateQuery, req.query ?? {}, res);
    if (!q) return;
    res.setHeader('Content-Type', ROSTER_TEMPLATE_TYPES[q.format]);
    res.setHeader('Content-Disposition', rosterTemplateDisposition(q.format));
    res.send(q.format === 'csv' ? rosterTemplateCsv() : await rosterTemplateXlsx());
  }),

  on(njitApi.listImports, (_req, res) => {
    res.json({
      success: true,
      data: [lastImport],
      total: 1,
      current: 1,
      pageSize: 10,
    });
  }),

  on(njitApi.retentionPreview, (req, res) => {
    const q = parse(RetentionPreviewQuery, req.query ?? {}, res);
    if (!q) return;
    const cutoff = daysAgo(RETENTION_DAYS);
    const until = new Date(new Date(cutoff).getTime() + q.withinDays * DAY_MS).toISOString();
    const rows = leavers
      .filter((l) => l.leftAt <= until)
      .sort((a, b) => a.leftAt.localeCompare(b.leftAt))
      .map((l) => ({ ...l, dueAt: new Date(new Date(l.leftAt).getTime() + RETENTION_DAYS * DAY_MS).toISOString() }));
    const shown = rows.slice((q.current - 1) * q.pageSize, q.current * q.pageSize);
    logAudit(
      'purge_preview',
      { ...q },
      shown.map((r) => r.id),
    );
    res.json({
      success: true,
      data: shown,
      total: rows.length,
      current: q.current,
      pageSize: q.pageSize,
      retentionDays: RETENTION_DAYS,
      cutoff,
      dueCount: leavers.filter((l) => l.leftAt <= cutoff).length,
    });
  }),

  on(njitApi.purgeStudents, (req, res) => {
    const body = parse(PurgeBody, req.body, res);
    if (!body) return;
    const cutoff = new Date(body.cutoff).toISOString();
    if (cutoff > daysAgo(RETENTION_DAYS)) {
      const message = `清除时间点晚于保留期限（${RETENTION_DAYS} 天）：只能清除已到期的记录，请刷新预览后重试`;
      return fail(res, 400, 'BAD_REQUEST', message, { cutoff: [message] });
    }
    const gone = leavers.filter((l) => l.leftAt <= cutoff).map((l) => l.id);
    leavers = leavers.filter((l) => !gone.includes(l.id));
    logAudit('purge', { cutoff, retentionDays: RETENTION_DAYS, trigger: 'manual' }, gone);
    res.json({ success: true, data: { purged: gone.length, cutoff } });
  }),

  on(njitApi.listAudit, (req, res) => {
    const q = req.query ?? {};
    const rows = audit.filter(
      (a) =>
        (!q.action || a.action === q.action) &&
        (!q.userName || a.userName === q.userName) &&
        (!q.studentId || a.recordIds.includes(Number(q.studentId))),
    );
    const current = Number(q.current ?? 1);
    const pageSize = Number(q.pageSize ?? 20);
    res.json({
      success: true,
      data: rows.slice((current - 1) * pageSize, current * pageSize),
      total: rows.length,
      current,
      pageSize,
    });
  }),

  // The same filters as the list, as the CSV the server sends (its header from the contract); exporting
  // is itself recorded, as on the server.
  on(njitApi.exportAudit, (req, res) => {
    const q = parse(NjitAuditExportQuery, req.query ?? {}, res);
    if (!q) return;
    const rows = audit.filter(
      (a) =>
        (!q.action || a.action === q.action) &&
        (!q.userName || a.userName === q.userName) &&
        (!q.studentId || a.recordIds.includes(Number(q.studentId))),
    );
    const cell = (v: unknown) => {
      const s = String(v ?? '');
      return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
    };
    const lines = rows.map((a) =>
      [
        a.id,
        a.createdAt,
        a.userName,
        a.action,
        a.ip,
        JSON.stringify(a.criteria),
        a.resultCount,
        a.recordIds.join(' '),
        a.reason,
      ]
        .map(cell)
        .join(','),
    );
    logAudit('audit_export', { ...q }, q.studentId ? [q.studentId] : []);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', 'attachment; filename="njit-audit-mock.csv"');
    res.send(`\uFEFF${[NJIT_AUDIT_CSV_HEADER.join(','), ...lines].join('\r\n')}\r\n`);
  }),
);
