/**
 * The one chart component of the portal, over ECharts (tree-shaken: see ./echarts.ts). It loads
 * ECharts when it mounts, initialises the chart in its box, applies `option` whenever it changes (a new
 * object replaces the old option), follows the box's size and disposes the chart on unmount.
 *
 * ECharts is fetched on demand, not with the page: the page's own figures show at once and the chart
 * draws into a box of its final height when its chunk arrives; a failed download offers 重试. Only
 * pages import this (the overviews): never import it from src/app.tsx or anything the layout uses.
 */
import type { BarSeriesOption } from 'echarts/charts';
import type { GridComponentOption, LegendComponentOption, TooltipComponentOption } from 'echarts/components';
import type { ComposeOption, EChartsType } from 'echarts/core';
import { Button, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';

export type ChartOption = ComposeOption<
  BarSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption
>;

export interface EChartProps {
  option: ChartOption;
  /** What the chart shows, for screen readers (the box is an image with this name). */
  ariaLabel: string;
  /** Pixels; the width is the container's. */
  height?: number;
}

const loadECharts = () => import(/* webpackChunkName: "echarts" */ './echarts');

export default function EChart({ option, ariaLabel, height = 260 }: EChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  const latest = useRef(option);
  const [failed, setFailed] = useState(false);
  // Bumped by 重试: webpack loads a chunk that failed again on the next import().
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let gone = false;
    let observer: ResizeObserver | null = null;
    loadECharts().then(
      ({ init }) => {
        if (gone || !box.current) return;
        const instance = init(box.current, undefined, { renderer: 'svg' });
        chart.current = instance;
        instance.setOption(latest.current, { notMerge: true });
        // The box, not the window: a collapsing menu or a rotating phone resizes it too.
        if (typeof ResizeObserver !== 'undefined') {
          observer = new ResizeObserver(() => instance.resize());
          observer.observe(box.current);
        }
      },
      () => {
        if (!gone) setFailed(true);
      },
    );
    return () => {
      gone = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, [attempt]);

  useEffect(() => {
    latest.current = option;
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  return (
    <div style={{ position: 'relative', width: '100%', height }}>
      <div ref={box} role="img" aria-label={ariaLabel} style={{ width: '100%', height }} />
      {failed && (
        <div
          style={{
            position: 'absolute',
            inset: 0,
            display: 'flex',
            flexDirection: 'column',
            alignItems: 'center',
            justifyContent: 'center',
            gap: 8,
          }}
        >
          <Typography.Text type="secondary">图表加载失败，可能是网络不稳定。</Typography.Text>
          <Button
            size="small"
            onClick={() => {
              setFailed(false);
              setAttempt((n) => n + 1);
            }}
          >
            重试
          </Button>
        </div>
      )}
    </div>
  );
}
