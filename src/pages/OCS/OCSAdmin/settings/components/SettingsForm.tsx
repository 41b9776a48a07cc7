/**
 * The OCS service settings with what each one does (price, free points, matching, rate limit, the
 * latency budget, reports and 存疑 answers); the server audits every change.
 */
import { zodRule } from '@/components/zodRule';
import { OCS_DISPUTED_MODE_LABELS, OcsSettingsBody } from '@/contract';
import * as ocsAdminApi from '@/contract/api/ocsAdmin';
import { call } from '@/services/call';
import { ProForm, ProFormDigit, ProFormRadio } from '@ant-design/pro-components';
import { message } from 'antd';
import { refreshOcsSetup } from '../../components/SetupChecklist';

// No min/max on the inputs: they would silently clamp, where the rule explains what is allowed.
const rule = (key: keyof typeof OcsSettingsBody.shape, label: string) => [
  { required: true, message: `请输入${label}` },
  zodRule(OcsSettingsBody.shape[key]),
];

export default function SettingsForm() {
  return (
    <ProForm<OcsSettingsBody>
      layout="vertical"
      style={{ maxWidth: 640 }}
      request={async () => (await call(ocsAdminApi.getSettings)).data}
      submitter={{ searchConfig: { submitText: '保存设置', resetText: '还原' } }}
      onFinish={async (values) => {
        try {
          await call(ocsAdminApi.saveSettings, { body: values });
          message.success('设置已保存，立即生效');
          refreshOcsSetup(); // a save sets the price (单价已设置)
          return true;
        } catch {
          return false; // the request layer has shown the error
        }
      }}
    >
      <ProFormDigit
        name="bankPrice"
        label="题库单价（积分/题）"
        fieldProps={{ precision: 0 }}
        rules={rule('bankPrice', '题库单价')}
        extra="每次从题库找到答案扣除的积分；未找到、出错或 10 分钟内重复提问不扣费。设为 0 即免费。AI 作答按各模型自己的单价计费。"
      />
      <ProFormDigit
        name="freeDaily"
        label="每日免费领取（积分）"
        fieldProps={{ precision: 0 }}
        rules={rule('freeDaily', '每日免费领取积分')}
        extra="用户每天（按门户时区）可领取一次的积分。设为 0 即关闭每日领取。"
      />
      <ProFormDigit
        name="fuzzyThreshold"
        label="模糊匹配阈值"
        fieldProps={{ step: 0.05, precision: 2 }}
        rules={rule('fuzzyThreshold', '模糊匹配阈值')}
        extra="题目与题库中的题目不完全相同时，两道题文字的相似程度（按两段文字中相同的连续字词所占的比例计算，0.3–1，1 为完全相同）须达到此值才会作答。调高：更少误答、但更多“未找到”；调低：能匹配改动更大的题目，但更容易答错。1 表示只接受完全相同的题目。数字、否定词等关键差异无论阈值多少都不会被匹配。建议 0.5。"
      />
      <ProFormDigit
        name="ratePerSecond"
        label="每个令牌每秒查询次数"
        fieldProps={{ precision: 0 }}
        rules={rule('ratePerSecond', '每秒查询次数')}
        extra="超过后返回“请求过快”，不扣费。"
      />
      <ProFormDigit
        name="rateBurst"
        label="突发额度"
        fieldProps={{ precision: 0 }}
        rules={rule('rateBurst', '突发额度')}
        extra="在每秒限额之外允许短时间内额外发出的请求数，便于脚本一次提交一整页题目。批量查询每 10 道题计为 1 次请求。"
      />
      <ProFormDigit
        name="latencyBudgetSeconds"
        label="作答时限（秒）"
        fieldProps={{ precision: 0 }}
        rules={rule('latencyBudgetSeconds', '作答时限')}
        extra="无论答案来自题库、上游题库还是 AI，超过这个时间就回答“未找到”且不扣费；之后得到的答案仍会存入题库，下次直接命中。部分脚本管理器约 30 秒后丢弃响应，建议 15。"
      />
      <ProFormRadio.Group
        name="disputedMode"
        label="存疑答案"
        options={Object.entries(OCS_DISPUTED_MODE_LABELS).map(([value, label]) => ({ value, label }))}
        rules={[{ required: true, message: '请选择存疑答案的处理方式' }]}
        extra="多位用户独立反馈有误、尚未审核的答案为“存疑”：可降低置信度（减半）后照常作答，也可在审核前不作答。"
      />
      <ProFormDigit
        name="disputeThreshold"
        label="存疑门槛（反馈权重）"
        fieldProps={{ step: 0.5, precision: 1 }}
        rules={rule('disputeThreshold', '存疑门槛')}
        extra="每位反馈者的权重为 1，被驳回过的反馈者权重更低；同一答案的待审核反馈权重之和达到此值即标为存疑。"
      />
      <ProFormDigit
        name="reportDailyLimit"
        label="每人每天最多反馈"
        fieldProps={{ precision: 0 }}
        rules={rule('reportDailyLimit', '每天反馈次数')}
        extra="超过后当天不能再反馈，防止滥用。"
      />
    </ProForm>
  );
}
