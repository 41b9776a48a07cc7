/** The copy button look shared by the config page (same as the rest of the portal). */
import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import type { CSSProperties, ReactNode } from 'react';

export const copyable = (text: string) => ({
  text,
  tooltips: ['复制', '已复制'] as [string, string],
  icon: [
    <span key="copy">
      <CopyOutlined aria-hidden /> 复制
    </span>,
    <span key="copied">
      <CheckOutlined aria-hidden /> 已复制
    </span>,
  ] as [ReactNode, ReactNode],
});

export const codeStyle: CSSProperties = {
  whiteSpace: 'pre-wrap',
  wordBreak: 'break-all',
  fontFamily: 'monospace',
  background: 'rgba(0,0,0,0.03)',
  padding: 12,
  borderRadius: 6,
  margin: 0,
};
