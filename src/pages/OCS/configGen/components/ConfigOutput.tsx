/** The generated AnswererWrapper JSON (copy, download) and the subscription URL OCS can import from. */
import { DownloadOutlined } from '@ant-design/icons';
import { Button, Space, Typography } from 'antd';
import { codeStyle, copyable } from './copy';

interface Props {
  json: string;
  subscription: string;
}

function download(json: string) {
  const url = URL.createObjectURL(new Blob([json], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'ocs-portal-config.json';
  document.body.appendChild(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(url);
}

export default function ConfigOutput({ json, subscription }: Props) {
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <div>
        <Space style={{ marginBottom: 8 }} wrap>
          <Typography.Text strong>题库配置（JSON）</Typography.Text>
          <Typography.Text copyable={copyable(json)} />
          <Button size="small" icon={<DownloadOutlined aria-hidden />} onClick={() => download(json)}>
            下载 .json
          </Button>
        </Space>
        <pre data-testid="ocs-config-json" style={codeStyle}>
          {json}
        </pre>
        <Typography.Text type="secondary">
          打开 OCS 网课助手的「题库配置」，把上面的内容整段粘贴进去并保存。
        </Typography.Text>
      </div>
      <div>
        <Typography.Text strong>订阅地址</Typography.Text>
        <Typography.Paragraph
          data-testid="ocs-subscription-url"
          copyable={copyable(subscription)}
          style={{ ...codeStyle, marginTop: 8 }}
        >
          {subscription}
        </Typography.Paragraph>
        <Typography.Text type="secondary">
          OCS 支持从网址导入题库配置时，可直接使用此地址；地址中含有令牌，请勿公开。
        </Typography.Text>
      </div>
    </Space>
  );
}
