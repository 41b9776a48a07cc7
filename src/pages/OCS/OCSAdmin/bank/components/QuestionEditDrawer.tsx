/**
 * Edit one question. The server re-validates it as an import would (answers as letters or texts) and
 * refuses with 409 when the result would duplicate another question.
 */
import { OCS_TYPE_LABELS, type BankQuestion, type BankType } from '@/contract';
import * as ocsAdminApi from '@/contract/api/ocsAdmin';
import { call } from '@/services/call';
import { DrawerForm, ProFormSelect, ProFormTextArea } from '@ant-design/pro-components';
import { message } from 'antd';

interface Values {
  title: string;
  type: BankType;
  options: string;
  answer: string;
}

const lines = (s: string | undefined) =>
  (s ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

export default function QuestionEditDrawer({
  question,
  onClose,
  onSaved,
}: {
  question: BankQuestion | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  return (
    <DrawerForm<Values>
      title={question ? `编辑题目 #${question.id}` : '编辑题目'}
      open={!!question}
      width={560}
      drawerProps={{ destroyOnHidden: true, onClose }}
      submitter={{ searchConfig: { submitText: '保存题目' } }}
      initialValues={
        question
          ? {
              title: question.title,
              type: question.type,
              options: question.options.join('\n'),
              answer: question.answer.join('\n'),
            }
          : undefined
      }
      onFinish={async (v) => {
        if (!question) return false;
        try {
          await call(ocsAdminApi.updateQuestion, {
            params: { id: question.id },
            body: {
              title: v.title,
              type: v.type,
              options: v.type === 'judgement' || v.type === 'completion' ? [] : lines(v.options),
              answer: lines(v.answer),
            },
          });
          message.success('已保存');
          onSaved();
          onClose();
          return true;
        } catch {
          return false; // shown by the request layer (validation or duplicate)
        }
      }}
    >
      <ProFormTextArea
        name="title"
        label="题目"
        rules={[
          { required: true, whitespace: true, message: '请输入题目' },
          { max: 2000, message: '题目不能超过 2000 个字符' },
        ]}
      />
      <ProFormSelect
        name="type"
        label="题型"
        allowClear={false}
        options={Object.entries(OCS_TYPE_LABELS).map(([value, label]) => ({ value, label }))}
      />
      <ProFormTextArea
        name="options"
        label="选项"
        tooltip="每行一个选项；判断题和填空题不需要"
        fieldProps={{ autoSize: { minRows: 3 } }}
      />
      <ProFormTextArea
        name="answer"
        label="答案"
        extra="每行一个：选择题写选项字母（如 AC）或选项原文，填空题每个空一行；判断题写 正确 或 错误"
        rules={[{ required: true, whitespace: true, message: '请输入答案' }]}
      />
    </DrawerForm>
  );
}
