/**
 * 偏好设置: the signed-in user's dark and compact mode, primary colour and collapsed side menu, each applied as it is
 * picked and saved on the server (store.ts). Opened from the avatar menu; loaded only then.
 */
import { PRIMARY_COLORS, type PrimaryColor } from '@/contract/preferenceDefaults';
import { Button, Drawer, Flex, Radio, Switch, Typography } from 'antd';
import React, { useId } from 'react';
import { DEFAULT_PREFERENCES } from '@/contract/preferenceDefaults';
import { setPreferences, usePreferences } from './store';

export interface PreferencesDrawerProps {
  open: boolean;
  /** Closed by its button, Esc or a click beside it. */
  onClose: () => void;
  /** Once it has closed (its animation done, the focus lost with it): whoever opened it takes the focus back. */
  afterClose?: () => void;
}

function SwitchRow({
  label,
  hint,
  checked,
  onChange,
}: {
  label: string;
  hint: string;
  checked: boolean;
  onChange: (v: boolean) => void;
}) {
  const id = useId();
  return (
    <Flex justify="space-between" align="center" gap={16}>
      <div>
        <label htmlFor={id}>{label}</label>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }} id={`${id}-hint`}>
          {hint}
        </Typography.Paragraph>
      </div>
      <Switch id={id} checked={checked} onChange={onChange} aria-describedby={`${id}-hint`} />
    </Flex>
  );
}

export default function PreferencesDrawer({ open, onClose, afterClose }: PreferencesDrawerProps) {
  const prefs = usePreferences();
  const colorsId = useId();
  return (
    <Drawer
      title="偏好设置"
      open={open}
      onClose={onClose}
      afterOpenChange={(opened) => {
        if (!opened) afterClose?.();
      }}
      width={360}
      // At 375 px the drawer takes the screen rather than more than it.
      styles={{ wrapper: { maxWidth: '100vw' } }}
    >
      <Flex vertical gap={24}>
        <SwitchRow
          label="深色模式"
          hint="深色背景、浅色文字，适合夜间使用"
          checked={prefs.dark}
          onChange={(dark) => void setPreferences({ dark })}
        />
        <SwitchRow
          label="紧凑模式"
          hint="缩小间距，一屏显示更多内容"
          checked={prefs.compact}
          onChange={(compact) => void setPreferences({ compact })}
        />
        <SwitchRow
          label="收起侧边菜单"
          hint="侧边菜单只显示图标，页面更宽（电脑上；菜单下方的按钮同样可以切换）"
          checked={prefs.siderCollapsed}
          onChange={(siderCollapsed) => void setPreferences({ siderCollapsed })}
        />
        <div role="group" aria-labelledby={colorsId}>
          <Typography.Text strong id={colorsId}>
            主题色
          </Typography.Text>
          <Radio.Group
            value={prefs.primaryColor}
            onChange={(e) => void setPreferences({ primaryColor: e.target.value as PrimaryColor })}
            style={{ display: 'flex', flexWrap: 'wrap', gap: 8, marginTop: 8 }}
          >
            {(Object.entries(PRIMARY_COLORS) as [PrimaryColor, string][]).map(([color, name]) => (
              <Radio key={color} value={color}>
                <Flex align="center" gap={6}>
                  <span
                    aria-hidden
                    style={{ display: 'inline-block', width: 14, height: 14, borderRadius: 3, background: color }}
                  />
                  {name}
                </Flex>
              </Radio>
            ))}
          </Radio.Group>
        </div>
        <Button
          onClick={() =>
            void setPreferences({
              dark: DEFAULT_PREFERENCES.dark,
              compact: DEFAULT_PREFERENCES.compact,
              primaryColor: DEFAULT_PREFERENCES.primaryColor,
            })
          }
        >
          恢复默认外观
        </Button>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          设置保存在你的账号中，在其他浏览器登录时同样生效。
        </Typography.Paragraph>
      </Flex>
    </Drawer>
  );
}
