/**
 * The form's routing fields: priority, and one channel, several at once (fan-out) or a fallback
 * chain (the order picked is the order tried).
 */
import { CHANNEL_KIND_LABELS, PRIORITIES, PRIORITY_LABELS, UMS_MAX_ROUTE_CHANNELS, type Channel } from '@/contract';
import { Form, Radio, Select, Space } from 'antd';
import type { RouteMode } from './route';

const MODES: { value: RouteMode; label: string }[] = [
  { value: 'single', label: '一个渠道' },
  { value: 'fanout', label: '同时发到多个渠道' },
  { value: 'fallback', label: '依次尝试（失败换下一个）' },
];

const MODE_HINT: Record<RouteMode, string> = {
  single: '未指定时发到默认渠道。',
  fanout: '每个渠道各发一条，各有自己的投递记录。',
  fallback: '先发第一个渠道；它永久失败（或重试用尽）时改用下一个，按选择的顺序。',
};

export default function RouteFields({ channels, mode }: { channels: Channel[]; mode: RouteMode }) {
  const options = channels.map((c) => ({
    value: c.id,
    label: `${c.name}（${CHANNEL_KIND_LABELS[c.kind]}${c.isDefault ? '，默认' : ''}）`,
  }));
  return (
    <>
      <Form.Item label="发送方式" name="mode" extra={MODE_HINT[mode]}>
        <Radio.Group options={MODES} optionType="button" />
      </Form.Item>
      <Space size="large" wrap align="start">
        {mode === 'single' ? (
          <Form.Item label="渠道" name="channel" rules={[{ required: true, message: '请选择渠道' }]}>
            <Select style={{ minWidth: 220 }} options={options} />
          </Form.Item>
        ) : (
          <Form.Item
            label={mode === 'fanout' ? '渠道（可多选）' : '渠道（按尝试顺序选择）'}
            name="channels"
            rules={[
              { required: true, message: '请选择渠道' },
              {
                validator: async (_: unknown, v: number[] | undefined) => {
                  if (mode === 'fallback' && v && v.length < 2) throw new Error('依次尝试至少选择两个渠道');
                  if (v && v.length > UMS_MAX_ROUTE_CHANNELS) throw new Error(`最多 ${UMS_MAX_ROUTE_CHANNELS} 个渠道`);
                },
              },
            ]}
          >
            <Select mode="multiple" style={{ minWidth: 260, maxWidth: '100%' }} options={options} />
          </Form.Item>
        )}
        <Form.Item label="优先级" name="priority" extra="紧急消息排在最前，并且不受渠道免打扰时段限制。">
          <Select style={{ width: 120 }} options={PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABELS[p] }))} />
        </Form.Item>
      </Space>
    </>
  );
}
