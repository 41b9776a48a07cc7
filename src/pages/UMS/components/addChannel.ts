/**
 * The way from a UMS page without a channel to adding one and back: /UMS/self opens its add dialog for
 * `add=1`, and after a channel is added returns to `back` (same origin only).
 */
import { safeRedirect } from '@/components/redirect';

export const SELF_PATH = '/UMS/self';

export function addChannelPath(from: { pathname: string; search?: string }): string {
  const back = `${from.pathname}${from.search ?? ''}`;
  return `${SELF_PATH}?add=1&back=${encodeURIComponent(back)}`;
}

/** What /UMS/self was asked for: open the add dialog, and where to return after adding (if anywhere). */
export function addChannelRequest(search: string): { open: boolean; back: string | null } {
  const query = new URLSearchParams(search);
  const back = query.get('back');
  return { open: query.get('add') === '1', back: back ? safeRedirect(back) : null };
}
