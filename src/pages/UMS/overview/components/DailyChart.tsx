/**
 * Delivered vs failed per day for the last 14 days, as grouped bars (ECharts through the shared
 * EChart): the tooltip gives a day's numbers, the legend hides or shows a series, and a phone shows
 * fewer dates.
 */
import EChart, { type ChartOption } from '@/components/charts/EChart';
import { dailyBarsOption } from '@/components/charts/dailyBars';
import type { UmsStats } from '@/contract';
import { Card, Empty, Grid, Typography } from 'antd';
import { useMemo } from 'react';

type Day = UmsStats['daily'][number];

export const SERIES = [
  { key: 'delivered', label: '已送达', color: '#52c41a' },
  { key: 'failed', label: '失败', color: '#ff4d4f' },
] as const;

/** `labelStep`: one date label every that many days, counted back from today. */
export function dailyOption(daily: Day[], labelStep: number): ChartOption {
  return dailyBarsOption({ days: daily, series: SERIES, labelStep, barMaxWidth: 16 });
}

export default function DailyChart({ daily }: { daily: Day[] }) {
  const screens = Grid.useBreakpoint();
  // 14 dates all fit from a tablet up; a phone shows every third.
  const labelStep = screens.md ? 1 : screens.sm ? 2 : 3;
  const option = useMemo(() => dailyOption(daily, labelStep), [daily, labelStep]);
  const empty = daily.every((d) => d.delivered === 0 && d.failed === 0);
  return (
    <Card title="近 14 天发送情况">
      {empty ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="近 14 天没有已送达或失败的消息" />
      ) : (
        <EChart option={option} ariaLabel="近 14 天已送达与失败的消息数" height={260} />
      )}
      <Typography.Text type="secondary">按消息的创建日期统计。</Typography.Text>
    </Card>
  );
}
