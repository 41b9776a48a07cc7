/**
 * The side menu's two toggles, made keyboard operable and named in Chinese, and its collapsed state
 * remembered across reloads. ProLayout draws both toggles as plain elements with a click handler: the
 * desktop one (below the menu) is given to us to wrap (collapsedButtonRender), the phone one (in the
 * header, left of the logo) only inside its header, so that one is completed in place.
 */
import React, { cloneElement, useLayoutEffect, useRef } from 'react';

const COLLAPSED_KEY = 'portal.siderCollapsed';
/** ProLayout's phone layout (no fixed side menu, a drawer instead) starts below this width. */
const PHONE_BELOW_PX = 768;

/** The collapsed state the user left the side menu in (desktop), or undefined: ProLayout's default. */
export function rememberedCollapsed(): boolean | undefined {
  try {
    const value = localStorage.getItem(COLLAPSED_KEY);
    return value === null ? undefined : value === 'true';
  } catch {
    return undefined;
  }
}

/**
 * ProLayout's onCollapse. On a phone "collapsed" is the drawer being closed, which ProLayout also sets
 * itself when the layout turns into the phone one: only a desktop's choice is remembered.
 */
export function rememberCollapsed(collapsed: boolean): void {
  if (window.innerWidth < PHONE_BELOW_PX) return;
  try {
    localStorage.setItem(COLLAPSED_KEY, String(collapsed));
  } catch {
    // Storage can be disabled; the menu still toggles.
  }
}

const activates = (e: React.KeyboardEvent | KeyboardEvent) => e.key === 'Enter' || e.key === ' ';

/** ProLayout's collapsedButtonRender: its own toggle, as a named button that Enter and Space press. */
export function siderCollapseButton(collapsed: boolean | undefined, dom: React.ReactNode): React.ReactNode {
  if (!React.isValidElement<{ onClick?: () => void }>(dom)) return dom;
  const press = dom.props.onClick;
  return cloneElement(dom as React.ReactElement<Record<string, unknown>>, {
    role: 'button',
    tabIndex: 0,
    'aria-label': collapsed ? '展开侧边菜单' : '收起侧边菜单',
    'aria-expanded': !collapsed,
    onKeyDown: (e: React.KeyboardEvent) => {
      if (!activates(e)) return;
      e.preventDefault();
      press?.();
    },
  });
}

/**
 * Wraps ProLayout's header (headerRender). On a phone the header has a menu toggle: a named button
 * that Enter and Space press where there is a side menu, and none where there is not (/home).
 */
export function LayoutHeader({
  children,
  hasMenu,
  menuOpen,
}: {
  children?: React.ReactNode;
  hasMenu: boolean;
  menuOpen: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const toggle = ref.current?.querySelector<HTMLElement>('.ant-pro-global-header-collapsed-button');
    if (!toggle) return;
    toggle.style.display = hasMenu ? '' : 'none';
    toggle.setAttribute('role', 'button');
    toggle.tabIndex = 0;
    toggle.setAttribute('aria-label', menuOpen ? '关闭菜单' : '打开菜单');
    toggle.setAttribute('aria-expanded', String(menuOpen));
    toggle.querySelector('.anticon')?.setAttribute('aria-hidden', 'true');
    const onKeyDown = (e: KeyboardEvent) => {
      if (!activates(e)) return;
      e.preventDefault();
      toggle.click();
    };
    toggle.addEventListener('keydown', onKeyDown);
    return () => toggle.removeEventListener('keydown', onKeyDown);
  });
  // display: contents keeps the header's own box the layout's child, as without this wrapper.
  return (
    <div ref={ref} style={{ display: 'contents' }}>
      {children}
    </div>
  );
}
