/**
 * A decision on several reported questions at once, with one reason: accept (each question gets its
 * most-proposed answer; questions nobody proposed an answer for are left for one-by-one review),
 * reject, or merge them into the one chosen as the target (the others' reports move to it and the
 * duplicates leave the bank).
 */
import type { ReviewItem } from '@/contract';
import { errorMessageOf } from '@/requestErrorConfig';
import * as ocsReviewApi from '@/contract/api/ocsReview';
import { call } from '@/services/call';
import { Alert, Input, List, Modal, Radio, Space, Typography, message } from 'antd';
import { useEffect, useState } from 'react';

export type BulkKind = 'accept' | 'reject' | 'merge';

const TITLES: Record<BulkKind, string> = { accept: '批量采纳', reject: '批量驳回', merge: '合并重复题' };

export default function BulkDecision({
  kind,
  items,
  onClose,
  onDone,
}: {
  kind: BulkKind | null;
  items: ReviewItem[];
  onClose: () => void;
  onDone: () => void;
}) {
  const [reason, setReason] = useState('');
  const [target, setTarget] = useState<number>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  useEffect(() => {
    setReason('');
    setError(undefined);
    setTarget(items[0]?.questionId);
  }, [kind, items]);
  const acceptable = items.filter((i) => i.proposals.length > 0);
  const skipped = items.length - acceptable.length;
  const ready =
    !!reason.trim() &&
    (kind === 'accept'
      ? acceptable.length > 0
      : kind === 'merge'
        ? items.length >= 2 && target !== undefined
        : items.length > 0);

  const run = async () => {
    if (!kind) return;
    setBusy(true);
    setError(undefined);
    try {
      if (kind === 'accept') {
        const r = await call(
          ocsReviewApi.acceptReviews,
          {
            body: {
              items: acceptable.map((i) => ({ questionId: i.questionId, answer: i.proposals[0]!.answer })),
              reason: reason.trim(),
            },
          },
          { skipErrorHandler: true },
        );
        message.success(`已采纳 ${r.data.questions} 题，给 ${r.data.refunds} 位反馈者退还 ${r.data.refunded} 积分`);
      } else if (kind === 'reject') {
        const r = await call(
          ocsReviewApi.rejectReviews,
          { body: { questionIds: items.map((i) => i.questionId), reason: reason.trim() } },
          { skipErrorHandler: true },
        );
        message.success(`已驳回 ${r.data.questions} 题的 ${r.data.reports} 条反馈`);
      } else {
        const r = await call(
          ocsReviewApi.mergeReviews,
          {
            body: {
              targetId: target!,
              sourceIds: items.filter((i) => i.questionId !== target).map((i) => i.questionId),
              reason: reason.trim(),
            },
          },
          { skipErrorHandler: true },
        );
        message.success(`已合并 ${r.data.merged} 道重复题，${r.data.reports} 条反馈并入目标题目`);
      }
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
      title={kind ? TITLES[kind] : ''}
      open={kind !== null}
      onCancel={onClose}
      onOk={run}
      okText={kind ? `确认${TITLES[kind].replace('批量', '')}` : '确认'}
      okButtonProps={{ disabled: !ready, danger: kind === 'reject' || kind === 'merge' }}
      confirmLoading={busy}
      destroyOnHidden
      width={600}
    >
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        {error && <Alert type="error" showIcon message={error} />}
        {kind === 'accept' && (
          <>
            <Typography.Text>
              每道题改用最多人建议的答案，原答案保留在修改历史中，被扣费的反馈者会收到退款。
            </Typography.Text>
            {skipped > 0 && (
              <Alert type="warning" showIcon message={`${skipped} 道题没有人建议答案，请逐题审核（本次跳过）。`} />
            )}
            <List
              size="small"
              bordered
              dataSource={acceptable}
              renderItem={(i) => (
                <List.Item>
                  <Typography.Text ellipsis style={{ maxWidth: '100%' }}>
                    {i.title} → <Typography.Text strong>{i.proposals[0]!.answer.join('；')}</Typography.Text>
                  </Typography.Text>
                </List.Item>
              )}
            />
          </>
        )}
        {kind === 'reject' && (
          <Typography.Text>
            驳回所选 {items.length} 道题的全部待审核反馈，答案保持不变；反馈者今后的反馈权重会降低。
          </Typography.Text>
        )}
        {kind === 'merge' && (
          <>
            <Typography.Text>
              选择保留的题目；其余题目的反馈并入它，其余题目从题库中删除（修改历史保留）。
            </Typography.Text>
            <Radio.Group
              aria-label="保留的题目"
              value={target}
              onChange={(e) => setTarget(e.target.value as number)}
              style={{ display: 'flex', flexDirection: 'column', gap: 4 }}
              options={items.map((i) => ({ value: i.questionId, label: `#${i.questionId} ${i.title}` }))}
            />
          </>
        )}
        <Input.TextArea
          aria-label="处理说明"
          rows={2}
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          placeholder="处理说明（必填，记入修改历史与审计日志）"
        />
      </Space>
    </Modal>
  );
}
