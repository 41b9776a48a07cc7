/**
 * A secret the server shows exactly once (a new API token, a generated password): the
 * value in a monospace box, a copy button and a warning that it will not come back.
 * The value lives only in the caller's state; nothing here stores it.
 */
import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { Alert, Space, Typography } from 'antd';

export interface CopyableSecretProps {
  value: string;
  /** What the secret is, e.g. 令牌 or 初始密码. */
  label?: string;
  warning?: string;
}

export default function CopyableSecret({ value, label = '令牌', warning }: CopyableSecretProps) {
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="copyable-secret">
      <Alert type="warning" showIcon message={warning ?? `该${label}只显示这一次，请立即复制保存`} />
      <Typography.Paragraph
        code
        style={{ fontSize: 15, wordBreak: 'break-all', marginBottom: 0 }}
        copyable={{
          text: value,
          tooltips: ['复制', '已复制'],
          icon: [
            <span key="copy">
              <CopyOutlined aria-hidden /> 复制
            </span>,
            <span key="copied">
              <CheckOutlined aria-hidden /> 已复制
            </span>,
          ],
        }}
      >
        {value}
      </Typography.Paragraph>
    </Space>
  );
}
