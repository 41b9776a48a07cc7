/**
 * The search form and results. Nothing is fetched until the user gives at least one criterion
 * (the server refuses an empty query anyway); phone and ID arrive masked from the server. The form
 * offers only the criteria the caller's field policy lets them search by (fields shown to them in full),
 * and the table has no column for a field hidden from them.
 */
import {
  NJIT_MAX_PAGE_SIZE,
  POLICY_FIELDS,
  STUDENT_STATUSES,
  type FieldLevels,
  type PolicyField,
  type Student,
} from '@/contract';
import * as njitApi from '@/contract/api/njit';
import * as policyApi from '@/contract/api/njitPolicy';
import type { AnswerOf } from '@/contract/endpoint';
import { call } from '@/services/call';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { message, Tag } from 'antd';
import { useLocation, useNavigate } from '@umijs/max';
import { useEffect, useState } from 'react';
import { gradeLabel, HIDDEN_TEXT, shown, STATUS_COLORS } from '../../labels';
import StudentDrawer from './StudentDrawer';
import { searchOpenOnWideScreens } from '@/requestDefaults';
import ActionLink from '@/components/ActionLink';
import { useTableSettings } from '@/components/tableSettings';

type Criteria = Partial<Record<'studentNo' | 'name' | 'college' | 'major' | 'className' | 'status', string>> & {
  grade?: number | string;
};

function clean(params: Record<string, unknown>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(params)) {
    if (['current', 'pageSize', 'keyword'].includes(k) || v === undefined || v === null) continue;
    const s = typeof v === 'string' ? v.trim() : v;
    if (s !== '') out[k] = s as string | number;
  }
  return out;
}

export function studentFromSearch(search: string): number | null {
  const id = Number(new URLSearchParams(search).get('student'));
  return Number.isInteger(id) && id > 0 ? id : null;
}

const isPolicyField = (key: unknown): key is PolicyField => (POLICY_FIELDS as readonly unknown[]).includes(key);

/**
 * The columns as the caller's levels allow: a hidden field has no column and no criterion; a masked one
 * keeps its column (masked values) but is no criterion, since the server refuses a search by it. Until
 * the levels are known (or when they cannot be read) the form stays as it is for everyone: the server
 * refuses a forbidden criterion with its reason anyway.
 */
export function columnsFor<T>(columns: ProColumns<T>[], levels: FieldLevels | null): ProColumns<T>[] {
  if (!levels) return columns;
  return columns
    .filter((c) => !(isPolicyField(c.dataIndex) && levels[c.dataIndex] === 'hidden'))
    .map((c) => (isPolicyField(c.dataIndex) && levels[c.dataIndex] !== 'full' ? { ...c, search: false } : c));
}

/** What the empty list says before a search: the criteria this caller may use, the first few by name. */
export function searchHint<T>(columns: ProColumns<T>[]): string {
  const by = columns
    .filter((c) => c.search !== false && !c.hideInSearch && typeof c.title === 'string')
    .map((c) => (c.dataIndex === 'name' ? '姓名（汉字或拼音）' : (c.title as string)));
  if (by.length === 0) return '你的角色没有可用的查询条件，请联系管理员';
  return `输入${by.slice(0, 3).join('、')}${by.length > 3 ? '或其他条件' : ''}后点击“查询”`;
}

