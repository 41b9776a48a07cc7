/**
 * The user's channels: kind, default flag, masked address, security settings, health (last success,
 * last error, success rate over 7 days, any pause in force), and actions.
 */
import { formatTime } from '@/components/time';
import type { Channel, ChannelKindInfo, ChannelTestResult } from '@/contract';
import * as umsApi from '@/contract/api/ums';
import { call } from '@/services/call';
import {
  Button,
  Grid,
  Modal,
  Popconfirm,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
  message,
  type TableColumnsType,
} from 'antd';
import { useState } from 'react';
import { KIND_SERVICE, KindTag, rateText } from '../../components/kinds';
import ChannelForm from './ChannelForm';
import TestResult from './TestResult';

interface Props {
  channels: Channel[];
  kinds?: ChannelKindInfo[];
  loading: boolean;
  onChanged: () => void;
}

function Health({ c }: { c: Channel }) {
  const throttled = c.throttledUntil && new Date(c.throttledUntil).getTime() > Date.now();
  return (
    <Space direction="vertical" size={0}>
      <span>成功率：{rateText(c.health)}</span>
      <span>最近成功：{formatTime(c.lastSuccessAt, '暂无')}</span>
      {c.lastErrorAt && (
        <Tooltip title={c.lastError}>
          <Typography.Text type="danger">最近错误：{formatTime(c.lastErrorAt)}</Typography.Text>
        </Tooltip>
      )}
      {throttled && <Typography.Text type="warning">限流至 {formatTime(c.throttledUntil)}</Typography.Text>}
      {c.digestAfterSeconds !== null && (
        <Typography.Text type="secondary">溢出摘要：等待超过 {c.digestAfterSeconds} 秒时合并</Typography.Text>
      )}
      {c.quietHours && (
        <Typography.Text type="secondary">
          免打扰：{c.quietHours.start}–{c.quietHours.end}
        </Typography.Text>
      )}
    </Space>
  );
}

/** Wide enough for the four actions on one line; on narrower screens they wrap to two. */
const ACTIONS_WIDTH = { wide: 310, narrow: 150 };
/** Characters of the masked webhook always shown (`…=3f9a…c1d2`). */
const WEBHOOK_TAIL = 10;
/** Below this the table scrolls sideways, the action column staying in view at the right. */
const TABLE_MIN_WIDTH = 1000;

function Security({ c }: { c: Channel }) {
  if (c.kind === 'webhook') {
    const n = c.webhookSettings?.headers.length ?? 0;
    return <Tag>{n > 0 ? `${c.webhookSettings?.method} · ${n} 个请求头` : c.webhookSettings?.method}</Tag>;
  }
  if (c.kind !== 'dingtalk' && c.kind !== 'feishu') return <>-</>;
  const label = c.kind === 'feishu' ? '签名' : '加签';
  return (
    <Space direction="vertical" size={2}>
      <span>
        {label}：{c.hasSecret ? <Tag color="green">已设置</Tag> : <Tag>未设置</Tag>}
      </span>
      {c.keyword && <span>关键词：{c.keyword}</span>}
    </Space>
  );
}

