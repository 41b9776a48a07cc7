/**
 * The template text area with the variables as insert buttons (at the cursor) and a character
 * counter that counts as the server does (code points, so an emoji is one).
 */
import { Button, Input, Space, Tooltip, Typography } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { useRef } from 'react';

interface Props {
  value: string;
  onChange: (v: string) => void;
  variables: { name: string; label: string }[];
  maxLength: number;
  placeholder: string;
  error?: string;
}

export const charCount = (s: string) => Array.from(s).length;

export default function TemplateEditor({ value, onChange, variables, maxLength, placeholder, error }: Props) {
  const ref = useRef<TextAreaRef>(null);

  const insert = (name: string) => {
    const el = ref.current?.resizableTextArea?.textArea;
    const start = el?.selectionStart ?? value.length;
    const end = el?.selectionEnd ?? value.length;
    onChange(value.slice(0, start) + name + value.slice(end));
    // After React has written the new value, put the cursor behind the inserted variable.
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + name.length, start + name.length);
    });
  };

  const count = charCount(value);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space wrap>
        <Typography.Text type="secondary">插入变量：</Typography.Text>
        {variables.map((v) => (
          <Tooltip key={v.name} title={v.label}>
            <Button size="small" onClick={() => insert(v.name)}>
              {v.name}
            </Button>
          </Tooltip>
        ))}
      </Space>
      <Input.TextArea
        ref={ref}
        aria-label="提示词模板"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder}
        autoSize={{ minRows: 8, maxRows: 20 }}
        status={error ? 'error' : undefined}
      />
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Text type="danger" data-testid="template-error">
          {error ?? ''}
        </Typography.Text>
        <Typography.Text type={count > maxLength ? 'danger' : 'secondary'} data-testid="char-count">
          {count} / {maxLength}
        </Typography.Text>
      </Space>
    </Space>
  );
}
