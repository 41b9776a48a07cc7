/**
 * A horizontal bar chart of counts. @ant-design/plots could not be installed here (its
 * @antv/g-canvas pins an @antv/g-lite release the registry does not have), so the bars are antd
 * Progress lines: no extra bundle, readable on any screen width.
 */
import { Progress, Space, Typography } from 'antd';

export default function BarChart({ data, color }: { data: { name: string; count: number }[]; color?: string }) {
  const max = Math.max(1, ...data.map((d) => d.count));
  const total = data.reduce((s, d) => s + d.count, 0);
  if (data.length === 0) return <Typography.Text type="secondary">暂无数据</Typography.Text>;
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={4}>
      {data.map((d) => (
        <div key={d.name} style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
          <Typography.Text style={{ width: 140, flex: 'none' }} ellipsis={{ tooltip: d.name }}>
            {d.name}
          </Typography.Text>
          <Progress
            aria-label={`${d.name} ${d.count} 人`}
            style={{ flex: 1, margin: 0 }}
            percent={(d.count / max) * 100}
            strokeColor={color}
            format={() => `${d.count} 人（${((d.count / Math.max(1, total)) * 100).toFixed(1)}%）`}
          />
        </div>
      ))}
    </Space>
  );
}