export default function ChannelTable({ channels, kinds, loading, onChanged }: Props) {
  const screens = Grid.useBreakpoint();
  const [testing, setTesting] = useState<number>();
  const [tested, setTested] = useState<{ channel: Channel; result: ChannelTestResult }>();

  const runTest = async (c: Channel) => {
    setTesting(c.id);
    try {
      const res = await call(umsApi.testChannel, { params: { id: c.id } });
      setTested({ channel: c, result: res.data });
      onChanged(); // health columns changed
    } catch {
      // The request layer has shown the error.
    } finally {
      setTesting(undefined);
    }
  };
  const [resending, setResending] = useState<number>();
  const resend = async (c: Channel) => {
    setResending(c.id);
    try {
      await call(umsApi.resendConfirmation, { params: { id: c.id } });
      message.success(`确认邮件已发送到 ${c.webhookMasked}，收件人打开邮件中的链接后即可接收推送`);
      onChanged();
    } catch {
      // The request layer has shown the error (429: sent too recently or too often today).
    } finally {
      setResending(undefined);
    }
  };
  const act = async (run: () => Promise<unknown>, ok: string) => {
    try {
      await run();
      message.success(ok);
      onChanged();
    } catch {
      // The request layer has shown the error (409: messages still waiting on this channel).
    }
  };

  const columns: TableColumnsType<Channel> = [
    {
      title: '名称',
      dataIndex: 'name',
      width: 170,
      render: (_, c) => (
        <Space wrap size={4}>
          {c.name}
          {c.isDefault && <Tag color="blue">默认</Tag>}
          {c.emailConsent && !c.emailConsent.confirmed && (
            <Tooltip
              title={
                c.emailConsent.sentAt
                  ? `确认邮件已于 ${formatTime(c.emailConsent.sentAt)} 发出，链接 ${formatTime(c.emailConsent.expiresAt)} 前有效。收件人打开邮件中的链接后，这个邮箱才会收到推送。`
                  : '确认邮件没有发出，请点击“重新发送确认邮件”。收件人确认之前，这个邮箱不会收到推送。'
              }
            >
              <Tag color="orange">待确认</Tag>
            </Tooltip>
          )}
        </Space>
      ),
    },
    { title: '类型', dataIndex: 'kind', width: 140, render: (_, c) => <KindTag kind={c.kind} /> },
    {
      // The masked URL is long: it takes the room that is left, so it never pushes the actions out
      // of view. It is cut in the middle: its end (the masked token) tells two robots apart.
      title: '地址',
      dataIndex: 'webhookMasked',
      render: (w: string) => (
        <Typography.Text code style={{ width: '100%' }} ellipsis={{ suffix: w.slice(-WEBHOOK_TAIL), tooltip: w }}>
          {w.slice(0, -WEBHOOK_TAIL)}
        </Typography.Text>
      ),
    },
    { title: '安全设置', key: 'security', width: 150, render: (_, c) => <Security c={c} /> },
    { title: '健康状况', key: 'health', width: 230, render: (_, c) => <Health c={c} /> },
    {
      title: '操作',
      key: 'actions',
      fixed: 'right',
      width: screens.xl ? ACTIONS_WIDTH.wide : ACTIONS_WIDTH.narrow,
      render: (_, c) => (
        <Space size={0} wrap>
          {c.emailConsent && !c.emailConsent.confirmed ? (
            <Button type="link" size="small" loading={resending === c.id} onClick={() => resend(c)}>
              重新发送确认邮件
            </Button>
          ) : (
            <Button type="link" size="small" loading={testing === c.id} onClick={() => runTest(c)}>
              发送测试消息
            </Button>
          )}
          <ChannelForm
            channel={c}
            kinds={kinds}
            onSaved={onChanged}
            trigger={
              <Button type="link" size="small">
                编辑
              </Button>
            }
          />
          {!c.isDefault && (
            <Button
              type="link"
              size="small"
              onClick={() =>
                act(
                  () => call(umsApi.updateChannel, { params: { id: c.id }, body: { isDefault: true } }),
                  `「${c.name}」已设为默认`,
                )
              }
            >
              设为默认
            </Button>
          )}
          <Popconfirm
            title={`删除渠道「${c.name}」？`}
            description="删除后该渠道不再接收消息；已有的消息记录会保留。"
            okText="删除"
            okButtonProps={{ danger: true }}
            cancelText="取消"
            onConfirm={() => act(() => call(umsApi.deleteChannel, { params: { id: c.id } }), `渠道「${c.name}」已删除`)}
          >
            <Button type="link" size="small" danger>
              删除
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <>
      <Table<Channel>
        rowKey="id"
        columns={columns}
        dataSource={channels}
        loading={loading}
        pagination={false}
        scroll={{ x: TABLE_MIN_WIDTH }}
      />
      <Modal
        open={tested !== undefined}
        title={tested ? `${KIND_SERVICE[tested.channel.kind]}的应答` : ''}
        footer={null}
        onCancel={() => setTested(undefined)}
      >
        {tested && <TestResult channel={tested.channel} result={tested.result} />}
      </Modal>
    </>
  );
}
