/** 选项: one input per option labelled A, B, C…, up to 26, or a pasted block of lines. */
import { OCS_OPTIONS_MAX } from '@/contract';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Space, type FormInstance } from 'antd';
import { useState } from 'react';
import { optionLetter, splitOptions } from './options';

export default function OptionsField({ form }: { form: FormInstance }) {
  const [pasting, setPasting] = useState(false);
  const [pasted, setPasted] = useState('');

  const fill = () => {
    form.setFieldValue('options', splitOptions(pasted));
    setPasted('');
    setPasting(false);
  };

  return (
    <Form.Item label="选项" extra={`选择题填写选项，最多 ${OCS_OPTIONS_MAX} 个；填空题、简答题可不填。`}>
      <Form.List name="options">
        {(fields, { add, remove }) => (
          <>
            {fields.map((field, index) => (
              <Form.Item key={field.key} style={{ marginBottom: 8 }}>
                <Space.Compact style={{ width: '100%' }}>
                  <Button tabIndex={-1} style={{ pointerEvents: 'none', width: 40 }}>
                    {optionLetter(index)}
                  </Button>
                  <Form.Item name={field.name} noStyle rules={[{ max: 500, message: '选项不能超过 500 个字符' }]}>
                    <Input aria-label={`选项 ${optionLetter(index)}`} placeholder="选项内容" />
                  </Form.Item>
                  <Button
                    aria-label={`删除选项 ${optionLetter(index)}`}
                    icon={<DeleteOutlined aria-hidden />}
                    onClick={() => remove(field.name)}
                  />
                </Space.Compact>
              </Form.Item>
            ))}
            <Space wrap>
              <Button
                icon={<PlusOutlined aria-hidden />}
                disabled={fields.length >= OCS_OPTIONS_MAX}
                onClick={() => add('')}
              >
                添加选项
              </Button>
              <Button onClick={() => setPasting((p) => !p)}>{pasting ? '收起粘贴' : '粘贴多行选项'}</Button>
            </Space>
          </>
        )}
      </Form.List>
      {pasting && (
        <Space direction="vertical" style={{ width: '100%', marginTop: 8 }}>
          <Input.TextArea
            aria-label="粘贴选项"
            rows={5}
            value={pasted}
            onChange={(e) => setPasted(e.target.value)}
            placeholder={'每行一个选项，例如：\nA. 北京\nB. 上海'}
          />
          <Button type="primary" ghost disabled={!pasted.trim()} onClick={fill}>
            替换为这些选项
          </Button>
        </Space>
      )}
    </Form.Item>
  );
}
