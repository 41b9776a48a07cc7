/** 重新发送 (failed only) and 取消 (queued, scheduled or retrying only), each confirmed first. */
import type { MessageStatus } from '@/contract';
import * as umsApi from '@/contract/api/ums';
import { call } from '@/services/call';
import { Button, Popconfirm, message } from 'antd';
import { canCancel, canResend } from './status';

interface Props {
  id: number;
  status: MessageStatus;
  /** Called after a successful action, to reload what shows the message. */
  onDone?: () => void;
  size?: 'small' | 'middle';
}

export default function MessageActions({ id, status, onDone, size = 'small' }: Props) {
  const run = async (endpoint: typeof umsApi.resendMessage | typeof umsApi.cancelMessage, text: string) => {
    try {
      await call(endpoint, { params: { id } });
      message.success(text);
      onDone?.();
    } catch {
      // The request layer has shown the error (409 when the status changed meanwhile).
    }
  };

  return (
    <>
      {canResend(status) && (
        <Popconfirm
          title="重新发送这条消息？"
          description="消息会回到发送队列，重新开始投递。"
          okText="重新发送"
          cancelText="取消"
          onConfirm={() => run(umsApi.resendMessage, '已重新加入发送队列')}
        >
          <Button type="link" size={size}>
            重新发送
          </Button>
        </Popconfirm>
      )}
      {canCancel(status) && (
        <Popconfirm
          title="取消发送这条消息？"
          description="取消后不会再投递，且不能恢复。"
          okText="确认取消"
          okButtonProps={{ danger: true }}
          cancelText="不取消"
          onConfirm={() => run(umsApi.cancelMessage, '消息已取消')}
        >
          <Button type="link" danger size={size}>
            取消发送
          </Button>
        </Popconfirm>
      )}
    </>
  );
}
