/**
 * 通知设置: per kind of notification the signed-in user may receive (the server lists them:
 * administrators' kinds only to administrators), a switch to receive it and one to forward it to the
 * UMS channel picked here. A kind turned off is not kept for them at all: no bell count, no live event;
 * a forwarded one also goes out as a message on that channel. News of a failed delivery is never
 * forwarded. Saved with 保存; closing without saving changes nothing.
 */
import {
  CHANNEL_KIND_LABELS,
  NOTIFICATION_KINDS,
  UNFORWARDED_NOTIFICATION_KINDS,
  type Channel,
  type NotificationPreferences,
} from '@/contract';
import * as api from '@/contract/api/notifications';
import * as umsApi from '@/contract/api/ums';
import { call } from '@/services/call';
import { Link } from '@umijs/max';
import { Button, Drawer, Flex, message, Select, Spin, Switch, Typography } from 'antd';
import { useCallback, useEffect, useId, useState } from 'react';

type Prefs = NotificationPreferences;
type Kind = Prefs['kinds'][number]['kind'];

export interface NotificationSettingsProps {
  open: boolean;
  /** Closed by its buttons, Esc or a click beside it. */
  onClose: () => void;
  /** Once it has closed (its animation done, the focus lost with it): whoever opened it takes the focus back. */
  afterClose?: () => void;
}

/** An e-mail address receives nothing until its owner agreed: it cannot be picked before. */
const unconfirmed = (c: Channel) => c.kind === 'email' && !c.emailConsent?.confirmed;

export default function NotificationSettings({ open, onClose, afterClose }: NotificationSettingsProps) {
  const [prefs, setPrefs] = useState<Prefs | null>(null);
  const [channels, setChannels] = useState<Channel[]>([]);
  const [failed, setFailed] = useState(false);
  const [saving, setSaving] = useState(false);
  const id = useId();

  const load = useCallback(async () => {
    setPrefs(null);
    setFailed(false);
    try {
      const [p, c] = await Promise.all([call(api.getPreferences), call(umsApi.listChannels)]);
      setChannels(c.data);
      setPrefs(p.data);
    } catch {
      // The request layer has shown the error; the drawer offers to try again.
      setFailed(true);
    }
  }, []);

  useEffect(() => {
    // Read afresh at each opening: what was toggled and not saved is forgotten.
    if (open) void load();
  }, [open, load]);

  const save = async () => {
    if (!prefs) return;
    setSaving(true);
    const forwardable = prefs.kinds.filter((k) => !UNFORWARDED_NOTIFICATION_KINDS.includes(k.kind));
    try {
      const res = await call(api.putPreferences, {
        body: {
          enabled: Object.fromEntries(prefs.kinds.map((k) => [k.kind, k.enabled])),
          forward: Object.fromEntries(forwardable.map((k) => [k.kind, k.forward])),
          forwardChannelId: prefs.forwardChannelId,
        },
      });
      setPrefs(res.data);
      message.success('通知设置已保存');
      onClose();
    } catch {
      // The request layer has shown the error; the switches stay as they were set.
    } finally {
      setSaving(false);
    }
  };

  const change = (kind: Kind, set: { enabled?: boolean; forward?: boolean }) =>
    setPrefs((p) => p && { ...p, kinds: p.kinds.map((k) => (k.kind === kind ? { ...k, ...set } : k)) });

  let content: React.ReactNode;
  if (failed) {
    content = (
      <Flex vertical align="flex-start" gap={8}>
        <Typography.Text type="danger">通知设置加载失败</Typography.Text>
        <Button onClick={() => void load()}>重新加载</Button>
      </Flex>
    );
  } else if (!prefs) {
    content = (
      <Flex justify="center" style={{ padding: 24 }}>
        <Spin aria-label="正在加载通知设置" />
      </Flex>
    );
  } else {
    const forwarding = prefs.forwardChannelId !== null;
    content = (
      <Flex vertical gap={24}>
        <div>
          <label htmlFor={`${id}-channel`}>转发到推送渠道</label>
          <Select
            id={`${id}-channel`}
            style={{ width: '100%', marginTop: 8 }}
            allowClear
            placeholder="不转发"
            value={prefs.forwardChannelId ?? undefined}
            onChange={(v?: number) => setPrefs((p) => p && { ...p, forwardChannelId: v ?? null })}
            options={channels.map((c) => ({
              value: c.id,
              label: `${c.name}（${CHANNEL_KIND_LABELS[c.kind]}${unconfirmed(c) ? '，邮箱未确认' : ''}）`,
              disabled: unconfirmed(c),
            }))}
            notFoundContent="还没有推送渠道"
            aria-describedby={`${id}-channel-hint`}
          />
          <Typography.Paragraph type="secondary" id={`${id}-channel-hint`} style={{ margin: '4px 0 0' }}>
            选中“转发”的类型会同时作为消息发到这个渠道（按渠道的限速与免打扰时段发送）。
            {channels.length === 0 ? <Link to="/UMS/self">去添加渠道</Link> : null}
          </Typography.Paragraph>
        </div>
        <Flex vertical gap={16} role="group" aria-label="各类通知" aria-describedby={`${id}-hint`}>
          {prefs.kinds.map((k) => {
            const name = NOTIFICATION_KINDS[k.kind];
            const neverForwarded = UNFORWARDED_NOTIFICATION_KINDS.includes(k.kind);
            return (
              <Flex key={k.kind} justify="space-between" align="center" gap={12} wrap>
                <label htmlFor={`${id}-${k.kind}`} style={{ flex: '1 1 6em' }}>
                  {name}
                </label>
                <Flex gap={8}>
                  <Switch
                    id={`${id}-${k.kind}`}
                    checked={k.enabled}
                    checkedChildren="接收"
                    unCheckedChildren="关闭"
                    onChange={(enabled) => change(k.kind, { enabled })}
                  />
                  {neverForwarded ? null : (
                    <Switch
                      aria-label={`转发「${name}」`}
                      checked={k.forward}
                      disabled={!forwarding || !k.enabled}
                      checkedChildren="转发"
                      unCheckedChildren="不转发"
                      onChange={(forward) => change(k.kind, { forward })}
                    />
                  )}
                </Flex>
              </Flex>
            );
          })}
        </Flex>
      </Flex>
    );
  }

  return (
    <Drawer
      title="通知设置"
      open={open}
      onClose={onClose}
      afterOpenChange={(opened) => {
        if (!opened) afterClose?.();
      }}
      width={380}
      // At 375 px the drawer takes the screen rather than more than it.
      styles={{ wrapper: { maxWidth: '100vw' } }}
      footer={
        <Flex justify="flex-end" gap={8}>
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" loading={saving} disabled={!prefs} onClick={() => void save()}>
            保存
          </Button>
        </Flex>
      }
    >
      <Typography.Paragraph type="secondary" id={`${id}-hint`}>
        关闭的类型不再通知你：不会出现在通知列表中，也不计入未读数。推送失败的通知不会转发，以免转发渠道自身出错时反复发送。
      </Typography.Paragraph>
      {content}
    </Drawer>
  );
}
