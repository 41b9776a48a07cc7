/**
 * 反馈答案有误: one answered query of the user (from the ask page, the query history or the bills).
 * Shows the question and the answer given, and takes the answer the user believes is right (optional:
 * the options to pick from, 正确/错误, or the blanks) and why. A report made already shows its outcome;
 * an answer that cannot be reported says why.
 */
import { formatTime } from '@/components/time';
import { OCS_REPORT_STATUS_LABELS, answerText, type OcsMyReport, type OcsReportContext } from '@/contract';
import { errorMessageOf, fieldErrorsOf } from '@/requestErrorConfig';
import * as ocsReviewApi from '@/contract/api/ocsReview';
import { call } from '@/services/call';
import { useRequest } from 'ahooks';
import { Alert, Checkbox, Descriptions, Form, Input, Modal, Radio, Skeleton, Space, Tag, message } from 'antd';
import { useState } from 'react';

interface Props {
  /** The query to report; null closes the dialog. */
  queryId: number | null;
  onClose: () => void;
  /** After a report was taken (lists refresh their 反馈 column). */
  onReported?: () => void;
}

interface Values {
  picked?: string | string[];
  text?: string;
  reason?: string;
}

const STATUS_COLORS = { open: 'processing', accepted: 'success', rejected: 'default' } as const;

export function ReportOutcome({ report }: { report: OcsMyReport }) {
  return (
    <Descriptions column={1} size="small" bordered>
      <Descriptions.Item label="反馈状态">
        <Tag color={STATUS_COLORS[report.status]}>{OCS_REPORT_STATUS_LABELS[report.status]}</Tag>
        {report.refunded > 0 && <Tag color="green">已退还 {report.refunded} 积分</Tag>}
      </Descriptions.Item>
      <Descriptions.Item label="你建议的答案">{report.proposed?.join('；') || '（未填写）'}</Descriptions.Item>
      {report.resolution && <Descriptions.Item label="管理员说明">{report.resolution}</Descriptions.Item>}
      <Descriptions.Item label="反馈时间">{formatTime(report.createdAt)}</Descriptions.Item>
    </Descriptions>
  );
}

function ProposalField({ question }: { question: NonNullable<OcsReportContext['question']> }) {
  if (question.type === 'judgement') {
    return (
      <Form.Item name="picked" label="正确答案（可选）">
        <Radio.Group options={['正确', '错误']} />
      </Form.Item>
    );
  }
  if (question.options.length > 0) {
    const options = question.options.map((o, i) => ({ value: o, label: `${String.fromCharCode(65 + i)}. ${o}` }));
    return (
      <Form.Item name="picked" label="正确答案（可选）">
        {question.type === 'single' ? (
          <Radio.Group options={options} style={{ display: 'flex', flexDirection: 'column', gap: 4 }} />
        ) : (
          <Checkbox.Group options={options} style={{ display: 'flex', flexDirection: 'column', gap: 4 }} />
        )}
      </Form.Item>
    );
  }
  return (
    <Form.Item name="text" label="正确答案（可选）" extra="多个空每个一行" rules={[{ max: 4000, message: '答案过长' }]}>
      <Input.TextArea placeholder="你认为正确的答案" autoSize={{ minRows: 1, maxRows: 6 }} />
    </Form.Item>
  );
}

export default function ReportModal({ queryId, onClose, onReported }: Props) {
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  const context = useRequest(
    () =>
      queryId === null
        ? Promise.resolve(null)
        : call(ocsReviewApi.reportContext, { params: { id: queryId } }, { skipErrorHandler: true }),
    { refreshDeps: [queryId] },
  );
  const data = context.data?.data;
  const canReport = !!data && !data.report && !data.refusal && !!data.question;

  const submit = async (v: Values) => {
    if (queryId === null) return;
    setError(undefined);
    setSubmitting(true);
    // Several options go as a JSON array, so an option holding `#` stays whole.
    const proposed = Array.isArray(v.picked) ? JSON.stringify(v.picked) : (v.picked ?? v.text ?? '').trim();
    try {
      await call(
        ocsReviewApi.createReport,
        {
          body: {
            queryId,
            ...(proposed ? { proposed } : {}),
            ...(v.reason?.trim() ? { reason: v.reason.trim() } : {}),
          },
        },
        { skipErrorHandler: true },
      );
      message.success('已提交反馈：管理员审核后会更正题库，答案确实有误时退还本题扣费');
      form.resetFields();
      onReported?.();
      onClose();
    } catch (e) {
      const fields = fieldErrorsOf(e);
      if (fields.proposed)
        form.setFields([{ name: data?.question?.options.length ? 'picked' : 'text', errors: fields.proposed }]);
      setError(errorMessageOf(e));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Modal
      title="反馈答案有误"
      open={queryId !== null}
      onCancel={onClose}
      onOk={canReport ? () => form.submit() : onClose}
      okText={canReport ? '提交反馈' : '关闭'}
      cancelButtonProps={canReport ? undefined : { style: { display: 'none' } }}
      confirmLoading={submitting}
      destroyOnHidden
      width={560}
    >
      {context.loading && <Skeleton active />}
      {context.error && <Alert type="error" showIcon message={errorMessageOf(context.error)} />}
      {data && (
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <Descriptions column={1} size="small">
            <Descriptions.Item label="题目">{data.question?.title ?? data.query.title}</Descriptions.Item>
            <Descriptions.Item label="得到的答案">{answerText(data.query.answer) || '-'}</Descriptions.Item>
          </Descriptions>
          {data.report && <ReportOutcome report={data.report} />}
          {!data.report && data.refusal && <Alert type="warning" showIcon message={data.refusal} />}
          {error && <Alert type="error" showIcon message={error} />}
          {canReport && (
            <Form<Values> form={form} layout="vertical" onFinish={submit}>
              <ProposalField question={data.question!} />
              <Form.Item name="reason" label="说明（可选）" rules={[{ max: 500, message: '说明不能超过 500 个字符' }]}>
                <Input.TextArea rows={2} maxLength={500} showCount placeholder="例如：教材第三章第二节原文" />
              </Form.Item>
            </Form>
          )}
        </Space>
      )}
    </Modal>
  );
}
