/**
 * Chinese accessible names for the controls antd and its rc-* parts name in English whatever the
 * locale: rc-input-number's step buttons ("Increase Value"), rc-dialog's and rc-notification's close
 * buttons ("Close"), the table's "Select all", the Segmented's group, and the
 * antd icons inside them, which announce their English names ("left", "close-circle", "question-circle").
 *
 * No prop or ConfigProvider option reaches these labels (they are literals in the libraries), so the
 * names are corrected in the DOM, once for the whole app: a MutationObserver renames each such element
 * as it appears, and again if React sets the label anew. React only writes an attribute whose prop
 * changed, so a renamed label stays renamed across re-renders.
 */
import { useEffect } from 'react';

/** Labels written as literals in antd, rc-* and pro-components, by the Chinese name they get. */
export const CHINESE_LABELS: Readonly<Record<string, string>> = {
  'Increase Value': '增大数值',
  'Decrease Value': '减小数值',
  Close: '关闭',
  'Select all': '全选本页',
  'Custom selection': '自定义选择',
  'segmented control': '选项',
  'expanded dropdown': '更多标签页',
  remove: '删除',
  'Add tab': '添加标签页',
  back: '返回',
};

/** Controls whose only content is an icon: the name they get (from the locale's title where antd gives one). */
const ICON_ONLY_CONTROLS: ReadonlyArray<[selector: string, name: (el: Element) => string | null]> = [
  // Pagination's previous/next (and jump) buttons: the list item around them carries zh_CN's title.
  ['.ant-pagination-item-link', (el) => el.closest('li[title]')?.getAttribute('title') ?? null],
  ['.ant-input-clear-icon', () => '清除'],
  ['.ant-input-search-button.ant-btn-icon-only', () => '搜索'],
  ['.ant-table-filter-trigger', () => '筛选'],
];

/**
 * Decoration antd labels anyway: the range picker's arrow between its two dates ("to" on a span with no
 * role, which ARIA does not allow; the two fields are named by their placeholders). Hidden, unlabelled.
 */
const DECORATION = '.ant-picker-range-separator, .ant-picker-separator';

const ICON = '.anticon[role="img"][aria-label]';
const CONTROL = 'button, a, [role="button"], [role="tab"], [role="menuitem"], [role="checkbox"], [role="switch"]';
const WATCHED = ['[aria-label]', DECORATION, ...ICON_ONLY_CONTROLS.map(([s]) => s)].join(', ');
const HAS_CHINESE = /[\u4e00-\u9fff]/;

function isNamed(control: Element): boolean {
  return ['aria-label', 'aria-labelledby', 'title'].some((a) => control.getAttribute(a)?.trim());
}

/**
 * An antd icon with an English name inside a control that is named otherwise (its own label or other
 * text) or inside no control at all is decoration: hidden. An icon that is a control's only name stays.
 */
function hideIconIfDecorative(icon: Element): void {
  if (icon.getAttribute('aria-hidden') === 'true' || HAS_CHINESE.test(icon.getAttribute('aria-label') ?? '')) return;
  const control = icon.parentElement?.closest(CONTROL);
  if (control) {
    // An icon holds no text of its own: any text in the control is another name for it.
    if (!isNamed(control) && !control.textContent?.trim()) return;
  }
  icon.setAttribute('aria-hidden', 'true');
}

function nameElement(el: Element): void {
  if (el.matches(DECORATION)) {
    if (el.hasAttribute('aria-label')) el.removeAttribute('aria-label');
    el.setAttribute('aria-hidden', 'true');
    return;
  }
  const label = el.getAttribute('aria-label');
  const chinese = label === null ? undefined : CHINESE_LABELS[label];
  if (chinese) el.setAttribute('aria-label', chinese);
  for (const [selector, name] of ICON_ONLY_CONTROLS) {
    if (!el.matches(selector) || HAS_CHINESE.test(el.getAttribute('aria-label') ?? '')) continue;
    const text = name(el);
    if (text) el.setAttribute('aria-label', text);
  }
  if (el.matches(ICON)) hideIconIfDecorative(el);
}

/** Names every control in `root` (and `root` itself) in Chinese. */
export function nameControlsInChinese(root: Element): void {
  if (root.matches(WATCHED)) nameElement(root);
  root.querySelectorAll(WATCHED).forEach(nameElement);
}

/** Names what is on the page now and whatever appears later (modals and messages too: they go to body). */
function watchControlNames(): () => void {
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'attributes') nameElement(record.target as Element);
      else record.addedNodes.forEach((node) => node instanceof Element && nameControlsInChinese(node));
    }
  });
  nameControlsInChinese(document.body);
  observer.observe(document.body, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['aria-label'],
  });
  return () => observer.disconnect();
}

let watchers = 0;
let stopWatching: (() => void) | undefined;

/**
 * Keeps the page's controls named in Chinese while the calling component is mounted (the shared layout's
 * header: it loads with the layout, so the login page, which has none of these controls, never downloads this).
 */
export function useChineseControlNames(): void {
  useEffect(() => {
    watchers += 1;
    if (watchers === 1) stopWatching = watchControlNames();
    return () => {
      watchers -= 1;
      if (watchers === 0) stopWatching?.();
    };
  }, []);
}
