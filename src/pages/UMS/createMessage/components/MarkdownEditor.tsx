/**
 * Content editor for a Form.Item: a TextArea with a 预览 tab. The preview renders the markdown as
 * DingTalk will show it (see MessageContent).
 */
import { Input, Tabs } from 'antd';
import MessageContent from '../../components/MessageContent';

interface Props {
  value?: string;
  onChange?: (value: string) => void;
  type?: 'text' | 'markdown';
  id?: string;
}

export default function MarkdownEditor({ value = '', onChange, type, id }: Props) {
  return (
    <Tabs
      size="small"
      items={[
        {
          key: 'edit',
          label: '编辑',
          children: (
            <Input.TextArea
              id={id}
              value={value}
              onChange={(e) => onChange?.(e.target.value)}
              rows={10}
              placeholder={
                type === 'markdown' ? '支持 Markdown：# 标题、**加粗**、[链接](https://…)、- 列表' : '消息正文'
              }
            />
          ),
        },
        { key: 'preview', label: '预览', children: <MessageContent content={value} type={type} /> },
      ]}
    />
  );
}
