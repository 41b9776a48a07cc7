/**
 * /OCS/preferenceSetting/aiModel: which AI model answers (with its price), the answer strategy, the
 * daily AI spending cap (enforced by the server) and the lowest confidence the user accepts.
 */
import {
  OCS_STRATEGIES,
  OCS_STRATEGY_LABELS,
  type AiModelOption,
  type OcsPreferences,
  type OcsStrategy,
} from '@/contract';
import { errorMessageOf, fieldErrorsOf } from '@/requestErrorConfig';
import * as ocsAiApi from '@/contract/api/ocsAi';
import { call } from '@/services/call';
import { PageContainer } from '@ant-design/pro-components';
import { useRequest } from 'ahooks';
import { Alert, Button, Card, Checkbox, Form, InputNumber, Radio, Skeleton, Space, Typography, message } from 'antd';
import { useState } from 'react';

interface Values {
  /** 0: automatic (the cheapest enabled model). */
  modelId: number;
  strategy: OcsStrategy;
  unlimited: boolean;
  dailyAiCap: number | null;
  /** Percent (0–100) on the form, 0–1 on the wire. */
  minConfidence: number;
}

const STRATEGY_HINTS: Record<OcsStrategy, string> = {
  bank_ai: '先查题库，找不到再让 AI 作答。',
  bank: '只查题库，从不调用 AI，不会产生 AI 费用。',
  ai: '每道题都让 AI 作答，即使题库中有答案。',
};

export default function AiModelPage() {
  const [form] = Form.useForm<Values>();
  const models = useRequest<AiModelOption[], []>(() =>
    call(ocsAiApi.modelOptions, {}, { skipErrorHandler: true }).then((r) => r.data),
  );
  const prefs = useRequest<OcsPreferences, []>(() =>
    call(ocsAiApi.getPreferences, {}, { skipErrorHandler: true }).then((r) => r.data),
  );
  const [saving, setSaving] = useState(false);
  const unlimited = Form.useWatch('unlimited', form);
  const strategy = Form.useWatch('strategy', form);

  const p = prefs.data;
  const list = models.data;
  const save = async (v: Values) => {
    setSaving(true);
    try {
      const res = await call(
        ocsAiApi.savePreferences,
        {
          body: {
            modelId: v.modelId || null,
            strategy: v.strategy,
            dailyAiCap: v.unlimited ? null : (v.dailyAiCap ?? 0),
            minConfidence: Math.round(v.minConfidence ?? 0) / 100,
          },
        },
        { skipErrorHandler: true },
      );
      prefs.mutate(res.data);
      message.success('AI 偏好已保存');
    } catch (e) {
      const fields = fieldErrorsOf(e);
      form.setFields(
        (['modelId', 'strategy', 'dailyAiCap', 'minConfidence'] as const)
          .filter((f) => fields[f])
          .map((name) => ({ name, errors: fields[name] })),
      );
      message.error(errorMessageOf(e));
    } finally {
      setSaving(false);
    }
  };

  const failed = models.error ?? prefs.error;
  const chosenGone = p && list && p.modelId !== null && !list.some((m) => m.id === p.modelId);
  const cheapest = list && [...list].sort((a, b) => a.price - b.price)[0];
  return (
    <PageContainer
      title="AI 模型"
      content="选择由哪个模型作答、何时使用 AI、每天最多在 AI 上花多少积分，以及接受多低置信度的答案。"
    >
      {failed && (
        <Alert
          type="error"
          showIcon
          message={`加载失败：${errorMessageOf(failed)}`}
          action={
            <Button
              size="small"
              onClick={() => {
                models.refresh();
                prefs.refresh();
              }}
            >
              重试
            </Button>
          }
        />
      )}
      {!failed && (!p || !list) && <Skeleton active paragraph={{ rows: 8 }} />}
      {p && list && (
        <Card>
          <Form<Values>
            form={form}
            layout="vertical"
            onFinish={save}
            style={{ maxWidth: 640 }}
            initialValues={{
              modelId: p.modelId ?? 0,
              strategy: p.strategy,
              unlimited: p.dailyAiCap === null,
              dailyAiCap: p.dailyAiCap,
              minConfidence: Math.round(p.minConfidence * 100),
            }}
          >
            <Form.Item name="strategy" label="答题策略" extra={strategy && STRATEGY_HINTS[strategy]}>
              <Radio.Group>
                {OCS_STRATEGIES.map((s) => (
                  <Radio.Button key={s} value={s}>
                    {OCS_STRATEGY_LABELS[s]}
                  </Radio.Button>
                ))}
              </Radio.Group>
            </Form.Item>
            {list.length === 0 && (
              <Alert
                style={{ marginBottom: 16 }}
                type="warning"
                showIcon
                message="管理员还没有启用任何 AI 模型，目前只能使用题库作答。"
              />
            )}
            {chosenGone && (
              <Alert
                style={{ marginBottom: 16 }}
                type="warning"
                showIcon
                message="你选择的模型已停用，现在会自动使用最便宜的可用模型。"
              />
            )}
            <Form.Item name="modelId" label="AI 模型">
              <Radio.Group>
                <Space direction="vertical">
                  <Radio value={0}>自动（最便宜的可用模型{cheapest ? `，当前为 ${cheapest.displayName}` : ''}）</Radio>
                  {list.map((m) => (
                    <Radio key={m.id} value={m.id}>
                      {m.displayName} <Typography.Text type="secondary">— {m.price} 积分/题</Typography.Text>
                    </Radio>
                  ))}
                </Space>
              </Radio.Group>
            </Form.Item>
            <Form.Item
              label="每日 AI 消费上限"
              extra={`今日已在 AI 上花费 ${p.todayAiSpent} 积分。达到上限后当天不再调用 AI，也不扣费。`}
            >
              <Space>
                <Form.Item name="unlimited" valuePropName="checked" noStyle>
                  <Checkbox>不限</Checkbox>
                </Form.Item>
                <Form.Item name="dailyAiCap" noStyle rules={[{ required: !unlimited, message: '请输入每日上限' }]}>
                  {/* Wide enough for its placeholder; the unit beside it, not inside (greyed with the box). */}
                  <InputNumber
                    aria-label="每日上限（积分）"
                    min={0}
                    precision={0}
                    disabled={unlimited}
                    placeholder="例如 50"
                    style={{ width: 140 }}
                  />
                </Form.Item>
                <span>积分</span>
              </Space>
            </Form.Item>
            <Form.Item
              name="minConfidence"
              label="答案最低置信度"
              extra="每个答案都带有置信度（来源可靠程度、题目相似程度、多个来源是否一致、是否被多人反馈有误）。低于此值的答案按“未找到”处理，不扣费；0 表示接受所有答案。建议 0–80。"
              rules={[
                { required: true, message: '请输入最低置信度' },
                { type: 'number', min: 0, max: 100, message: '请输入 0 到 100 之间的数' },
              ]}
            >
              <InputNumber aria-label="答案最低置信度" precision={0} step={5} suffix="%" style={{ width: 140 }} />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={saving}>
              保存
            </Button>
          </Form>
        </Card>
      )}
    </PageContainer>
  );
}