export default function StudentTable(props: { isAdmin: boolean }) {
  const tableSettings = useTableSettings('njit.students', { reload: false });
  const [options, setOptions] = useState<AnswerOf<typeof njitApi.options>['data']>({
    colleges: [],
    majors: [],
    grades: [],
    approval: { fields: [], minutes: 10 },
  });
  // The open student is in the URL (?student=id): a result of the header's search lands here open, and
  // the browser's back button closes it.
  const location = useLocation();
  const navigate = useNavigate();
  const openId = studentFromSearch(location.search);
  const setOpenId = (id: number | null) =>
    navigate(id === null ? location.pathname : `${location.pathname}?student=${id}`, { replace: id === null });

  // The caller's own field levels (their NJIT roles'), to offer only the criteria they may use.
  const [levels, setLevels] = useState<FieldLevels | null>(null);

  useEffect(() => {
    call(njitApi.options)
      .then((res) => setOptions(res.data))
      .catch(() => undefined);
    call(policyApi.myFields)
      .then((res) => setLevels(res.data.fields))
      .catch(() => undefined);
  }, []);

  const allColumns: ProColumns<Student>[] = [
    { title: '学号', dataIndex: 'studentNo', fieldProps: { placeholder: '完整学号或开头几位' }, copyable: true },
    {
      title: '姓名',
      dataIndex: 'name',
      tooltip: '支持汉字（可输入部分）、拼音全拼或首字母，如 zhangsan、zs',
      fieldProps: { placeholder: '张三 / zhangsan / zs' },
    },
    { title: '性别', dataIndex: 'gender', search: false, width: 60 },
    {
      title: '学院',
      dataIndex: 'college',
      valueType: 'select',
      fieldProps: { showSearch: true, options: options.colleges.map((c) => ({ label: c, value: c })) },
    },
    {
      title: '专业',
      dataIndex: 'major',
      valueType: 'select',
      fieldProps: {
        showSearch: true,
        options: [...new Set(options.majors.map((m) => m.major))].map((m) => ({ label: m, value: m })),
      },
    },
    { title: '班级', dataIndex: 'className' },
    {
      title: '年级',
      dataIndex: 'grade',
      valueType: 'select',
      fieldProps: { options: options.grades.map((g) => ({ label: gradeLabel(g), value: g })) },
      // Not left to the filter's options: a grade missing from them would show bare (2023).
      render: (_, r) => gradeLabel(r.grade),
    },
    {
      title: '状态',
      dataIndex: 'status',
      valueType: 'select',
      valueEnum: Object.fromEntries(STUDENT_STATUSES.map((s) => [s, { text: s }])),
      render: (_, r) => (r.status ? <Tag color={STATUS_COLORS[r.status]}>{r.status}</Tag> : HIDDEN_TEXT),
    },
    { title: '手机号', dataIndex: 'phone', search: false, render: (_, r) => shown(r.phone) },
    {
      title: '操作',
      // Stays in view while a narrow screen scrolls the table sideways.
      fixed: 'right',
      valueType: 'option',
      key: 'option',
      render: (_, r) => [
        <ActionLink key="detail" onClick={() => setOpenId(r.id)}>
          详情
        </ActionLink>,
      ],
    },
  ];

  const columns = columnsFor(allColumns, levels);

  // Before the first search the list explains how to search; after one, that nothing matched.
  const [searched, setSearched] = useState(false);

  return (
    <>
      <ProTable<Student, Criteria>
        rowKey="id"
        headerTitle="学生信息"
        columns={columns}
        manualRequest
        request={async (params) => {
          const criteria = clean(params as Record<string, unknown>);
          if (Object.keys(criteria).length === 0) {
            message.warning('请至少输入一个查询条件');
            setSearched(false);
            return { data: [], success: true, total: 0 };
          }
          const res = await call(njitApi.searchStudents, {
            query: { current: params.current, pageSize: params.pageSize, ...criteria },
          });
          setSearched(true);
          if (res.capped) message.info(`匹配结果超过 ${res.total} 条，仅显示前 ${res.total} 条，请缩小查询范围`);
          return res;
        }}
        pagination={{ defaultPageSize: 10, showSizeChanger: true, pageSizeOptions: [10, 20, NJIT_MAX_PAGE_SIZE] }}
        search={searchOpenOnWideScreens()}
        form={{ ignoreRules: false }}
        {...tableSettings}
        scroll={{ x: 'max-content' }}
        locale={{
          emptyText: searched ? '没有找到匹配的学生' : searchHint(columns),
        }}
      />
      <StudentDrawer
        studentId={openId}
        isAdmin={props.isAdmin}
        approval={options.approval}
        onClose={() => setOpenId(null)}
      />
    </>
  );
}
