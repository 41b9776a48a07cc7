/**
 * A kept page's overlays belong to its tab. antd draws a modal, drawer, popover, dropdown or select
 * list in a portal on document.body, outside the page: left open in a page whose tab is hidden (by
 * the browser's back button, say), it would stay over the page shown. Each kept page therefore gets
 * its own overlay host, a div on document.body (where antd's portals go anyway, so their fixed
 * position and z-index are as before), given to the page's overlays through ConfigProvider's
 * `getPopupContainer` (which Modal and Drawer take as their container too). The host is hidden with
 * its page: out of sight and of the accessibility tree, and there again when the tab is shown.
 *
 * antd locks the body's scrolling only for a modal on document.body itself, so the host locks it
 * while its page is shown and has a modal, or a drawer with a mask, open: a hidden tab's modal does
 * not leave the page shown unable to scroll. Overlays outside the pages (the header's search,
 * notifications and menus, a confirm of the shell) still go to document.body.
 */
import { ConfigProvider } from 'antd';
import React, { useCallback, useContext, useLayoutEffect, useState } from 'react';

const locks = new Set<HTMLElement>();
let before: { overflowY: string; width: string } | undefined;

/** Locks (or unlocks) the body's scrolling for a host, as antd's own lock does for document.body. */
function lockFor(host: HTMLElement, lock: boolean) {
  if (lock) locks.add(host);
  else locks.delete(host);
  const { style } = document.body;
  if (locks.size && !before) {
    before = { overflowY: style.overflowY, width: style.width };
    // As antd's lock: the page keeps its width where the scrollbar it hides took some.
    const scrollbar = window.innerWidth - document.documentElement.clientWidth;
    const overflowing = document.body.scrollHeight > window.innerHeight && scrollbar > 0;
    style.overflowY = 'hidden';
    if (overflowing) style.width = `calc(100% - ${scrollbar}px)`;
  } else if (!locks.size && before) {
    style.overflowY = before.overflowY;
    style.width = before.width;
    before = undefined;
  }
}

/** Whether the host has a modal, or a drawer with a mask, open. */
function hasModalOpen(host: HTMLElement, prefixOf: (name: string) => string): boolean {
  const wraps = host.querySelectorAll<HTMLElement>(`.${prefixOf('modal')}-wrap`);
  if (Array.from(wraps).some((w) => w.style.display !== 'none')) return true;
  const drawer = prefixOf('drawer');
  return !!host.querySelector(`.${drawer}-open > .${drawer}-mask`);
}

/** Where the focus goes in the host's open dialog (the last opened), if one is open. */
export function dialogFocusIn(host: HTMLElement): HTMLElement | null {
  const dialogs = Array.from(host.querySelectorAll<HTMLElement>('[role="dialog"][aria-modal="true"]'));
  const dialog = dialogs.reverse().find((d) => !d.closest('[style*="display: none"]'));
  if (!dialog) return null;
  // antd's dialogs start with a focusable sentinel, where they put the focus when they open.
  return (
    dialog.querySelector<HTMLElement>('[tabindex]:not([tabindex="-1"]), button, [href], input, select, textarea') ??
    dialog
  );
}

/** The overlay host of one kept page: created with the page, on document.body, shown with it. */
export function useOverlayHost(shown: boolean): HTMLElement | null {
  const [host] = useState(() => (typeof document === 'undefined' ? null : document.createElement('div')));
  const { getPrefixCls } = useContext(ConfigProvider.ConfigContext);

  useLayoutEffect(() => {
    if (!host) return undefined;
    host.className = 'portal-page-overlays';
    document.body.appendChild(host);
    return () => {
      lockFor(host, false);
      host.remove();
    };
  }, [host]);

  useLayoutEffect(() => {
    if (!host) return undefined;
    host.hidden = !shown;
    host.style.display = shown ? '' : 'none';
    if (!shown) {
      lockFor(host, false);
      return undefined;
    }
    const check = () =>
      lockFor(
        host,
        hasModalOpen(host, (name) => getPrefixCls(name)),
      );
    check();
    const observer = new MutationObserver(check);
    observer.observe(host, { subtree: true, childList: true, attributes: true, attributeFilter: ['style', 'class'] });
    return () => observer.disconnect();
  }, [host, shown, getPrefixCls]);

  return host;
}

/** The page's overlays go to its host (or to document.body where there is none). */
export function PaneOverlays({ host, children }: { host: HTMLElement | null; children: React.ReactNode }) {
  const getPopupContainer = useCallback(() => host ?? document.body, [host]);
  return <ConfigProvider getPopupContainer={getPopupContainer}>{children}</ConfigProvider>;
}
