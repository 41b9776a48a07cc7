/**
 * Queries per day for the last 30 days, stacked by outcome (ECharts through the shared EChart): the
 * tooltip gives a day's numbers, the legend hides or shows an outcome, and a phone shows fewer dates.
 */
import EChart, { type ChartOption } from '@/components/charts/EChart';
import { dailyBarsOption } from '@/components/charts/dailyBars';
import type { OcsOverview } from '@/contract';
import { Card, Empty, Grid, Typography } from 'antd';
import { useMemo } from 'react';

type Day = OcsOverview['daily'][number];

/** Bottom to top. */
export const SERIES = [
  { key: 'bank', label: '题库命中', color: '#1677ff' },
  { key: 'ai', label: 'AI', color: '#722ed1' },
  { key: 'miss', label: '未找到', color: '#bfbfbf' },
] as const;

const total = (d: Day) => SERIES.reduce((s, x) => s + d[x.key], 0);

/** `labelStep`: one date label every that many days, counted back from today. */
export function dailyOption(daily: Day[], labelStep: number): ChartOption {
  return dailyBarsOption({
    days: daily,
    series: SERIES,
    labelStep,
    stack: 'queries',
    barMaxWidth: 24,
    totalLabel: '合计',
  });
}

export default function DailyChart({ daily }: { daily: Day[] }) {
  const screens = Grid.useBreakpoint();
  // 30 dates fit one a week on a phone, about ten on a tablet or wider.
  const labelStep = screens.md ? 3 : screens.sm ? 5 : 7;
  const option = useMemo(() => dailyOption(daily, labelStep), [daily, labelStep]);
  return (
    <Card title="近 30 天查询">
      {daily.every((d) => total(d) === 0) ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="近 30 天还没有查询" />
      ) : (
        <EChart option={option} ariaLabel="近 30 天每日查询数（按结果堆叠）" height={260} />
      )}
      <Typography.Text type="secondary">缓存命中计入题库命中；余额不足和出错的查询不计入。</Typography.Text>
    </Card>
  );
}
