/**
 * ProTable's column settings, density and fullscreen for every list, with each user's choices kept
 * per table in this browser: the columns shown, their order and pinning (ProTable's columnsState in
 * localStorage), and the density. Spread into a ProTable: `<ProTable {...useTableSettings('OCS.bill')} … />`.
 * ProTable draws its toolbar controls as bare icons; here each is a named button that Enter and Space press.
 */
import {
  ColumnHeightOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  ReloadOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import type { ProTableProps } from '@ant-design/pro-components';
import { Tooltip } from 'antd';
import React, { forwardRef, useEffect, useState } from 'react';
import { currentUserId } from './preferences/store';

type Density = 'large' | 'middle' | 'small';
const DENSITIES: ReadonlySet<string> = new Set(['large', 'middle', 'small']);

/** A toolbar control: a named button around an icon, pressed by Enter and Space as by a click. */
const ToolButton = forwardRef<HTMLSpanElement, React.HTMLAttributes<HTMLSpanElement> & { label: string }>(
  function ToolButton({ label, onKeyDown, children, ...rest }, ref) {
    return (
      <span
        {...rest}
        ref={ref}
        role="button"
        tabIndex={0}
        aria-label={label}
        onKeyDown={(e) => {
          onKeyDown?.(e);
          if (e.key !== 'Enter' && e.key !== ' ') return;
          e.preventDefault();
          e.currentTarget.click();
        }}
      >
        {children}
      </span>
    );
  },
);

/** ProTable's own fullscreen control has no icon to give it: this one calls the same toggle. */
function FullscreenButton({ onClick }: { onClick?: React.MouseEventHandler }) {
  const [full, setFull] = useState(() => typeof document !== 'undefined' && !!document.fullscreenElement);
  useEffect(() => {
    const onChange = () => setFull(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  const label = full ? '退出全屏' : '全屏';
  return (
    <Tooltip title={label}>
      <ToolButton label={label} onClick={onClick}>
        {full ? <FullscreenExitOutlined aria-hidden /> : <FullscreenOutlined aria-hidden />}
      </ToolButton>
    </Tooltip>
  );
}

function readDensity(key: string): Density | undefined {
  try {
    const value = localStorage.getItem(key);
    return value !== null && DENSITIES.has(value) ? (value as Density) : undefined;
  } catch {
    return undefined;
  }
}

/** The key of one user's choices for one table: another user of this browser has their own. */
export function tableSettingsKey(table: string): string {
  return `portal.table.${currentUserId() ?? 'anonymous'}.${table}`;
}

/**
 * The ProTable props of a list named `table` (unique in the app, e.g. 'OCS.bill'); `reload: false` for a
 * table whose refresh makes no sense (a search that has not run).
 */
export function useTableSettings(table: string, { reload = true }: { reload?: boolean } = {}) {
  const key = tableSettingsKey(table);
  const [defaultSize] = useState(() => readDensity(`${key}.density`));
  const props = {
    columnsState: { persistenceKey: `${key}.columns`, persistenceType: 'localStorage' },
    defaultSize,
    onSizeChange: (size?: Density) => {
      if (!size) return;
      try {
        localStorage.setItem(`${key}.density`, size);
      } catch {
        // Storage disabled: the choice lasts as long as the page.
      }
    },
    options: {
      reload,
      reloadIcon: (
        <ToolButton label="刷新">
          <ReloadOutlined aria-hidden />
        </ToolButton>
      ),
      density: true,
      densityIcon: (
        <ToolButton label="表格密度">
          <ColumnHeightOutlined aria-hidden />
        </ToolButton>
      ),
      setting: {
        settingIcon: (
          <ToolButton label="列设置">
            <SettingOutlined aria-hidden />
          </ToolButton>
        ),
      },
      fullScreen: true,
    },
    optionsRender: (_props: unknown, doms: React.ReactNode[]) =>
      doms.map((dom) =>
        React.isValidElement<{ onClick?: React.MouseEventHandler }>(dom) && dom.key === 'fullScreen' ? (
          <FullscreenButton key="fullScreen" onClick={dom.props.onClick} />
        ) : (
          dom
        ),
      ),
  } satisfies Partial<ProTableProps<Record<string, unknown>, Record<string, unknown>>>;
  return props;
}
