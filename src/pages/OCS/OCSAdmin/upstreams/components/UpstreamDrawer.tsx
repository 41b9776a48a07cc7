/**
 * Add or edit an upstream bank: the request as an OCS config describes it (URL, method, parameter
 * template with ${title} ${type} ${options} ${secret}, headers), the JSONPath of the answer, the
 * secret (write-only), timeout, price, daily budget, circuit breaker and order. An OCS AnswererWrapper
 * pasted in fills the request part (its handler is not used).
 */
import { zodRule } from '@/components/zodRule';
import { UpstreamBody, upstreamFromWrapper, type Upstream } from '@/contract';
import { errorMessageOf, fieldErrorsOf } from '@/requestErrorConfig';
import * as ocsUpstreamApi from '@/contract/api/ocsUpstream';
import { call } from '@/services/call';
import {
  DrawerForm,
  ProFormDigit,
  ProFormRadio,
  ProFormSwitch,
  ProFormText,
  ProFormTextArea,
} from '@ant-design/pro-components';
import { Alert, Button, Collapse, Form, Input, Space, message } from 'antd';
import type React from 'react';
import { useState } from 'react';
import { fromLines, toLines } from './pairs';

interface Values {
  name: string;
  enabled: boolean;
  position: number;
  url: string;
  method: 'get' | 'post';
  bodyType: 'json' | 'form';
  headers: string;
  data: string;
  answerPath: string;
  secret?: string;
  timeoutMs: number;
  price: number;
  dailyBudget?: number | null;
  breakerThreshold: number;
  breakerCooldownSeconds: number;
}

const DEFAULTS: Values = {
  name: '',
  enabled: true,
  position: 0,
  url: '',
  method: 'get',
  bodyType: 'json',
  headers: '',
  data: 'title=${title}\ntype=${type}\noptions=${options}',
  answerPath: '$.data.answer',
  timeoutMs: 5000,
  price: 1,
  dailyBudget: null,
  breakerThreshold: 5,
  breakerCooldownSeconds: 30,
};

const shape = UpstreamBody.shape;

