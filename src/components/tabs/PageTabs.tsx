/**
 * The page area of the shell with its tabs: every page opened in the layout becomes a tab, and every
 * open tab's page stays mounted (hidden when not shown), so its state — a form's draft, a table's
 * filters and page, where it was scrolled — is there on coming back, and nothing is fetched again.
 *
 * How: react-router's outlet (`useOutlet()`) is the element of the page being shown; it is kept per
 * path and all kept elements are rendered, the inactive ones `hidden` (out of the layout, the focus
 * order and the accessibility tree), and told so (paneShown.ts: a hidden page's pollers wait); its
 * overlays (modals, drawers, popups) are drawn in a host of its own, hidden with it (paneOverlays.tsx). Each kept page sees the location it was last shown at (its own
 * LocationContext), not the address of the tab being shown: hooks such as useLocation and
 * useSearchParams in a hidden page do not react to another page's address.
 *
 * Loaded with the layout only (src/app.tsx), never on the login page.
 */
import { useAccess, useModel, useNavigate, useOutlet } from '@umijs/max';
import { message, Modal } from 'antd';
import React, { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { UNSAFE_LocationContext, useLocation, useNavigationType } from 'react-router-dom';
import ChunkErrorBoundary from '../ChunkErrorBoundary';
import { rememberedUid } from '@/initialState';
import { forgetAllDrafts, forgetDraft, hasUnsavedInput, markKeptDrafts, useUnsavedPaths } from './drafts';
import {
  closing,
  keptInBackground,
  mayOpen,
  nextActive,
  overCap,
  pageOf,
  show,
  storedTabs,
  storeTabs,
  titleOf,
  type Tab,
} from './tabList';
import { dialogFocusIn, PaneOverlays, useOverlayHost } from './paneOverlays';
import { PaneShownContext } from './paneShown';
import { panelIdOf } from './tabIds';
import TabStrip, { type CloseHow } from './TabStrip';

/** For 退出登录 (components/AvatarDropdown.tsx), which loads this module rather than one more chunk. */
export { forgetAllDrafts };

type LocationValue = React.ContextType<typeof UNSAFE_LocationContext>;
interface Kept {
  element: React.ReactNode;
  /** The location the page sees: the one it was last shown at. */
  context: LocationValue;
}

/** A kept page: rendered again only when its own element or location changes, not on every switch. */
const Pane = memo(function Pane({
  path,
  shown,
  switched,
  context,
  children,
}: {
  path: string;
  shown: boolean;
  /** Whether the user has gone from one page to another since the shell was loaded. */
  switched: boolean;
  context: LocationValue;
  children: React.ReactNode;
}) {
  // Its modals, drawers and popups are drawn in its own host, hidden with it (paneOverlays.tsx).
  const host = useOverlayHost(shown);
  const ref = useRef<HTMLDivElement>(null);
  // Shown after a switch of tabs while the focus was lost (it was in the page hidden, as after the
  // browser's back button), the focus goes to this page: to its open dialog if it has one, else to
  // the page itself. Not on the first page of a visit, nor away from where the user put it.
  useEffect(() => {
    if (!shown || !switched) return;
    const active = document.activeElement;
    const lost = !active || active === document.body || !!active.closest('[hidden]');
    if (lost) ((host && dialogFocusIn(host)) ?? ref.current)?.focus({ preventScroll: true });
  }, [shown]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <div
      id={panelIdOf(path)}
      ref={ref}
      tabIndex={-1}
      hidden={!shown}
      style={shown ? { outline: 'none' } : { display: 'none' }}
    >
      {/* A page chunk that fails (or outlasts the 120 s chunk timeout) shows 重试 in its own tab only. */}
      <ChunkErrorBoundary>
        <PaneShownContext.Provider value={shown}>
          <PaneOverlays host={host}>
            <UNSAFE_LocationContext.Provider value={context}>{children}</UNSAFE_LocationContext.Provider>
          </PaneOverlays>
        </PaneShownContext.Provider>
      </ChunkErrorBoundary>
    </div>
  );
});

const names = (tabs: Tab[]) => tabs.map((t) => `「${titleOf(t.path)}」`).join('、');

export default function PageTabs({ exception }: { exception?: React.ReactNode }) {
  const location = useLocation();
  const navigationType = useNavigationType();
  const outlet = useOutlet();
  const navigate = useNavigate();
  const access = useAccess();
  const { initialState } = useModel('@@initialState');
  const uid = initialState?.currentUser?.uid;
  const [modal, modalHolder] = Modal.useModal();

  const path = location.pathname;
  // A page of the route table, allowed: an unknown path (404) or a refused one (403) is shown, not kept.
  const tabbable = uid !== undefined && !exception && !!pageOf(path);

  const [tabs, setTabs] = useState<Tab[]>(() => {
    if (uid === undefined) return [];
    const stored = storedTabs(uid, access);
    markKeptDrafts(
      uid,
      stored.map((t) => t.path),
    );
    return stored;
  });
  const used = useRef(0);
  const firstPath = useRef(path);
  const switched = useRef(false);
  if (path !== firstPath.current) switched.current = true;
  const kept = useRef(new Map<string, Kept>());
  // Bumped to load a tab's page anew (刷新): its pane is mounted again under a new key.
  const [generation, setGeneration] = useState<Record<string, number>>({});

  if (tabbable && outlet) {
    const before = kept.current.get(path);
    const context = before?.context.location === location ? before.context : { location, navigationType };
    kept.current.set(path, { element: outlet, context });
  }
  // A page that shows a secret once is not kept in the background: shown again, it starts afresh.
  for (const p of kept.current.keys()) if (p !== path && !keptInBackground(p)) kept.current.delete(p);

  const closeTabs = useCallback(
    (doomed: Tab[], then?: () => void) => {
      const gone = new Set(doomed.map((t) => t.path));
      for (const t of doomed) {
        kept.current.delete(t.path);
        if (uid !== undefined) forgetDraft(uid, t.path);
      }
      setTabs((list) => list.filter((t) => !gone.has(t.path)));
      then?.();
    },
    [uid],
  );

  // Showing a page opens (or touches) its tab; past the cap the least recently used one closes.
  useEffect(() => {
    if (!tabbable) return;
    used.current += 1;
    const next = show(tabs, path, location.search, used.current);
    setTabs(next);
    const over = overCap(next, path, hasUnsavedInput);
    if (!over) return;
    if (!over.ask) closeTabs([over.tab]);
    else
      void modal.confirm({
        title: '已打开的标签页过多',
        content: `最早打开的「${titleOf(over.tab.path)}」中有尚未提交的内容，关闭它吗？关闭后填写的内容将丢失。`,
        okText: '关闭它',
        okButtonProps: { danger: true },
        cancelText: '保留',
        onOk: () => closeTabs([over.tab]),
      });
    // Only a change of address opens or touches a tab.
  }, [tabbable, path, location.search]); // eslint-disable-line react-hooks/exhaustive-deps

  // A page the user may no longer open (a role taken away) closes with its tab. Shown, it gives way to
  // the next tab with a word why: the layout's own 403 follows only a change of address.
  useEffect(() => {
    const refused = tabs.filter((t) => !mayOpen(t.path, access));
    if (!refused.length) return;
    closeTabs(refused, () => {
      if (!refused.some((t) => t.path === path)) return;
      void message.warning(`你已无权访问「${titleOf(path)}」，该页面已关闭`);
      const next = nextActive(tabs, refused, path);
      navigate(next + searchOf(next), { replace: true });
    });
  }, [access, tabs, closeTabs]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    if (uid !== undefined) storeTabs(uid, tabs);
  }, [uid, tabs]);

  // The layout goes when the session ends (the login page has none): the drafts go with the user.
  useEffect(
    () => () => {
      if (rememberedUid() === null) forgetAllDrafts();
    },
    [],
  );

  // Each tab keeps where the window was scrolled; showing it scrolls back there.
  const scrolls = useRef(new Map<string, number>());
  useEffect(() => {
    const remember = () => scrolls.current.set(path, window.scrollY);
    window.addEventListener('scroll', remember, { passive: true });
    return () => window.removeEventListener('scroll', remember);
  }, [path]);
  useLayoutEffect(() => {
    window.scrollTo?.(0, scrolls.current.get(path) ?? 0);
  }, [path]);

  const searchOf = (p: string) => tabs.find((t) => t.path === p)?.search ?? '';

  const refresh = useCallback((p: string) => setGeneration((g) => ({ ...g, [p]: (g[p] ?? 0) + 1 })), []);

  // A page that must start afresh when it is opened (it takes something handed to it) asks so in the
  // navigation's state.
  useEffect(() => {
    if ((location.state as { freshTab?: boolean } | null)?.freshTab) refresh(path);
  }, [location.key]); // eslint-disable-line react-hooks/exhaustive-deps

  const close = (how: CloseHow, p: string) => {
    const doomed = closing(tabs, how, p);
    if (!doomed.length) return;
    const go = () =>
      closeTabs(doomed, () => {
        const next = nextActive(tabs, doomed, path);
        if (next !== path) navigate(next + searchOf(next));
      });
    const unsaved = doomed.filter((t) => hasUnsavedInput(t.path));
    if (!unsaved.length) return go();
    void modal.confirm({
      title: '关闭有未提交内容的标签页？',
      content: `${names(unsaved)}中填写的内容尚未提交，关闭后将丢失。`,
      okText: '关闭',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: go,
    });
  };

  const unsaved = useUnsavedPaths();
  const shown = tabbable ? path : undefined;
  const panes = useMemo(() => [...kept.current.entries()], [tabs, shown, generation, outlet]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <>
      {uid !== undefined && tabs.length > 0 && (
        <TabStrip
          tabs={tabs}
          active={shown}
          unsaved={unsaved}
          onSelect={(p) => p !== path && navigate(p + searchOf(p))}
          onClose={close}
          onRefresh={refresh}
        />
      )}
      {panes.map(([p, k]) => (
        <Pane
          key={`${p}#${generation[p] ?? 0}`}
          path={p}
          shown={p === shown}
          switched={switched.current}
          context={k.context}
        >
          {k.element}
        </Pane>
      ))}
      {!tabbable && (exception ?? outlet)}
      {modalHolder}
    </>
  );
}
