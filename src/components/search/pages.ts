/**
 * The pages the header's search offers: the menu entries of config/routes.ts the user may open (by the
 * same access flags as the menu), each findable by its Chinese name, its full pinyin or its initials,
 * and by the names of the groups it sits in ("OCS 网课助手 / 账单" is found by 账单, zhangdan and zd).
 */
import type { AccessFlags } from '@/access';
import { pinyin } from 'pinyin-pro';
import routes, { type PortalRoute } from '../../../config/routes';

export interface PageEntry {
  path: string;
  /** The names from the top group down: ['OCS 网课助手', '账单']. */
  trail: string[];
  /** Each name in the trail as [lower-case text, full pinyin, initials], for matching. */
  keys: NameKeys[];
  /** The page's own name's keys: a page named by the words comes before one found by its group. */
  ownKeys: NameKeys;
  /** The access flag of the page or of the nearest group that names one. */
  access?: PortalRoute['access'];
}

type NameKeys = [text: string, pinyin: string, initials: string];

function keysOf(name: string): NameKeys {
  const lower = name.toLowerCase();
  const full = pinyin(name, { toneType: 'none', type: 'array', nonZh: 'consecutive' }).join('').toLowerCase();
  const initials = pinyin(name, { pattern: 'first', toneType: 'none', type: 'array', nonZh: 'consecutive' })
    .join('')
    .toLowerCase();
  return [lower, full.replace(/\s+/g, ''), initials.replace(/\s+/g, '')];
}

function collect(list: PortalRoute[], trail: string[], access: PortalRoute['access'], out: PageEntry[]): void {
  for (const r of list) {
    const needs = r.access ?? access;
    const here = r.name && !r.hideInMenu && r.layout !== false ? [...trail, r.name] : trail;
    if (r.routes) collect(r.routes, here, needs, out);
    else if (r.component && r.name && !r.hideInMenu && r.layout !== false && r.path !== '*') {
      out.push({ path: r.path, trail: here, keys: here.map(keysOf), ownKeys: keysOf(r.name), access: needs });
    }
  }
}

let all: PageEntry[] | undefined;

/** Every menu page the flags allow (computed once: pinyin of some 40 names). */
export function allowedPages(flags: AccessFlags): PageEntry[] {
  if (!all) {
    all = [];
    collect(routes, [], undefined, all);
  }
  return all.filter((p) => !p.access || flags[p.access]);
}

/**
 * A name matches words it contains, or whose pinyin or initials start with them ("zd" is 账单, but not
 * 配置生成 whose initials merely contain "zs").
 */
function matches([text, full, initials]: NameKeys, words: string): boolean {
  return text.includes(words) || full.startsWith(words) || initials.startsWith(words);
}

/** Pages whose name or group name matches the words (spaces ignored), those named by the words first. */
export function matchPages(pages: PageEntry[], q: string, limit: number): PageEntry[] {
  const words = q.trim().toLowerCase().replace(/\s+/g, '');
  if (!words) return [];
  const scored = pages
    .map((p) => ({ p, own: matches(p.ownKeys, words) }))
    .filter(({ p, own }) => own || p.keys.some((k) => matches(k, words)));
  scored.sort((a, b) => Number(b.own) - Number(a.own));
  return scored.slice(0, limit).map(({ p }) => p);
}
