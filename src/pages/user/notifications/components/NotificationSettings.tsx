/**
 * 通知设置: a switch per kind of notification the signed-in user may receive (the server lists them:
 * administrators' kinds only to administrators). A kind turned off is not kept for them at all: no
 * bell count, no live event. Saved with 保存; closing without saving changes nothing.
 */
import { NOTIFICATION_KINDS, type NotificationPreferences } from '@/contract';
import * as api from '@/contract/api/notifications';
import { call } from '@/services/call';
import { Button, Drawer, Flex, message, Spin, Switch, Typography } from 'antd';
import { useCallback, useEffect, useId, useState } from 'react';

type Kinds = NotificationPreferences['kinds'];

export interface NotificationSettingsProps {
  open: boolean;
  /** Closed by its buttons, Esc or a click beside it. */
  onClose: () => void;
}

export default function NotificationSettings({ open, onClose }: NotificationSettingsProps) {
  const [kinds, setKinds] = useState<Kinds | null>(null);
  const [failed, setFailed] = useState(false);
  const [saving, setSaving] = useState(false);
  const listId = useId();

  const load = useCallback(async () => {
    setKinds(null);
    setFailed(false);
    try {
      setKinds((await call(api.getPreferences)).data.kinds);
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
    if (!kinds) return;
    setSaving(true);
    try {
      const res = await call(api.putPreferences, {
        body: { enabled: Object.fromEntries(kinds.map((k) => [k.kind, k.enabled])) },
      });
      setKinds(res.data.kinds);
      message.success('通知设置已保存');
      onClose();
    } catch {
      // The request layer has shown the error; the switches stay as they were set.
    } finally {
      setSaving(false);
    }
  };

  const toggle = (kind: Kinds[number]['kind'], enabled: boolean) =>
    setKinds((ks) => ks && ks.map((k) => (k.kind === kind ? { ...k, enabled } : k)));

  return (
    <Drawer
      title="通知设置"
      open={open}
      onClose={onClose}
      width={360}
      // At 375 px the drawer takes the screen rather than more than it.
      styles={{ wrapper: { maxWidth: '100vw' } }}
      footer={
        <Flex justify="flex-end" gap={8}>
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" loading={saving} disabled={!kinds} onClick={() => void save()}>
            保存
          </Button>
        </Flex>
      }
    >
      <Typography.Paragraph type="secondary" id={`${listId}-hint`}>
        关闭的类型不再通知你：不会出现在通知列表中，也不计入未读数。
      </Typography.Paragraph>
      {failed ? (
        <Flex vertical align="flex-start" gap={8}>
          <Typography.Text type="danger">通知设置加载失败</Typography.Text>
          <Button onClick={() => void load()}>重新加载</Button>
        </Flex>
      ) : !kinds ? (
        <Flex justify="center" style={{ padding: 24 }}>
          <Spin aria-label="正在加载通知设置" />
        </Flex>
      ) : (
        <Flex vertical gap={16} role="group" aria-label="接收的通知类型" aria-describedby={`${listId}-hint`}>
          {kinds.map((k) => (
            <Flex key={k.kind} justify="space-between" align="center" gap={16}>
              <label htmlFor={`${listId}-${k.kind}`}>{NOTIFICATION_KINDS[k.kind]}</label>
              <Switch
                id={`${listId}-${k.kind}`}
                checked={k.enabled}
                checkedChildren="接收"
                unCheckedChildren="关闭"
                onChange={(v) => toggle(k.kind, v)}
              />
            </Flex>
          ))}
        </Flex>
      )}
    </Drawer>
  );
}
