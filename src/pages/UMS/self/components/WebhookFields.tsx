/**
 * The fields of a generic webhook: URL, method, request headers (write-only: an edit shows the names
 * with masked values and replaces the list only when new rows are typed), the body template with its
 * variables, and when an answer counts as success (status codes, an optional JSON-path condition).
 */
import { zodRule } from '@/components/zodRule';
import {
  ChannelBody,
  WEBHOOK_METHODS,
  WEBHOOK_VARIABLES,
  WebhookBodyTemplate,
  WebhookHeader,
  WebhookPerMinute,
  WebhookSuccessPath,
  WebhookSuccessStatus,
  WebhookSuccessValue,
  type Channel,
} from '@/contract';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  ProFormCheckbox,
  ProFormDependency,
  ProFormDigit,
  ProFormSelect,
  ProFormText,
  ProFormTextArea,
} from '@ant-design/pro-components';
import { Button, Form, Input, Space, Typography } from 'antd';

const VARIABLES = WEBHOOK_VARIABLES.map((v) => `\${${v}}`).join(' ');

function Headers({ channel }: { channel?: Channel }) {
  const current = channel?.webhookSettings?.headers ?? [];
  return (
    <Form.Item
      label="请求头"
      extra={
        current.length > 0
          ? `当前：${current.map((h) => `${h.name}: ${h.valueMasked}`).join('；')}。填写新的请求头会替换全部，留空保持不变。`
          : '可选，例如 Authorization；值加密保存，不会再显示。'
      }
    >
      <ProFormDependency name={['removeHeaders']}>
        {({ removeHeaders }) => (
          <Form.List name="headers">
            {(fields, { add, remove }) => (
              <Space direction="vertical" style={{ width: '100%' }}>
                {fields.map((field) => (
                  <Space key={field.key} align="start" style={{ display: 'flex', width: '100%' }} wrap>
                    <Form.Item
                      name={[field.name, 'name']}
                      noStyle
                      rules={[{ required: true, message: '请输入名称' }, zodRule(WebhookHeader.shape.name)]}
                    >
                      <Input
                        placeholder="名称"
                        aria-label="请求头名称"
                        style={{ width: 140 }}
                        disabled={removeHeaders}
                      />
                    </Form.Item>
                    <Form.Item name={[field.name, 'value']} noStyle rules={[zodRule(WebhookHeader.shape.value)]}>
                      <Input.Password
                        placeholder="值"
                        aria-label="请求头的值"
                        autoComplete="new-password"
                        style={{ width: 180 }}
                        disabled={removeHeaders}
                      />
                    </Form.Item>
                    <Button
                      type="text"
                      icon={<DeleteOutlined aria-hidden />}
                      aria-label="删除请求头"
                      onClick={() => remove(field.name)}
                    />
                  </Space>
                ))}
                {fields.length < 10 && (
                  <Button
                    type="dashed"
                    icon={<PlusOutlined aria-hidden />}
                    onClick={() => add()}
                    disabled={removeHeaders}
                  >
                    添加请求头
                  </Button>
                )}
              </Space>
            )}
          </Form.List>
        )}
      </ProFormDependency>
    </Form.Item>
  );
}

export default function WebhookFields({ channel }: { channel?: Channel }) {
  const editing = channel !== undefined;
  return (
    <>
      <ProFormText
        name="webhook"
        label="Webhook 地址"
        placeholder={editing ? '留空保持不变' : 'https://example.com/notify'}
        extra={
          editing
            ? `当前：${channel.webhookMasked}`
            : `http:// 或 https:// 地址，可使用变量 ${VARIABLES}；不能是内网或本机地址。`
        }
        rules={
          editing
            ? [zodRule(ChannelBody.shape.webhook)]
            : [{ required: true, message: '请输入 Webhook 地址' }, zodRule(ChannelBody.shape.webhook)]
        }
      />
      <ProFormSelect
        name="method"
        label="请求方法"
        allowClear={false}
        options={WEBHOOK_METHODS.map((m) => ({ value: m, label: m }))}
        fieldProps={{ style: { width: 140 } }}
      />
      <Headers channel={channel} />
      {(channel?.webhookSettings?.headers.length ?? 0) > 0 && (
        <ProFormCheckbox name="removeHeaders">移除全部请求头</ProFormCheckbox>
      )}
      <ProFormDependency name={['method']}>
        {({ method }) =>
          method !== 'GET' && (
            <ProFormTextArea
              name="bodyTemplate"
              label="请求体模板"
              fieldProps={{ rows: 4, style: { fontFamily: 'monospace' } }}
              extra={
                <>
                  可用变量 <Typography.Text code>{VARIABLES}</Typography.Text>
                  ；Content-Type 为 JSON（默认）时变量按 JSON 字符串转义，应放在引号内。
                </>
              }
              rules={[zodRule(WebhookBodyTemplate)]}
            />
          )
        }
      </ProFormDependency>
      <ProFormText
        name="successStatus"
        label="成功状态码"
        placeholder="200-299"
        extra="应答状态码在此范围内才算成功，例如 200-299 或 200,204。"
        rules={[zodRule(WebhookSuccessStatus)]}
      />
      <Space wrap align="start" size="middle">
        <ProFormText
          name="successPath"
          label="成功条件：JSON 路径"
          placeholder="可选，例如 $.code"
          fieldProps={{ style: { width: 200 } }}
          rules={[zodRule(WebhookSuccessPath)]}
        />
        <ProFormText
          name="successValue"
          label="期望值"
          placeholder="例如 0；留空则值为真即可"
          fieldProps={{ style: { width: 200 } }}
          rules={[zodRule(WebhookSuccessValue)]}
        />
      </Space>
      <ProFormDigit
        name="perMinute"
        label="每分钟最多发送"
        min={0}
        max={600}
        fieldProps={{ precision: 0, addonAfter: '条' }}
        extra="0 表示不限速。目标返回 429 时会按 Retry-After 暂停。"
        rules={[zodRule(WebhookPerMinute)]}
      />
    </>
  );
}
