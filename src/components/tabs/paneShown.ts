/**
 * Whether the page a component belongs to is in view: its tab shown (PageTabs keeps every open tab's
 * page mounted, the others hidden) and the browser tab visible. Outside the tabs (the header, the
 * login page, a test rendering a page alone) a page is always shown.
 *
 * Pages that reload on a timer use `usePoll`, which waits while the page is out of view and, when it
 * comes back, reloads at once.
 *
 * Small on purpose: pages import it, and PageTabs only provides it.
 */
import { useDocumentVisibility } from 'ahooks';
import { createContext, useContext, useEffect, useRef } from 'react';

/** Provided by each kept page of PageTabs: whether its tab is the one shown. */
export const PaneShownContext = createContext(true);

/** Whether this component's tab is the one shown (true outside the tabs). */
export function usePaneShown(): boolean {
  return useContext(PaneShownContext);
}

/** Whether this component's page is in view: its tab shown and the document visible. */
export function usePageInView(): boolean {
  const shown = usePaneShown();
  const visibility = useDocumentVisibility();
  return shown && visibility !== 'hidden';
}

/**
 * Calls `tick` once, `ms` after each change of `key` (the data the last tick brought), while `pending`
 * and the page is in view. Out of view nothing is called; coming back into view with a tick missed,
 * it calls `tick` at once, and the next key schedules the following one as usual.
 */
export function usePoll(tick: () => void, ms: number, pending: boolean, key: unknown): void {
  const inView = usePageInView();
  const latest = useRef(tick);
  latest.current = tick;
  // A tick was due (pending) while the page was out of view.
  const missed = useRef(false);
  useEffect(() => {
    if (!pending) {
      missed.current = false;
      return undefined;
    }
    if (!inView) {
      missed.current = true;
      return undefined;
    }
    if (missed.current) {
      missed.current = false;
      latest.current();
      return undefined;
    }
    const timer = setTimeout(() => latest.current(), ms);
    return () => clearTimeout(timer);
  }, [pending, inView, key, ms]);
}
