/** One real call to an upstream with a sample question: what it answered, how fast, or why it failed. */
import type { Upstream, UpstreamTestResult } from '@/contract';
import { errorMessageOf } from '@/requestErrorConfig';
import * as ocsUpstreamApi from '@/contract/api/ocsUpstream';
import { call } from '@/services/call';
import { Alert, Button, Descriptions, Input, Modal, Select, Space, Typography } from 'antd';
import { useState } from 'react';

const TYPES = [
  { value: 'single', label: '单选题' },
  { value: 'multiple', label: '多选题' },
  { value: 'judgement', label: '判断题' },
  { value: 'completion', label: '填空题' },
  { value: 'any', label: '不限' },
] as const;

export default function TestModal({ upstream, onClose }: { upstream: Upstream | null; onClose: () => void }) {
  const [title, setTitle] = useState('中华人民共和国的首都是哪座城市？');
  const [type, setType] = useState<(typeof TYPES)[number]['value']>('single');
  const [options, setOptions] = useState('A. 上海\nB. 北京\nC. 广州');
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<UpstreamTestResult | null>(null);
  const [error, setError] = useState<string>();

  const run = async () => {
    if (!upstream) return;
    setRunning(true);
    setError(undefined);
    setResult(null);
    try {
      setResult(
        (
          await call(
            ocsUpstreamApi.testUpstream,
            { params: { id: upstream.id }, body: { title, type, options } },
            { skipErrorHandler: true },
          )
        ).data,
      );
    } catch (e) {
      setError(errorMessageOf(e));
    } finally {
      setRunning(false);
    }
  };

  return (
    <Modal
      title={upstream ? `测试上游题库「${upstream.name}」` : '测试'}
      open={upstream !== null}
      onCancel={onClose}
      footer={<Button onClick={onClose}>关闭</Button>}
      destroyOnHidden
      width={600}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text type="secondary">真实调用一次上游接口；不扣任何用户的积分，答案也不存入题库。</Typography.Text>
        <Input aria-label="测试题目" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={2000} />
        <Select aria-label="测试题型" value={type} onChange={setType} options={[...TYPES]} style={{ width: 160 }} />
        <Input.TextArea aria-label="测试选项" rows={3} value={options} onChange={(e) => setOptions(e.target.value)} />
        <Button type="primary" loading={running} disabled={!title.trim()} onClick={run}>
          发送测试
        </Button>
        {error && <Alert type="error" showIcon message={error} />}
        {result && (
          <Space direction="vertical" style={{ width: '100%' }} data-testid="upstream-test-result">
            {result.outcome === 'answered' && <Alert type="success" showIcon message={`答案：${result.answer}`} />}
            {result.outcome === 'not_found' && (
              <Alert type="warning" showIcon message={result.error ?? '上游没有给出答案（答案路径取不到值）'} />
            )}
            {result.outcome === 'failed' && <Alert type="error" showIcon message={`调用失败：${result.error}`} />}
            <Descriptions column={1} size="small" bordered>
              <Descriptions.Item label="HTTP 状态">{result.status ?? '-'}</Descriptions.Item>
              <Descriptions.Item label="耗时">{result.latencyMs} 毫秒</Descriptions.Item>
              <Descriptions.Item label="返回内容（开头）">
                <pre style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', margin: 0 }}>{result.body ?? '-'}</pre>
              </Descriptions.Item>
            </Descriptions>
          </Space>
        )}
      </Space>
    </Modal>
  );
}
