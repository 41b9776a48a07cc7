/**
 * What a staged roster would change, before the commit, and the importer's choices: for fields corrected
 * by hand, keep the edit (the default) or take the roster's value, in bulk or field by field; students the
 * roster no longer lists are left as they are or marked 离校. The diff comes a page at a time (a roster of
 * 100,000 students is never sent whole); phone and ID numbers are masked.
 */
import type { ImportCommitChoice, ImportDiffCounts, ImportDiffItem, ImportFieldChange } from '@/contract';
import * as njitApi from '@/contract/api/njit';
import { call } from '@/services/call';
import { Alert, Checkbox, Radio, Space, Table, Tabs, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { FIELD_LABELS } from './StudentEditModal';

export type ImportChoice = ImportCommitChoice;
export const DEFAULT_CHOICE: ImportChoice = { manual: 'keep', choices: [], missing: 'leave' };

type Kind = 'changed' | 'new' | 'missing';
type Take = 'keep' | 'roster';

/** The take for one student's field: its own choice, else the bulk one. */
function takeOf(choice: ImportChoice, studentNo: string, field: ImportFieldChange['field']): Take {
  return choice.choices.find((c) => c.studentNo === studentNo && c.field === field)?.take ?? choice.manual;
}

function withTake(choice: ImportChoice, studentNo: string, field: ImportFieldChange['field'], take: Take) {
  const others = choice.choices.filter((c) => !(c.studentNo === studentNo && c.field === field));
  // A choice equal to the bulk one is no choice: the list stays short.
  return { ...choice, choices: take === choice.manual ? others : [...others, { studentNo, field, take }] };
}

export default function ImportDiff(props: {
  importId: string;
  value: ImportChoice;
  onChange: (c: ImportChoice) => void;
}) {
  const { importId, value, onChange } = props;
  const [kind, setKind] = useState<Kind>('changed');
  const [paging, setPaging] = useState({ current: 1, pageSize: 10 });
  const [page, setPage] = useState<{ rows: ImportDiffItem[]; total: number } | null>(null);
  const [counts, setCounts] = useState<ImportDiffCounts | null>(null);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    setLoading(true);
    call(njitApi.importDiff, { params: { id: importId }, query: { kind, ...paging } })
      .then((res) => {
        if (!live) return;
        setPage({ rows: res.data, total: res.total });
        setCounts(res.counts);
        setFailed(false);
      })
      .catch(() => live && setFailed(true))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [importId, kind, paging]);

  const change = (row: ImportDiffItem, c: ImportFieldChange) => (
    <div key={c.field} style={{ marginBottom: 4 }}>
      <Space size={4} wrap>
        <Typography.Text strong>{FIELD_LABELS[c.field]}：</Typography.Text>
        <span>{c.stored ?? '（空）'}</span>
        <span aria-label="改为">→</span>
        <span>{c.roster ?? '（空）'}</span>
        {c.manual && (
          <>
            <Tag color="purple" style={{ marginInlineEnd: 0 }}>
              手动修改{c.editedBy ? `（${c.editedBy}）` : ''}
            </Tag>
            {/* antd's group has no role of its own: the wrapper names the choice for screen readers. */}
            <span role="radiogroup" aria-label={`${row.name}的${FIELD_LABELS[c.field]}`}>
              <Radio.Group
                size="small"
                optionType="button"
                value={takeOf(value, row.studentNo, c.field)}
                onChange={(e) => onChange(withTake(value, row.studentNo, c.field, e.target.value as Take))}
                options={[
                  { value: 'keep', label: '保留手动修改' },
                  { value: 'roster', label: '采用名单' },
                ]}
              />
            </span>
          </>
        )}
      </Space>
    </div>
  );

  const columns: ColumnsType<ImportDiffItem> = [
    { title: '学号', dataIndex: 'studentNo', width: 140 },
    { title: '姓名', dataIndex: 'name', width: 100 },
    ...(kind === 'changed'
      ? [
          {
            title: '变更（现有 → 名单）',
            key: 'changes',
            render: (_: unknown, r: ImportDiffItem) => r.changes.map((c) => change(r, c)),
          },
        ]
      : [{ title: '状态', dataIndex: 'status', width: 80 }]),
  ];

  const label = (text: string, n: number | undefined) => `${text}（${n ?? '…'}）`;
  return (
    <div>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        与现有数据对比
      </Typography.Title>
      {failed && <Alert type="error" showIcon message="对比结果加载失败，可切换页签重试" style={{ marginBottom: 8 }} />}
      {counts && counts.manualConflicts > 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 8 }}
          message={`名单将改动 ${counts.manualConflicts} 个手动修改过的字段`}
          description={
            <Space direction="vertical">
              <span>默认保留手动修改；也可以在“变更”中逐项选择。</span>
              <span role="radiogroup" aria-label="手动修改的字段（批量）">
                <Radio.Group
                  value={value.manual}
                  onChange={(e) => onChange({ ...value, manual: e.target.value as Take, choices: [] })}
                  options={[
                    { value: 'keep', label: '全部保留手动修改' },
                    { value: 'roster', label: '全部采用名单中的值' },
                  ]}
                />
              </span>
            </Space>
          }
        />
      )}
      {counts && counts.missing > 0 && (
        <Checkbox
          style={{ marginBottom: 8 }}
          checked={value.missing === 'mark_left'}
          onChange={(e) => onChange({ ...value, missing: e.target.checked ? 'mark_left' : 'leave' })}
        >
          将名单中缺少的 {counts.missing} 名在读或休学学生标记为“离校”（不删除，按保留期限到期清除）
        </Checkbox>
      )}
      <Tabs
        activeKey={kind}
        onChange={(k) => {
          setKind(k as Kind);
          setPaging((p) => ({ ...p, current: 1 }));
        }}
        items={[
          { key: 'changed', label: label('变更', counts?.changed) },
          { key: 'new', label: label('新增', counts?.new) },
          { key: 'missing', label: label('名单中缺少', counts?.missing) },
        ]}
      />
      <Table<ImportDiffItem>
        size="small"
        rowKey="studentNo"
        loading={loading}
        dataSource={page?.rows ?? []}
        columns={columns}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: '没有差异' }}
        pagination={{
          current: paging.current,
          pageSize: paging.pageSize,
          total: page?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 50],
          showTotal: (t) => `共 ${t} 人`,
          onChange: (current, pageSize) => setPaging({ current, pageSize }),
        }}
      />
    </div>
  );
}
