/**
 * Delivered vs failed per day for the last 14 days, as grouped bars. Plain SVG: no chart
 * library is installed in this project yet (@ant-design/plots would replace this).
 */
import type { UmsStats } from '@/contract';
import { Card, Empty, Space, Typography } from 'antd';

const W = 700;
const H = 220;
const PAD = { top: 16, right: 8, bottom: 28, left: 32 };
const DELIVERED = '#52c41a';
const FAILED = '#ff4d4f';

function Legend() {
  const dot = (color: string) => (
    <span style={{ display: 'inline-block', width: 10, height: 10, background: color, marginRight: 4 }} />
  );
  return (
    <Space>
      <span>{dot(DELIVERED)}已送达</span>
      <span>{dot(FAILED)}失败</span>
    </Space>
  );
}

export default function DailyChart({ daily }: { daily: UmsStats['daily'] }) {
  const max = Math.max(1, ...daily.flatMap((d) => [d.delivered, d.failed]));
  const empty = daily.every((d) => d.delivered === 0 && d.failed === 0);
  const slot = (W - PAD.left - PAD.right) / Math.max(1, daily.length);
  const bar = Math.max(2, slot * 0.35);
  const y = (v: number) => PAD.top + (H - PAD.top - PAD.bottom) * (1 - v / max);

  return (
    <Card title="近 14 天发送情况" extra={<Legend />}>
      {empty ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="近 14 天没有已送达或失败的消息" />
      ) : (
        <svg viewBox={`0 0 ${W} ${H}`} width="100%" role="img" aria-label="近 14 天已送达与失败的消息数">
          <line x1={PAD.left} x2={W - PAD.right} y1={y(0)} y2={y(0)} stroke="#d9d9d9" />
          <text x={PAD.left - 6} y={y(max) + 4} textAnchor="end" fontSize={11} fill="#8c8c8c">
            {max}
          </text>
          <text x={PAD.left - 6} y={y(0) + 4} textAnchor="end" fontSize={11} fill="#8c8c8c">
            0
          </text>
          {daily.map((d, i) => {
            const x = PAD.left + i * slot + (slot - bar * 2) / 2;
            return (
              <g key={d.day}>
                <title>{`${d.day}：已送达 ${d.delivered}，失败 ${d.failed}`}</title>
                <rect x={x} y={y(d.delivered)} width={bar} height={y(0) - y(d.delivered)} fill={DELIVERED} />
                <rect x={x + bar} y={y(d.failed)} width={bar} height={y(0) - y(d.failed)} fill={FAILED} />
                <text x={PAD.left + i * slot + slot / 2} y={H - 8} textAnchor="middle" fontSize={11} fill="#8c8c8c">
                  {d.day.slice(5)}
                </text>
              </g>
            );
          })}
        </svg>
      )}
      <Typography.Text type="secondary">按消息的创建日期统计。</Typography.Text>
    </Card>
  );
}
