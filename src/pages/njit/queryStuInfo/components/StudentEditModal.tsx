/**
 * An administrator corrects a student's record. Only the fields that change are sent, after a
 * confirmation naming them; each is then flagged as corrected by hand, which the next roster import
 * keeps unless the importer takes the roster's value. Phone and ID numbers are shown masked, so their
 * boxes start empty: left empty, they are not changed.
 */
import { ROSTER_COLUMNS, STUDENT_STATUSES, StudentEditBody, type EditableField, type StudentDetail } from '@/contract';
import * as njitApi from '@/contract/api/njit';
import { fieldErrorsOf } from '@/requestErrorConfig';
import { call } from '@/services/call';
import { Form, Input, InputNumber, Modal, Select, message } from 'antd';
import { useState } from 'react';

type Values = Partial<Record<EditableField, string | number | null>>;

/** The Chinese name of each field (the roster's column labels). */
export const FIELD_LABELS = Object.fromEntries(ROSTER_COLUMNS.map((c) => [c.field, c.label])) as Record<
  EditableField,
  string
>;

const SENSITIVE = ['phone', 'idCard'] as const;

/** A form rule checking one field with the server's own schema (its Chinese message). */
const fieldRule = (field: EditableField) => ({
  validator: async (_: unknown, value: unknown) => {
    if (value === undefined) return;
    const r = StudentEditBody.safeParse({ [field]: value === '' ? null : value });
    if (!r.success) throw new Error(r.error.issues[0]?.message ?? '输入有误');
  },
});

function initialValues(s: StudentDetail): Values {
  return {
    name: s.name,
    gender: s.gender,
    college: s.college ?? '',
    major: s.major ?? '',
    className: s.className ?? '',
    grade: s.grade,
    status: s.status,
    dormitory: s.dormitory ?? '',
  };
}

/** The fields whose value differs from the record's (a sensitive box left empty is no change). */
function changesOf(s: StudentDetail, values: Values): Values {
  const before = initialValues(s);
  const out: Values = {};
  for (const [k, v] of Object.entries(values) as [EditableField, Values[EditableField]][]) {
    const value = typeof v === 'string' ? v.trim() : (v ?? null);
    if ((SENSITIVE as readonly string[]).includes(k)) {
      if (value !== '' && value !== null) out[k] = value;
    } else if (value !== (typeof before[k] === 'string' ? (before[k] as string).trim() : (before[k] ?? null))) {
      out[k] = value === '' ? null : value;
    }
  }
  return out;
}

export default function StudentEditModal(props: {
  student: StudentDetail | null;
  onClose: () => void;
  onSaved: (s: StudentDetail) => void;
}) {
  const { student, onClose, onSaved } = props;
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);

  const save = async (body: Values) => {
    if (!student) return;
    setSaving(true);
    try {
      const res = await call(njitApi.editStudent, {
        params: { id: student.id },
        body: body as StudentEditBody,
      });
      message.success('已保存：修改的字段已标记为手动修改，下次导入名单时默认保留');
      onSaved(res.data);
      onClose();
    } catch (e) {
      // The request layer has shown the message; the fields it names are marked here too.
      const fields = fieldErrorsOf(e);
      form.setFields(
        (Object.keys(FIELD_LABELS) as EditableField[])
          .filter((f) => fields[f])
          .map((name) => ({ name, errors: fields[name] })),
      );
    } finally {
      setSaving(false);
    }
  };

  const submit = async () => {
    if (!student) return;
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return; // the form shows what is wrong
    }
    const body = changesOf(student, values);
    const fields = Object.keys(body) as EditableField[];
    if (fields.length === 0) {
      message.info('没有要修改的内容');
      return;
    }
    Modal.confirm({
      title: `确认修改 ${student.name} 的信息？`,
      content: `将修改：${fields.map((f) => FIELD_LABELS[f]).join('、')}。修改会记录到审计日志，并标记为手动修改：下次导入名单时默认保留。`,
      okText: '确认修改',
      cancelText: '取消',
      onOk: () => save(body),
    });
  };

  return (
    <Modal
      title={student ? `编辑 ${student.name}（${student.studentNo}）` : '编辑学生信息'}
      open={student !== null}
      onCancel={onClose}
      onOk={submit}
      okText="保存"
      cancelText="取消"
      confirmLoading={saving}
      destroyOnHidden
      afterClose={() => form.resetFields()}
      width={520}
    >
      {student && (
        <Form<Values>
          form={form}
          name="studentEdit"
          layout="vertical"
          initialValues={initialValues(student)}
          onFinish={submit}
        >
          <Form.Item label="姓名" name="name" rules={[{ required: true, message: '请填写姓名' }, fieldRule('name')]}>
            <Input maxLength={32} />
          </Form.Item>
          <Form.Item label="性别" name="gender" rules={[fieldRule('gender')]}>
            <Select
              allowClear
              placeholder="未填写"
              options={[
                { value: '男', label: '男' },
                { value: '女', label: '女' },
              ]}
            />
          </Form.Item>
          {(['college', 'major', 'className', 'dormitory'] as const).map((f) => (
            <Form.Item key={f} label={FIELD_LABELS[f]} name={f} rules={[fieldRule(f)]}>
              <Input maxLength={64} placeholder="留空表示清除" />
            </Form.Item>
          ))}
          <Form.Item label="年级" name="grade" rules={[fieldRule('grade')]}>
            <InputNumber
              style={{ width: '100%' }}
              min={1950}
              max={2100}
              precision={0}
              placeholder="四位入学年份，如 2023"
            />
          </Form.Item>
          <Form.Item label="状态" name="status" rules={[fieldRule('status')]}>
            <Select options={STUDENT_STATUSES.map((s) => ({ value: s, label: s }))} />
          </Form.Item>
          {SENSITIVE.map((f) => (
            <Form.Item
              key={f}
              label={FIELD_LABELS[f]}
              name={f}
              rules={[fieldRule(f)]}
              extra={`当前：${(f === 'phone' ? student.phone : student.idCard) ?? '未填写'}。留空表示不修改。`}
            >
              <Input autoComplete="off" maxLength={32} placeholder={`输入新的${FIELD_LABELS[f]}`} />
            </Form.Item>
          ))}
        </Form>
      )}
    </Modal>
  );
}
