/** The other OCS administration pages, one click from the user list. */
import { Link } from '@umijs/max';
import { Card, Space, Typography } from 'antd';

const LINKS = [
  { to: '/OCS/OCSAdmin/bank', label: '题库管理', hint: '导入、导出、搜索与核实题目' },
  { to: '/OCS/OCSAdmin/models', label: 'AI 模型管理', hint: '服务商、模型与单价' },
  { to: '/OCS/OCSAdmin/redeem', label: '兑换码', hint: '批量生成与停用' },
  { to: '/OCS/OCSAdmin/settings', label: '服务设置', hint: '单价、免费额度、匹配阈值、限频' },
];

export default function AdminLinks() {
  return (
    <Card size="small" title="其他管理">
      <Space size="large" wrap>
        {LINKS.map((l) => (
          <Space key={l.to} direction="vertical" size={0}>
            <Link to={l.to}>{l.label}</Link>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {l.hint}
            </Typography.Text>
          </Space>
        ))}
      </Space>
    </Card>
  );
}
