/**
 * A message body: markdown rendered the way DingTalk will show it, text as written. markdown-it runs
 * with raw HTML off and its link validation on, so a message cannot inject markup or `javascript:` links.
 */
import type { MessageType } from '@/contract';
import { Typography } from 'antd';
import MarkdownIt from 'markdown-it';
import { useMemo } from 'react';

const md = new MarkdownIt({ html: false, linkify: true, breaks: true });

const box: React.CSSProperties = {
  wordBreak: 'break-word',
  background: 'rgba(0,0,0,0.02)',
  border: '1px solid rgba(0,0,0,0.06)',
  borderRadius: 6,
  padding: 12,
  marginBottom: 0,
  maxHeight: 400,
  overflow: 'auto',
};

export default function MessageContent({ content, type }: { content: string; type?: MessageType }) {
  const html = useMemo(() => (type === 'markdown' && content ? md.render(content) : null), [content, type]);
  if (html !== null) {
    return (
      <div
        data-testid="message-content"
        className="ums-markdown"
        style={box}
        dangerouslySetInnerHTML={{ __html: html }}
      />
    );
  }
  return (
    <Typography.Paragraph data-testid="message-content" style={{ ...box, whiteSpace: 'pre-wrap' }}>
      {content || <Typography.Text type="secondary">（空）</Typography.Text>}
    </Typography.Paragraph>
  );
}
