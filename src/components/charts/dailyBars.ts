/**
 * The option of a "per day" bar chart, shared by the overviews (OCS queries by outcome, UMS deliveries):
 * days along the bottom with every `labelStep`-th date counted back from today, a legend that toggles a
 * series, a tooltip kept inside the chart (at 375 px it must not widen the page), compact axis numbers.
 */
import type { ChartOption } from './EChart';
import { axisTooltip, compactNumber, everyNthFromEnd, monthDay } from './format';

export interface DailySeries<K extends string> {
  key: K;
  label: string;
  color: string;
}

export interface DailyBarsOptions<K extends string> {
  days: ({ day: string } & Record<K, number>)[];
  series: readonly DailySeries<K>[];
  /** One date label every that many days, counted back from today. */
  labelStep: number;
  /** The stack's name for stacked bars; side by side without one. */
  stack?: string;
  barMaxWidth: number;
  /** The tooltip's total line, for stacked bars. */
  totalLabel?: string;
}

export function dailyBarsOption<K extends string>(o: DailyBarsOptions<K>): ChartOption {
  return {
    color: o.series.map((s) => s.color),
    legend: { top: 0, left: 'center', itemWidth: 10, itemHeight: 10 },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      confine: true,
      formatter: (params: unknown) => axisTooltip(params, o.totalLabel),
    },
    grid: { top: 36, left: 4, right: 8, bottom: 4 },
    xAxis: {
      type: 'category',
      data: o.days.map((d) => d.day),
      axisTick: { alignWithLabel: true },
      axisLabel: {
        formatter: monthDay,
        interval: everyNthFromEnd(o.days.length, o.labelStep),
        hideOverlap: true,
        color: '#8c8c8c',
      },
    },
    yAxis: {
      type: 'value',
      minInterval: 1,
      axisLabel: { formatter: compactNumber, color: '#8c8c8c' },
      splitLine: { lineStyle: { color: '#f0f0f0' } },
    },
    series: o.series.map((s) => ({
      type: 'bar',
      name: s.label,
      ...(o.stack ? { stack: o.stack } : {}),
      barMaxWidth: o.barMaxWidth,
      emphasis: { focus: 'series' },
      data: o.days.map((d) => d[s.key]),
    })),
  };
}
