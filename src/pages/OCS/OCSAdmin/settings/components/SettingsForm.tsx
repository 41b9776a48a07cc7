/** The OCS service settings with what each one does; the server audits every change. */
import { zodRule } from '@/components/zodRule';
import { OcsSettingsBody } from '@/contract';
import { fetchOcsSettings, saveOcsSettings } from '@/services/ocsAdmin';
import { ProForm, ProFormDigit } from '@ant-design/pro-components';
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
      request={async () => (await fetchOcsSettings()).data}
      submitter={{ searchConfig: { submitText: '保存设置', resetText: '还原' } }}
      onFinish={async (values) => {
        try {
          await saveOcsSettings(values);
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
        extra="题目与题库中的题目不完全相同时，两者的相似度（pg_trgm 三元组相似度，0.3–1）须达到此值才会作答。调高：更少误答、但更多“未找到”；调低：能匹配改动更大的题目，但更容易答错。1 表示只接受完全相同的题目。数字、否定词等关键差异无论阈值多少都不会被匹配。建议 0.5。"
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
        extra="在每秒限额之外允许短时间内额外发出的请求数，便于脚本一次提交一整页题目。"
      />
    </ProForm>
  );
}