export default function UpstreamDrawer({
  upstream,
  trigger,
  onSaved,
}: {
  upstream?: Upstream;
  trigger: React.ReactElement;
  onSaved: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const [pasted, setPasted] = useState('');
  const [pasteError, setPasteError] = useState<string>();
  const editing = upstream !== undefined;
  const method = Form.useWatch('method', form);

  const fillFromWrapper = () => {
    try {
      const w = upstreamFromWrapper(pasted);
      form.setFieldsValue({
        ...(w.name && !form.getFieldValue('name') ? { name: w.name } : {}),
        ...(w.url ? { url: w.url } : {}),
        ...(w.method ? { method: w.method } : {}),
        ...(w.headers ? { headers: toLines(w.headers) } : {}),
        ...(w.data ? { data: toLines(w.data) } : {}),
      });
      setPasteError(undefined);
      message.success('已从 OCS 配置填入请求设置；请填写答案路径（JSONPath）');
    } catch (e) {
      setPasteError((e as Error).message);
    }
  };

  const onFinish = async (v: Values) => {
    const headers = fromLines(v.headers);
    const data = fromLines(v.data);
    if (typeof headers === 'string' || typeof data === 'string') {
      form.setFields([
        ...(typeof headers === 'string' ? [{ name: 'headers' as const, errors: [headers] }] : []),
        ...(typeof data === 'string' ? [{ name: 'data' as const, errors: [data] }] : []),
      ]);
      return false;
    }
    const body = {
      name: v.name,
      enabled: v.enabled,
      position: v.position,
      url: v.url,
      method: v.method,
      bodyType: v.bodyType,
      headers,
      data,
      answerPath: v.answerPath,
      timeoutMs: v.timeoutMs,
      price: v.price,
      dailyBudget: v.dailyBudget ?? null,
      breakerThreshold: v.breakerThreshold,
      breakerCooldownSeconds: v.breakerCooldownSeconds,
      ...(v.secret?.trim() ? { secret: v.secret.trim() } : {}),
    };
    try {
      if (upstream)
        await call(ocsUpstreamApi.updateUpstream, { params: { id: upstream.id }, body }, { skipErrorHandler: true });
      else await call(ocsUpstreamApi.createUpstream, { body }, { skipErrorHandler: true });
      message.success(editing ? '上游题库已保存' : '上游题库已添加');
      onSaved();
      return true;
    } catch (e) {
      const fields = fieldErrorsOf(e);
      form.setFields(
        (Object.keys(DEFAULTS) as Array<keyof Values>)
          .filter((f) => fields[f])
          .map((name) => ({ name, errors: fields[name] })),
      );
      message.error(errorMessageOf(e));
      return false;
    }
  };

  return (
    <DrawerForm<Values>
      form={form}
      title={editing ? `编辑上游题库「${upstream.name}」` : '添加上游题库'}
      trigger={trigger}
      width={600}
      drawerProps={{ destroyOnHidden: true }}
      submitter={{ searchConfig: { submitText: editing ? '保存' : '添加', resetText: '取消' } }}
      initialValues={
        upstream
          ? {
              ...DEFAULTS,
              ...upstream,
              headers: toLines(upstream.headers),
              data: toLines(upstream.data),
              secret: '',
            }
          : DEFAULTS
      }
      onFinish={onFinish}
    >
      {!editing && (
        <Collapse
          size="small"
          style={{ marginBottom: 16 }}
          items={[
            {
              key: 'wrapper',
              label: '从 OCS 题库配置导入（可选）',
              children: (
                <Space direction="vertical" style={{ width: '100%' }}>
                  <Input.TextArea
                    aria-label="OCS 题库配置"
                    rows={4}
                    value={pasted}
                    onChange={(e) => setPasted(e.target.value)}
                    placeholder='粘贴 OCS 的题库配置 JSON，例如 [{"name":"…","url":"…","method":"get","data":{…},"handler":"…"}]'
                  />
                  {pasteError && <Alert type="error" showIcon message={pasteError} />}
                  <Button onClick={fillFromWrapper} disabled={!pasted.trim()}>
                    填入请求设置
                  </Button>
                  <Alert
                    type="info"
                    showIcon
                    message="出于安全考虑，不会执行配置中的 handler 代码，请用 JSONPath 指明答案在返回 JSON 中的位置。"
                  />
                </Space>
              ),
            },
          ]}
        />
      )}
      <ProFormText
        name="name"
        label="名称"
        placeholder="例如：tiku-adapter"
        extra="答案存入题库时来源记为“upstream:名称”；不能含空格或冒号。"
        rules={[{ required: true, message: '请输入名称' }, zodRule(shape.name)]}
      />
      <ProFormText
        name="url"
        label="接口地址"
        placeholder="https://tiku.example.com/api/query"
        rules={[{ required: true, message: '请输入接口地址' }, zodRule(shape.url)]}
      />
      <ProFormRadio.Group
        name="method"
        label="请求方法"
        radioType="button"
        options={[
          { value: 'get', label: 'GET' },
          { value: 'post', label: 'POST' },
        ]}
      />
      {method === 'post' && (
        <ProFormRadio.Group
          name="bodyType"
          label="请求体格式"
          options={[
            { value: 'json', label: 'JSON' },
            { value: 'form', label: '表单' },
          ]}
        />
      )}
      <ProFormTextArea
        name="data"
        label="参数模板"
        extra="每行一个“名称=值”；值中可用 ${title}（题目）、${type}（题型）、${options}（选项，每行一个）、${secret}（下方密钥）。GET 放在查询字符串中，POST 放在请求体中。"
        fieldProps={{ autoSize: { minRows: 3 } }}
      />
      <ProFormTextArea
        name="headers"
        label="请求头"
        extra="每行一个“名称=值”，同样可用 ${secret}。"
        fieldProps={{ autoSize: { minRows: 1 } }}
      />
      <ProFormText
        name="answerPath"
        label="答案路径（JSONPath）"
        placeholder="$.data.answer"
        extra="答案在返回 JSON 中的位置；取到数组时用 # 连接。答案可以是选项原文或选项字母。"
        rules={[{ required: true, message: '请输入答案路径' }, zodRule(shape.answerPath)]}
      />
      <ProFormText.Password
        name="secret"
        label="密钥（可选）"
        placeholder={upstream?.secretMasked ? `已设置（${upstream.secretMasked}），留空保持不变` : '上游要求的令牌'}
        extra="加密保存，保存后只显示掩码；在参数模板或请求头中写 ${secret} 使用。"
        fieldProps={{ autoComplete: 'new-password' }}
      />
      <Space wrap size="large">
        <ProFormDigit
          name="price"
          label="单价（积分/题）"
          fieldProps={{ precision: 0 }}
          rules={[zodRule(shape.price)]}
        />
        <ProFormDigit
          name="timeoutMs"
          label="超时（毫秒）"
          extra="不能超过「OCS 设置」中的作答时限（默认 15 秒，即 15000 毫秒）"
          fieldProps={{ precision: 0 }}
          rules={[zodRule(shape.timeoutMs)]}
        />
        <ProFormDigit
          name="dailyBudget"
          label="每日调用上限"
          placeholder="不限"
          fieldProps={{ precision: 0 }}
          rules={[zodRule(shape.dailyBudget)]}
        />
      </Space>
      <Space wrap size="large">
        <ProFormDigit
          name="breakerThreshold"
          label="连续失败几次后熔断"
          fieldProps={{ precision: 0 }}
          rules={[zodRule(shape.breakerThreshold)]}
        />
        <ProFormDigit
          name="breakerCooldownSeconds"
          label="熔断时长（秒）"
          fieldProps={{ precision: 0 }}
          rules={[zodRule(shape.breakerCooldownSeconds)]}
        />
        <ProFormDigit
          name="position"
          label="顺序"
          tooltip="数字小的排在前面：多个上游答案一致时，答案记在排在前面的上游名下。"
          fieldProps={{ precision: 0 }}
          rules={[zodRule(shape.position)]}
        />
      </Space>
      <ProFormSwitch name="enabled" label="启用" />
    </DrawerForm>
  );
}
