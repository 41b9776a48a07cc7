/**
 * A template as it will be sent: one input per {{variable}} (sample values) and the filled title and
 * content rendered as the message will look, updated on every keystroke. Unfilled variables stay
 * visible as {{name}}.
 */
import { fillMessageTemplate, messageTemplateVariables } from '@/contract';
import { Card, Empty, Input, Space, Typography } from 'antd';
import MessageContent from './MessageContent';

interface Props {
  title: string;
  content: string;
  type: 'text' | 'markdown';
  vars: Record<string, string>;
  onVarsChange: (vars: Record<string, string>) => void;
}

export default function TemplatePreview({ title, content, type, vars, onVarsChange }: Props) {
  const names = messageTemplateVariables(title, content);
  const filledTitle = fillMessageTemplate(title, vars).text;
  const filledContent = fillMessageTemplate(content, vars).text;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="template-preview">
      {names.length > 0 && (
        <Space wrap>
          {names.map((name) => (
            <Input
              key={name}
              aria-label={`变量 ${name}`}
              addonBefore={name}
              placeholder="示例值"
              value={vars[name] ?? ''}
              onChange={(e) => onVarsChange({ ...vars, [name]: e.target.value })}
              style={{ width: 220 }}
            />
          ))}
        </Space>
      )}
      <Card size="small" title={filledTitle || '（无标题）'}>
        {content ? (
          <MessageContent content={filledContent} type={type} />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="输入内容后在这里预览" />
        )}
      </Card>
      <Typography.Text type="secondary">变量写作 {'{{name}}'}，发送时用 vars 提供它们的值。</Typography.Text>
    </Space>
  );
}
