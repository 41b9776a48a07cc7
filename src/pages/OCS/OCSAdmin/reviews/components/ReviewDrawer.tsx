/**
 * One reported question: the question with its stored answer and source, every report (who, the answer
 * they got, what they propose, why, their weight), the question's history (who changed what, when,
 * why), and the decision: accept with the right answer (chosen or typed; the most-proposed answer is
 * preselected) or reject, with a reason.
 */
import { formatTime } from '@/components/time';
import { OCS_TYPE_LABELS, bankSourceLabel, provenanceLabel, type ReviewDetail, type ReviewReport } from '@/contract';
import { errorMessageOf } from '@/requestErrorConfig';
import * as ocsReviewApi from '@/contract/api/ocsReview';
import { call } from '@/services/call';
import { useRequest } from 'ahooks';
import {
  Alert,
  Button,
  Descriptions,
  Drawer,
  Empty,
  Form,
  Input,
  Popconfirm,
  Skeleton,
  Space,
  Table,
  Tag,
  Timeline,
  Typography,
  message,
  type TableColumnsType,
} from 'antd';
import { useEffect, useState } from 'react';
import AnswerPicker, { hasAnswer } from '../../components/AnswerPicker';
import { historyLabel, REPORT_COLORS, REPORT_LABELS } from './labels';

