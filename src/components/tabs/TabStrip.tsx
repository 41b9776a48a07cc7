/**
 * The strip of open pages under the header: a tablist (arrow keys, Home/End move; Enter or Space
 * shows; Delete closes), a menu per tab on right-click and the same menu from the button at its end
 * (for touch and keyboard): 刷新, 关闭, 关闭其他, 关闭右侧. A middle click closes a tab; the home tab
 * is pinned. At a phone's width it turns into a compact switcher (a select) beside the same button.
 */
import { CloseOutlined, MoreOutlined } from '@ant-design/icons';
import { Button, Dropdown, theme, type MenuProps } from 'antd';
import React, { useEffect, useRef, useState } from 'react';
import { HOME_PATH, titleOf, type Tab } from './tabList';
import { panelIdOf, tabIdOf } from './tabIds';
import './tabs.css';

export type CloseHow = 'this' | 'others' | 'right';

interface Props {
  tabs: Tab[];
  /** The path shown, or none (an unknown or refused page is shown). */
  active?: string;
  unsaved: ReadonlySet<string>;
  onSelect: (path: string) => void;
  onClose: (how: CloseHow, path: string) => void;
  onRefresh: (path: string) => void;
}

const COMPACT = '(max-width: 575px)';

function useCompact(): boolean {
  const query = () => typeof window.matchMedia === 'function' && window.matchMedia(COMPACT).matches;
  const [compact, setCompact] = useState(query);
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const list = window.matchMedia(COMPACT);
    const onChange = () => setCompact(list.matches);
    list.addEventListener?.('change', onChange);
    return () => list.removeEventListener?.('change', onChange);
  }, []);
  return compact;
}

export default function TabStrip({ tabs, active, unsaved, onSelect, onClose, onRefresh }: Props) {
  const { token } = theme.useToken();
  const compact = useCompact();
  const activeAt = Math.max(
    0,
    tabs.findIndex((t) => t.path === active),
  );
  const [focusAt, setFocusAt] = useState(activeAt);
  useEffect(() => setFocusAt(activeAt), [activeAt]);
  const refs = useRef<(HTMLDivElement | null)[]>([]);
  const at = Math.min(focusAt, tabs.length - 1);

  const menuOf = (path: string): MenuProps => {
    const index = tabs.findIndex((t) => t.path === path);
    const closable = tabs.filter((t) => t.path !== HOME_PATH);
    return {
      items: [
        { key: 'refresh', label: '刷新' },
        { key: 'this', label: '关闭', disabled: path === HOME_PATH },
        { key: 'others', label: '关闭其他', disabled: !closable.some((t) => t.path !== path) },
        { key: 'right', label: '关闭右侧', disabled: index === tabs.length - 1 },
      ],
      onClick: ({ key, domEvent }) => {
        domEvent.stopPropagation();
        if (key === 'refresh') onRefresh(path);
        else onClose(key as CloseHow, path);
      },
    };
  };

  const moveTo = (i: number) => {
    const next = (i + tabs.length) % tabs.length;
    setFocusAt(next);
    refs.current[next]?.focus();
  };

  const onKeyDown = (e: React.KeyboardEvent, tab: Tab, i: number) => {
    const keys: Record<string, () => void> = {
      ArrowRight: () => moveTo(i + 1),
      ArrowLeft: () => moveTo(i - 1),
      Home: () => moveTo(0),
      End: () => moveTo(tabs.length - 1),
      Enter: () => onSelect(tab.path),
      ' ': () => onSelect(tab.path),
      Delete: () => tab.path !== HOME_PATH && onClose('this', tab.path),
    };
    const act = keys[e.key];
    if (!act) return;
    e.preventDefault();
    act();
  };

  // Not "内容": a tab's name is also a label on the page, and the forms' fields are named 内容.
  const label = (t: Tab) => `${titleOf(t.path)}${unsaved.has(t.path) ? '（草稿未提交）' : ''}`;
  const menuButton = (
    <Dropdown menu={menuOf(active ?? HOME_PATH)} trigger={['click']}>
      <Button type="text" className="portal-tabs-more" aria-label="标签页操作" icon={<MoreOutlined aria-hidden />} />
    </Dropdown>
  );
  const style = {
    '--portal-tabs-primary': token.colorPrimary,
    '--portal-tabs-border': token.colorBorderSecondary,
    '--portal-tabs-bg': token.colorBgContainer,
    '--portal-tabs-active-bg': token.colorPrimaryBg,
    '--portal-tabs-text': token.colorText,
  } as React.CSSProperties;

  if (compact)
    return (
      <div className="portal-tabs portal-tabs-compact" style={style}>
        <select
          aria-label="切换已打开的页面"
          value={active ?? ''}
          onChange={(e) => onSelect(e.target.value)}
          className="portal-tabs-select"
        >
          {active === undefined && <option value="">（当前页面）</option>}
          {tabs.map((t) => (
            <option key={t.path} value={t.path}>
              {label(t)}
            </option>
          ))}
        </select>
        {menuButton}
      </div>
    );

  return (
    <div className="portal-tabs" style={style}>
      <div role="tablist" aria-label="已打开的页面" className="portal-tabs-list">
        {tabs.map((t, i) => {
          const selected = t.path === active;
          const name = titleOf(t.path);
          return (
            <Dropdown key={t.path} menu={menuOf(t.path)} trigger={['contextMenu']}>
              <div
                ref={(el) => (refs.current[i] = el)}
                id={tabIdOf(t.path)}
                role="tab"
                aria-selected={selected}
                aria-controls={selected ? panelIdOf(t.path) : undefined}
                aria-label={label(t)}
                aria-keyshortcuts={t.path === HOME_PATH ? undefined : 'Delete'}
                tabIndex={i === at ? 0 : -1}
                className={`portal-tab${selected ? ' portal-tab-active' : ''}`}
                onClick={() => onSelect(t.path)}
                onFocus={() => setFocusAt(i)}
                onKeyDown={(e) => onKeyDown(e, t, i)}
                // The wheel's click closes, as in a browser's own tabs (and does not start auto-scroll).
                onMouseDown={(e) => e.button === 1 && e.preventDefault()}
                onAuxClick={(e) => {
                  if (e.button !== 1 || t.path === HOME_PATH) return;
                  e.preventDefault();
                  onClose('this', t.path);
                }}
              >
                <span className="portal-tab-title">{name}</span>
                {unsaved.has(t.path) && <span className="portal-tab-dot" aria-hidden />}
                {t.path !== HOME_PATH && (
                  // A pointer's shortcut: the keyboard closes with Delete, touch from the menu.
                  <span
                    className="portal-tab-close"
                    aria-hidden
                    title={`关闭标签页「${name}」`}
                    onClick={(e) => {
                      e.stopPropagation();
                      onClose('this', t.path);
                    }}
                  >
                    <CloseOutlined aria-hidden />
                  </span>
                )}
              </div>
            </Dropdown>
          );
        })}
      </div>
      {menuButton}
    </div>
  );
}
