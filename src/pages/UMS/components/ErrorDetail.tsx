/**
 * The technical detail of a failed send (error code, Node's or the gateway's own words) behind a
 * 详情 toggle: users read the Chinese message first, whoever debugs the network opens the detail.
 */
import { Typography } from 'antd';
import { useState } from 'react';
import ActionLink from '@/components/ActionLink';

export default function ErrorDetail({ detail }: { detail: string | null | undefined }) {
  const [open, setOpen] = useState(false);
  if (!detail) return null;
  return (
    <span>
      <ActionLink style={{ marginInlineStart: 8 }} aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        {open ? '收起详情' : '详情'}
      </ActionLink>
      {open && (
        <Typography.Text
          code
          copyable={{ text: detail, tooltips: ['复制', '已复制'] }}
          data-testid="error-detail"
          style={{ display: 'block', marginTop: 4, wordBreak: 'break-all' }}
        >
          {detail}
        </Typography.Text>
      )}
    </span>
  );
}