const reportColumns: TableColumnsType<ReviewReport> = [
  { title: '用户', dataIndex: 'username' },
  { title: '得到的答案', dataIndex: 'answer', render: (a: string) => <Typography.Text>{a}</Typography.Text> },
  { title: '建议答案', dataIndex: 'proposed', render: (p: string[] | null) => p?.join('；') ?? '-' },
  { title: '说明', dataIndex: 'reason', render: (r: string) => r || '-' },
  { title: '权重', dataIndex: 'weight', render: (w: number) => w.toFixed(2) },
  {
    title: '状态',
    dataIndex: 'status',
    render: (_, r) => (
      <Space size={4} wrap>
        <Tag color={REPORT_COLORS[r.status]}>{REPORT_LABELS[r.status]}</Tag>
        {r.refunded > 0 && <Tag color="green">已退 {r.refunded}</Tag>}
        {r.mergedFrom !== null && <Tag>自 #{r.mergedFrom} 并入</Tag>}
      </Space>
    ),
  },
  { title: '时间', dataIndex: 'createdAt', render: (t: string) => formatTime(t) },
];

const asText = (v: unknown) => (Array.isArray(v) ? v.join('；') : String(v));

/** The most-weighted proposal of the open reports, to start from. */
function topProposal(d: ReviewDetail): string[] | undefined {
  const tally = new Map<string, { answer: string[]; weight: number }>();
  for (const r of d.reports) {
    if (r.status !== 'open' || !r.proposed) continue;
    const k = JSON.stringify(r.proposed);
    tally.set(k, { answer: r.proposed, weight: (tally.get(k)?.weight ?? 0) + r.weight });
  }
  return [...tally.values()].sort((a, b) => b.weight - a.weight)[0]?.answer;
}

export default function ReviewDrawer({
  questionId,
  onClose,
  onDecided,
}: {
  questionId: number | null;
  onClose: () => void;
  onDecided: () => void;
}) {
  const detail = useRequest(
    () =>
      questionId === null
        ? Promise.resolve(null)
        : call(ocsReviewApi.reviewDetail, { params: { id: questionId } }, { skipErrorHandler: true }),
    { refreshDeps: [questionId] },
  );
  const d = detail.data?.data;
  const [answer, setAnswer] = useState<string[]>([]);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  useEffect(() => {
    setAnswer(d ? (topProposal(d) ?? []) : []);
    setReason('');
    setError(undefined);
  }, [d]);
  const open = d?.reports.some((r) => r.status === 'open') ?? false;

  const decide = async (what: 'accept' | 'reject') => {
    if (!d) return;
    setBusy(true);
    setError(undefined);
    try {
      if (what === 'accept') {
        const r = await call(
          ocsReviewApi.acceptReviews,
          { body: { items: [{ questionId: d.question.id, answer }], reason: reason.trim() } },
          { skipErrorHandler: true },
        );
        message.success(
          r.data.refunds > 0
            ? `已采纳，题库答案已更正；已给 ${r.data.refunds} 位反馈者退还 ${r.data.refunded} 积分`
            : '已采纳，题库答案已更正',
        );
      } else {
        await call(
          ocsReviewApi.rejectReviews,
          { body: { questionIds: [d.question.id], reason: reason.trim() } },
          { skipErrorHandler: true },
        );
        message.success('已驳回，答案保持不变');
      }
      onDecided();
      onClose();
    } catch (e) {
      setError(errorMessageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Drawer
      title={d ? `审核题目 #${d.question.id}` : '审核题目'}
      open={questionId !== null}
      onClose={onClose}
      width={720}
      destroyOnHidden
    >
      {detail.loading && <Skeleton active />}
      {detail.error && <Alert type="error" showIcon message={errorMessageOf(detail.error)} />}
      {d && (
        <Space direction="vertical" size="large" style={{ width: '100%' }}>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label="题目">{d.question.title}</Descriptions.Item>
            <Descriptions.Item label="题型">{OCS_TYPE_LABELS[d.question.type]}</Descriptions.Item>
            {d.question.options.length > 0 && (
              <Descriptions.Item label="选项">
                {d.question.options.map((o, i) => `${String.fromCharCode(65 + i)}. ${o}`).join('　')}
              </Descriptions.Item>
            )}
            <Descriptions.Item label="当前答案">
              <Typography.Text strong>{d.question.answer.join('；')}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label="来源">
              <Space size={4} wrap>
                {provenanceLabel(d.question.provenance)}
                <Typography.Text type="secondary">（{bankSourceLabel(d.question.source)}）</Typography.Text>
                {d.question.disputed && <Tag color="orange">存疑</Tag>}
              </Space>
            </Descriptions.Item>
          </Descriptions>

          <div>
            <Typography.Title level={2} style={{ fontSize: 16 }}>
              反馈（{d.reports.length}）
            </Typography.Title>
            <Table<ReviewReport>
              rowKey="id"
              size="small"
              columns={reportColumns}
              dataSource={d.reports}
              pagination={d.reports.length > 10 ? { pageSize: 10 } : false}
              scroll={{ x: 'max-content' }}
            />
          </div>

          {open ? (
            <div>
              <Typography.Title level={2} style={{ fontSize: 16 }}>
                处理
              </Typography.Title>
              {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
              <Form layout="vertical" component="div">
                <Form.Item label="正确答案（采纳时使用；已预选最多人建议的答案）">
                  <AnswerPicker
                    type={d.question.type}
                    options={d.question.options}
                    value={answer}
                    onChange={setAnswer}
                    aria-label="正确答案"
                  />
                </Form.Item>
                <Form.Item label="处理说明" required>
                  <Input.TextArea
                    aria-label="处理说明"
                    rows={2}
                    maxLength={500}
                    value={reason}
                    onChange={(e) => setReason(e.target.value)}
                    placeholder="例如：已核对教材第三章原文"
                  />
                </Form.Item>
                <Space wrap>
                  <Popconfirm
                    title="采纳并更正题库答案？"
                    description="原答案会保留在修改历史中，被扣费的反馈者会收到退款。"
                    okText="采纳"
                    cancelText="取消"
                    onConfirm={() => decide('accept')}
                    disabled={!hasAnswer(answer) || !reason.trim()}
                  >
                    <Button type="primary" loading={busy} disabled={!hasAnswer(answer) || !reason.trim()}>
                      采纳并更正
                    </Button>
                  </Popconfirm>
                  <Popconfirm
                    title="驳回这些反馈？"
                    description="答案保持不变，反馈者今后的反馈权重会降低。"
                    okText="驳回"
                    okButtonProps={{ danger: true }}
                    cancelText="取消"
                    onConfirm={() => decide('reject')}
                    disabled={!reason.trim()}
                  >
                    <Button danger loading={busy} disabled={!reason.trim()}>
                      驳回
                    </Button>
                  </Popconfirm>
                </Space>
              </Form>
            </div>
          ) : (
            <Alert type="success" showIcon message="这道题的反馈都已处理" />
          )}

          <div>
            <Typography.Title level={2} style={{ fontSize: 16 }}>
              修改历史
            </Typography.Title>
            {d.history.length === 0 ? (
              <Empty description="还没有修改记录" image={Empty.PRESENTED_IMAGE_SIMPLE} />
            ) : (
              <Timeline
                items={d.history.map((h) => ({
                  key: h.id,
                  children: (
                    <Space direction="vertical" size={0}>
                      <Typography.Text strong>
                        {historyLabel(h.action)} · {h.actorName} · {formatTime(h.createdAt)}
                      </Typography.Text>
                      {h.before?.answer !== undefined && (
                        <Typography.Text type="secondary">原答案：{asText(h.before.answer)}</Typography.Text>
                      )}
                      {h.after?.answer !== undefined && (
                        <Typography.Text type="secondary">新答案：{asText(h.after.answer)}</Typography.Text>
                      )}
                      {h.reason && <Typography.Text>说明：{h.reason}</Typography.Text>}
                    </Space>
                  ),
                }))}
              />
            )}
          </div>
        </Space>
      )}
    </Drawer>
  );
}
