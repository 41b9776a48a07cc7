/** Ten recovery codes, shown once: a grid to read, copy all, or save as a text file. */
import { CopyOutlined, DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Space, message } from 'antd';

export default function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `统一门户两步验证恢复码（每个只能用一次）\n\n${codes.join('\n')}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      message.success('已复制全部恢复码');
    } catch {
      message.error('无法访问剪贴板，请手动抄写或下载');
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'portal-recovery-codes.txt';
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Alert
        type="warning"
        showIcon
        message="请立即保存这些恢复码"
        description="手机丢失或无法使用验证器 App 时，可用恢复码代替验证码登录，每个只能用一次。它们只显示这一次。"
      />
      <div
        data-testid="recovery-codes"
        style={{
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fill, minmax(140px, 1fr))',
          gap: 8,
          fontFamily: 'monospace',
          fontSize: 15,
        }}
      >
        {codes.map((c) => (
          <code key={c}>{c}</code>
        ))}
      </div>
      <Space wrap>
        <Button icon={<CopyOutlined aria-hidden />} onClick={copy}>
          复制全部
        </Button>
        <Button icon={<DownloadOutlined aria-hidden />} onClick={download}>
          下载为文本文件
        </Button>
        <Button type="primary" onClick={onDone}>
          我已保存
        </Button>
      </Space>
    </Space>
  );
}
