/**
 * The side menu's two toggles, made keyboard operable and named in Chinese, and its collapsed state
 * remembered across reloads. ProLayout draws both toggles as plain elements with a click handler: the
 * desktop one (below the menu) is given to us to wrap (collapsedButtonRender), the phone one (in the
 * header, left of the logo) only inside its header, so that one is completed in place. The collapsed
 * state is one of the user's preferences (components/preferences/), which the menu follows live.
 */
import { history } from '@umijs/max';
import React, { cloneElement, useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import { currentPreferences, setPreferences, subscribePreferences } from './preferences/store';

/** ProLayout's phone layout (no fixed side menu, a drawer instead) starts below this width. */
const PHONE_BELOW_PX = 768;

const isPhone = () => window.innerWidth < PHONE_BELOW_PX;

/** On a phone the menu is a drawer, closed until opened there: its own state, not a preference. */
let drawerClosed = true;
const drawerListeners = new Set<() => void>();

/** The side menu's collapsed state now: the user's preference on a desktop, the drawer's on a phone. */
function collapsedNow(): boolean {
  return isPhone() ? drawerClosed : currentPreferences().siderCollapsed;
}

function subscribeCollapsed(listener: () => void): () => void {
  const offPreferences = subscribePreferences(listener);
  drawerListeners.add(listener);
  window.addEventListener('resize', listener);
  return () => {
    offPreferences();
    drawerListeners.delete(listener);
    window.removeEventListener('resize', listener);
  };
}

/**
 * ProLayout's `collapsed`, re-rendering on each change: on a desktop the collapsed state the user left
 * the side menu in, one of their preferences, followed live (loaded from the server after the first
 * paint, 恢复默认外观, changed on another page); on a phone whether the drawer is closed.
 */
export function useSiderCollapsed(): boolean {
  return useSyncExternalStore(subscribeCollapsed, collapsedNow);
}

/**
 * ProLayout's onCollapse (its toggles). On a phone "collapsed" is the drawer being closed, which
 * ProLayout also sets itself when the layout turns into the phone one: only a desktop's choice is
 * remembered, as a preference.
 */
export function rememberCollapsed(collapsed: boolean): void {
  if (isPhone()) {
    if (drawerClosed === collapsed) return;
    drawerClosed = collapsed;
    drawerListeners.forEach((l) => l());
    return;
  }
  if (collapsed === currentPreferences().siderCollapsed) return;
  void setPreferences({ siderCollapsed: collapsed });
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

/**
 * A side-menu entry's link. ProLayout wraps each top entry in a tooltip (the name, when the menu is
 * collapsed), whose size observer needs the link's element as soon as it is mounted; Umi's own Link
 * hands its element over only in an effect, later, so the observer fell back to React's findDOMNode
 * (a deprecation warning on every page with a side menu in `npm run dev`). A plain anchor: the router
 * navigates on a plain click; a modified one (new tab, new window) is the browser's.
 */
export const MenuLink = React.forwardRef<
  HTMLAnchorElement,
  { to: string; onNavigate?: () => void } & React.AnchorHTMLAttributes<HTMLAnchorElement>
>(function MenuLink({ to, onNavigate, onClick: given, children, ...rest }, ref) {
  const onClick = (e: React.MouseEvent<HTMLAnchorElement>) => {
    given?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    history.push(to);
    onNavigate?.();
  };
  // The rest: what the tooltip around the entry gives its trigger (pointer and focus handlers).
  return (
    <a {...rest} ref={ref} href={to} onClick={onClick}>
      {children}
    </a>
  );
});

/**
 * ProLayout's menuItemRender: every entry but the current page's (and groups) a link (MenuLink). On a
 * phone the menu is a drawer, which closes once an entry is picked (ProLayout's onClick does that).
 */
export function menuItemRender(
  item: { path?: string; isUrl?: boolean; children?: unknown; isMobile?: boolean; onClick?: () => void },
  dom: React.ReactNode,
): React.ReactNode {
  if (item.isUrl || item.children || !item.path || item.path === history.location.pathname) return dom;
  return (
    <MenuLink to={item.path} onNavigate={item.isMobile ? item.onClick : undefined}>
      {dom}
    </MenuLink>
  );
}
