/**
 * The one-time CSV download. The server forgets the codes as it sends them, so the confirmation says
 * so plainly; after that the row shows when it was downloaded instead of a button.
 */
import { formatTime } from '@/components/time';
import type { RedeemBatch } from '@/contract';
import { errorMessageOf } from '@/requestErrorConfig';
import { downloadRedeemCodes } from '@/services/redeemCodes';
import { DownloadOutlined } from '@ant-design/icons';
import { Button, message, Popconfirm, Typography } from 'antd';
import { useState } from 'react';

function saveBlob(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export default function DownloadButton({ batch, onDone }: { batch: RedeemBatch; onDone: () => void }) {
  const [busy, setBusy] = useState(false);
  if (batch.downloadedAt) {
    return <Typography.Text type="secondary">已下载（{formatTime(batch.downloadedAt)}）</Typography.Text>;
  }
  const download = async () => {
    setBusy(true);
    try {
      saveBlob(await downloadRedeemCodes(batch.id), `兑换码-批次${batch.id}.csv`);
      message.success('兑换码已下载，请妥善保存');
    } catch (e) {
      message.error(errorMessageOf(e));
    } finally {
      setBusy(false);
      onDone();
    }
  };
  return (
    <Popconfirm
      title="兑换码只能下载一次"
      description={
        <div style={{ maxWidth: 280 }}>
          下载后服务器会删除兑换码明文，之后任何人都无法再次下载。请立即妥善保存文件。
        </div>
      }
      okText="下载"
      cancelText="取消"
      onConfirm={download}
    >
      <Button type="link" size="small" icon={<DownloadOutlined aria-hidden />} loading={busy}>
        下载 CSV
      </Button>
    </Popconfirm>
  );
}
