/**
 * The colleges and classes each counselor or teacher may look up. Both empty: every student. A user
 * who also has role njit or admin is never limited.
 */
import { MAX_SCOPE_ENTRIES, type UserScope } from '@/contract';
import * as njitApi from '@/contract/api/njit';
import * as policyApi from '@/contract/api/njitPolicy';
import { ROLE_LABELS } from '@/components/roles';
import { call } from '@/services/call';
import type { Role } from '@/contract';
import { Alert, Button, Empty, message, Select, Skeleton, Table, Tag } from 'antd';
import { useEffect, useState } from 'react';

export default function ScopeTable() {
  const [rows, setRows] = useState<UserScope[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [colleges, setColleges] = useState<string[]>([]);
  const [savingId, setSavingId] = useState<number | null>(null);

  useEffect(() => {
    call(policyApi.listUserScopes)
      .then((res) => setRows(res.data))
      .catch(() => setFailed(true));
    // The options are a convenience: without them a college is typed in.
    call(njitApi.options)
      .then((res) => setColleges(res.data.colleges))
      .catch(() => setColleges([]));
  }, []);

  if (failed) return <Alert type="error" showIcon message="查询范围加载失败，请刷新页面重试" />;
  if (!rows) return <Skeleton active />;
  if (rows.length === 0) {
    return <Empty description="还没有辅导员或教师：在用户管理中给用户分配 njit_counselor 或 njit_teacher 角色" />;
  }

  const edit = (userId: number, change: Partial<UserScope>) =>
    setRows(rows.map((r) => (r.userId === userId ? { ...r, ...change } : r)));

  const save = async (r: UserScope) => {
    setSavingId(r.userId);
    try {
      const res = await call(policyApi.setUserScope, {
        params: { userId: r.userId },
        body: { colleges: r.colleges, classes: r.classes },
      });
      edit(r.userId, res.data);
      message.success(`已保存 ${r.nickname ?? r.username} 的查询范围`);
    } catch {
      // The request layer has shown the server's message.
    } finally {
      setSavingId(null);
    }
  };

  const who = (r: UserScope) => r.nickname ?? r.username;
  /** A list of names to pick or type (a class the options do not know is typed and entered). */
  const scopeColumn = (key: 'colleges' | 'classes', title: string, placeholder: string, known: string[]) => ({
    title,
    key,
    render: (_: unknown, r: UserScope) => (
      <Select
        mode="tags"
        id={`scope-${r.userId}-${key}`}
        aria-label={`${who(r)}${title}`}
        style={{ minWidth: 200 }}
        maxCount={MAX_SCOPE_ENTRIES}
        value={r[key]}
        placeholder={placeholder}
        options={known.map((c) => ({ value: c, label: c }))}
        onChange={(v: string[]) => edit(r.userId, { [key]: v })}
      />
    ),
  });
  return (
    <Table<UserScope>
      rowKey="userId"
      size="small"
      pagination={false}
      scroll={{ x: 'max-content' }}
      dataSource={rows}
      columns={[
        { title: '用户', key: 'user', render: (_, r) => `${who(r)}（${r.username}）` },
        {
          title: '角色',
          key: 'roles',
          render: (_, r) => r.roles.map((role) => <Tag key={role}>{ROLE_LABELS[role as Role] ?? role}</Tag>),
        },
        scopeColumn('colleges', '可查询的学院', '不限', colleges),
        scopeColumn('classes', '可查询的班级', '不限（输入班级名后回车）', []),
        {
          title: '操作',
          key: 'save',
          render: (_, r) => (
            <Button size="small" loading={savingId === r.userId} onClick={() => save(r)}>
              保存
            </Button>
          ),
        },
      ]}
    />
  );
}
