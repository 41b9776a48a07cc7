/**
 * The roles × fields grid: per NJIT role and student field, 完整 / 脱敏 / 隐藏. Saved as a whole after a
 * confirmation; the server applies it to every answer at once (server/modules/njit/policy.ts).
 */
import {
  FIELD_LEVEL_LABELS,
  FIELD_LEVELS,
  POLICY_FIELD_LABELS,
  POLICY_FIELDS,
  UNMASKABLE_FIELDS,
  type FieldLevel,
  type PolicyField,
  type RoleFieldPolicy,
} from '@/contract';
import * as policyApi from '@/contract/api/njitPolicy';
import { ROLE_LABELS } from '@/components/roles';
import { call } from '@/services/call';
import { Alert, Button, Empty, message, Popconfirm, Select, Skeleton, Space, Table } from 'antd';
import { useEffect, useState } from 'react';

export default function PolicyGrid(props: { onSaved?: () => void }) {
  const [saved, setSaved] = useState<RoleFieldPolicy[] | null>(null);
  const [draft, setDraft] = useState<RoleFieldPolicy[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    call(policyApi.getFieldPolicy)
      .then((res) => {
        setSaved(res.data.roles);
        setDraft(res.data.roles);
      })
      .catch(() => setFailed(true));
  }, []);

  if (failed) return <Alert type="error" showIcon message="字段策略加载失败，请刷新页面重试" />;
  if (!draft || !saved) return <Skeleton active />;
  if (draft.length === 0) return <Empty description="没有可设置的角色" />;

  const dirty = JSON.stringify(draft) !== JSON.stringify(saved);
  const setLevel = (role: string, field: PolicyField, level: FieldLevel) =>
    setDraft(draft.map((r) => (r.role === role ? { ...r, fields: { ...r.fields, [field]: level } } : r)));

  const save = async () => {
    setSaving(true);
    try {
      const res = await call(policyApi.setFieldPolicy, { body: { roles: draft } });
      setSaved(res.data.roles);
      setDraft(res.data.roles);
      message.success('字段策略已保存，立即生效');
      props.onSaved?.();
    } catch {
      // The request layer has shown the server's message.
    } finally {
      setSaving(false);
    }
  };

  const columns = [
    { title: '字段', dataIndex: 'label', key: 'label', fixed: 'left' as const, width: 96 },
    ...draft.map((r) => ({
      title: ROLE_LABELS[r.role],
      key: r.role,
      render: (_: unknown, row: { field: PolicyField }) => (
        <Select
          id={`policy-${r.role}-${row.field}`}
          aria-label={`${ROLE_LABELS[r.role]}：${POLICY_FIELD_LABELS[row.field]}`}
          value={r.fields[row.field]}
          style={{ width: 96 }}
          onChange={(level: FieldLevel) => setLevel(r.role, row.field, level)}
          options={FIELD_LEVELS.map((level) => ({
            value: level,
            label: FIELD_LEVEL_LABELS[level],
            disabled: level === 'masked' && UNMASKABLE_FIELDS.includes(row.field),
          }))}
        />
      ),
    })),
  ];

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Alert
        type="info"
        showIcon
        message="完整：原样显示；脱敏：部分以 * 代替（管理员可填写原因查看完整手机号、身份证号）；隐藏：不返回该字段，也不能按它查询或申请查看。用户有多个 NJIT 角色时，每个字段取最宽松的一项。"
      />
      <Table
        rowKey="field"
        size="small"
        pagination={false}
        scroll={{ x: 'max-content' }}
        columns={columns}
        dataSource={POLICY_FIELDS.map((field) => ({ field, label: POLICY_FIELD_LABELS[field] }))}
      />
      <Space wrap>
        <Popconfirm
          title="保存字段策略？"
          description="保存后立即对这些角色的所有用户生效。"
          okText="保存"
          cancelText="取消"
          onConfirm={save}
          disabled={!dirty}
        >
          <Button type="primary" disabled={!dirty} loading={saving}>
            保存字段策略
          </Button>
        </Popconfirm>
        <Button disabled={!dirty || saving} onClick={() => setDraft(saved)}>
          撤销修改
        </Button>
      </Space>
    </Space>
  );
}
