/** The live UTF-8 size of title + content against UMS_MAX_MESSAGE_BYTES; red when over. */
import { UMS_MAX_MESSAGE_BYTES } from '@/contract';
import { Typography } from 'antd';

const fmt = new Intl.NumberFormat('en-US');

export default function SizeCounter({ bytes }: { bytes: number }) {
  const over = bytes > UMS_MAX_MESSAGE_BYTES;
  return (
    <Typography.Text type={over ? 'danger' : 'secondary'} data-testid="size-counter" data-over={over}>
      {fmt.format(bytes)} / {fmt.format(UMS_MAX_MESSAGE_BYTES)} 字节（UTF-8）
      {over && '，超出上限，请精简内容'}
    </Typography.Text>
  );
}
