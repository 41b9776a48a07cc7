/**
 * Answering 未收录 questions, one or several at once: each with its own answer (chosen among its
 * options, 正确/错误, or typed), prefilled with the AI's draft when there is one. Every answer becomes a
 * verified bank entry; nothing is written when one of them is refused.
 */
import { OCS_TYPE_LABELS, type MissItem } from '@/contract';
import { errorMessageOf } from '@/requestErrorConfig';
import * as ocsReviewApi from '@/contract/api/ocsReview';
import { call } from '@/services/call';
import { Alert, Modal, Space, Tag, Typography, message } from 'antd';
import { useEffect, useState } from 'react';
import AnswerPicker, { hasAnswer } from '../../components/AnswerPicker';

export default function AnswerModal({
  items,
  onClose,
  onDone,
}: {
  items: MissItem[];
  onClose: () => void;
  onDone: () => void;
}) {
  const [answers, setAnswers] = useState<Record<number, string[]>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  useEffect(() => {
    setAnswers(Object.fromEntries(items.map((i) => [i.id, i.draft ?? []])));
    setError(undefined);
  }, [items]);
  const ready = items.length > 0 && items.every((i) => hasAnswer(answers[i.id]));

  const save = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const r = await call(
        ocsReviewApi.answerMisses,
        { body: { items: items.map((i) => ({ id: i.id, answer: answers[i.id]! })) } },
        { skipErrorHandler: true },
      );
      message.success(`已补录 ${r.data.answered} 道题，已作为“已核实”题目加入题库`);
      onDone();
      onClose();
    } catch (e) {
      setError(errorMessageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      title={items.length > 1 ? `补录 ${items.length} 道题的答案` : '补录答案'}
      open={items.length > 0}
      onCancel={onClose}
      onOk={save}
      okText="保存到题库"
      okButtonProps={{ disabled: !ready }}
      confirmLoading={busy}
      destroyOnHidden
      width={640}
    >
      <Space direction="vertical" size="large" style={{ width: '100%' }}>
        {error && <Alert type="error" showIcon message={error} />}
        {items.map((i, n) => (
          <div key={i.id}>
            <Typography.Paragraph strong style={{ marginBottom: 8 }}>
              {items.length > 1 ? `${n + 1}. ` : ''}
              {i.title} <Tag>{OCS_TYPE_LABELS[i.type]}</Tag>
              {i.draft && <Tag color="purple">AI 草稿</Tag>}
            </Typography.Paragraph>
            <AnswerPicker
              type={i.type}
              options={i.options}
              value={answers[i.id]}
              onChange={(v) => setAnswers((a) => ({ ...a, [i.id]: v }))}
              aria-label={`第 ${n + 1} 题答案`}
            />
          </div>
        ))}
      </Space>
    </Modal>
  );
}
