/**
 * Queries per day for the last 30 days, stacked by outcome. Plain SVG: @ant-design/plots cannot be
 * installed here; each day's group carries a <title> so hovering a bar tells its numbers.
 */
import type { OcsOverview } from '@/contract';
import { Card, Empty, Space, Typography } from 'antd';

type Day = OcsOverview['daily'][number];

const W = 720;
const H = 220;
const PAD = { top: 16, right: 8, bottom: 28, left: 32 };
/** Bottom to top. */
export const SERIES = [
  { key: 'bank', label: '题库命中', color: '#1677ff' },
  { key: 'ai', label: 'AI', color: '#722ed1' },
  { key: 'miss', label: '未找到', color: '#bfbfbf' },
] as const;

const total = (d: Day) => SERIES.reduce((s, x) => s + d[x.key], 0);

function Legend() {
  return (
    <Space>
      {SERIES.map((s) => (
        <span key={s.key}>
          <span style={{ display: 'inline-block', width: 10, height: 10, background: s.color, marginRight: 4 }} />
          {s.label}
        </span>
      ))}
    </Space>
  );
}

export default function DailyChart({ daily }: { daily: Day[] }) {
  const max = Math.max(1, ...daily.map(total));
  const slot = (W - PAD.left - PAD.right) / Math.max(1, daily.length);
  const bar = Math.max(2, slot * 0.6);
  const y = (v: number) => PAD.top + (H - PAD.top - PAD.bottom) * (1 - v / max);
  // 30 labels do not fit: one a week, and always the last (today).
  const labelled = (i: number) => (daily.length - 1 - i) % 7 === 0;

  return (
    <Card title="近 30 天查询" extra={<Legend />}>
      {daily.every((d) => total(d) === 0) ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="近 30 天还没有查询" />
      ) : (
        <svg viewBox={`0 0 ${W} ${H}`} width="100%" role="img" aria-label="近 30 天每日查询数（按结果堆叠）">
          <line x1={PAD.left} x2={W - PAD.right} y1={y(0)} y2={y(0)} stroke="#d9d9d9" />
          <text x={PAD.left - 6} y={y(max) + 4} textAnchor="end" fontSize={11} fill="#8c8c8c">
            {max}
          </text>
          <text x={PAD.left - 6} y={y(0) + 4} textAnchor="end" fontSize={11} fill="#8c8c8c">
            0
          </text>
          {daily.map((d, i) => {
            const x = PAD.left + i * slot + (slot - bar) / 2;
            let below = 0;
            return (
              <g key={d.day} data-testid="day-bar">
                <title>{`${d.day}：${SERIES.map((s) => `${s.label} ${d[s.key]}`).join('，')}`}</title>
                {SERIES.map((s) => {
                  const top = below + d[s.key];
                  const rect = d[s.key] > 0 && (
                    <rect key={s.key} x={x} y={y(top)} width={bar} height={y(below) - y(top)} fill={s.color} />
                  );
                  below = top;
                  return rect;
                })}
                {labelled(i) && (
                  <text x={x + bar / 2} y={H - 8} textAnchor="middle" fontSize={11} fill="#8c8c8c">
                    {d.day.slice(5)}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
      )}
      <Typography.Text type="secondary">缓存命中计入题库命中；余额不足和出错的查询不计入。</Typography.Text>
    </Card>
  );
}
