/**
 * One student's record as a role sees it under the saved policy. The server applies its own policy
 * code to the record (the preview endpoint), so what shows here is what that role gets.
 */
import { NJIT_ROLES, POLICY_FIELD_LABELS, POLICY_FIELDS, type NjitRole, type Student } from '@/contract';
import * as policyApi from '@/contract/api/njitPolicy';
import { ROLE_LABELS } from '@/components/roles';
import { call } from '@/services/call';
import { Button, Descriptions, Empty, Form, Input, Select, Space } from 'antd';
import { useState } from 'react';
import { gradeLabel, HIDDEN_TEXT } from '../../labels';

function shownValue(student: Student, field: (typeof POLICY_FIELDS)[number]) {
  const v = student[field];
  if (v === undefined) return <em>{HIDDEN_TEXT}（隐藏）</em>;
  if (field === 'grade') return gradeLabel(v as number | null);
  return v ?? '-';
}

export default function PolicyPreview() {
  const [loading, setLoading] = useState(false);
  const [result, setResult] = useState<{ role: NjitRole; student: Student } | null>(null);

  const preview = async (values: { role: NjitRole; studentNo: string }) => {
    setLoading(true);
    try {
      const res = await call(policyApi.previewFieldPolicy, { query: values });
      setResult(res.data);
    } catch {
      setResult(null);
    } finally {
      setLoading(false);
    }
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Form layout="inline" initialValues={{ role: 'njit' }} onFinish={preview}>
        {/* Always set (it starts at njit): no required mark, which antd would put on the select's wrapper. */}
        <Form.Item name="role" label="角色">
          <Select style={{ width: 140 }} options={NJIT_ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))} />
        </Form.Item>
        <Form.Item
          name="studentNo"
          label="学号"
          rules={[
            { required: true, whitespace: true, message: '请输入学号' },
            { max: 20, message: '学号最多 20 个字符' },
          ]}
        >
          <Input style={{ width: 180 }} placeholder="完整学号" allowClear />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={loading}>
            预览
          </Button>
        </Form.Item>
      </Form>
      {result ? (
        <Descriptions
          title={`${ROLE_LABELS[result.role]}看到的记录（按已保存的策略）`}
          column={1}
          bordered
          size="small"
        >
          {POLICY_FIELDS.map((f) => (
            <Descriptions.Item key={f} label={POLICY_FIELD_LABELS[f]}>
              {shownValue(result.student, f)}
            </Descriptions.Item>
          ))}
        </Descriptions>
      ) : (
        <Empty description="选择角色并输入学号，查看该角色看到的学生记录（预览会记入审计日志）" />
      )}
    </Space>
  );
}
