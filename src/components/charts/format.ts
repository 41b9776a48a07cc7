/** Number and label helpers shared by the charts (kept apart from EChart so tests can mock the chart alone). */

const compact = new Intl.NumberFormat('zh-CN', { notation: 'compact', maximumFractionDigits: 1 });

/** 950 → 950, 12 000 → 1.2万, 300 000 000 → 3亿: short axis labels on a phone. */
export const compactNumber = (n: number): string => compact.format(n);

/**
 * Which category labels to show: every `step`-th counted back from the last (today is always labelled),
 * for ECharts' `axisLabel.interval`.
 */
export const everyNthFromEnd =
  (count: number, step: number) =>
  (index: number): boolean =>
    (count - 1 - index) % step === 0;

/** `2025-01-30` → `01-30`. */
export const monthDay = (day: string): string => day.slice(5);

interface AxisParam {
  axisValue?: string | number;
  seriesName?: string;
  value?: unknown;
  marker?: unknown;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * An axis tooltip (`tooltip.trigger: 'axis'`): the category, then one line per shown series with its
 * colour marker, then the total of those lines when `totalLabel` is given. Series hidden through the
 * legend are not in `params`, so they leave the lines and the total.
 */
export function axisTooltip(params: unknown, totalLabel?: string): string {
  const list = (Array.isArray(params) ? params : [params]) as AxisParam[];
  const lines = list.map(
    (p) =>
      `${typeof p.marker === 'string' ? p.marker : ''}${escapeHtml(String(p.seriesName ?? ''))} ${Number(p.value ?? 0)}`,
  );
  if (totalLabel && list.length > 1) {
    lines.push(`${escapeHtml(totalLabel)} ${list.reduce((sum, p) => sum + Number(p.value ?? 0), 0)}`);
  }
  return [escapeHtml(String(list[0]?.axisValue ?? '')), ...lines].join('<br/>');
}
