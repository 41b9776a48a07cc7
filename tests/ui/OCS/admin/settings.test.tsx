import OcsSettingsPage from '@/pages/OCS/OCSAdmin/settings';
import * as ocsAdminApi from '@/contract/api/ocsAdmin';
import { call } from '@/services/call';
import { answer, sent } from '../../api';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../../helpers';
import { OCS_SETTINGS } from './settingsFixtures';

jest.mock('@/services/call');

const current = OCS_SETTINGS;

beforeEach(() => {
  answer(ocsAdminApi.getSettings, { success: true, data: current });
});

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const save = () => act(async () => fireEvent.click(screen.getByText('保存设置')));

describe('OCS service settings', () => {
  it('loads the current settings and explains what each one does', async () => {
    renderAt('/OCS/OCSAdmin/settings', <OcsSettingsPage />);
    await waitFor(() => expect(field('模糊匹配阈值')).toHaveValue('0.50'));
    expect(field('题库单价（积分/题）')).toHaveValue('1');
    expect(field('每日免费领取（积分）')).toHaveValue('10');
    expect(field('每个令牌每秒查询次数')).toHaveValue('10');
    expect(field('突发额度')).toHaveValue('20');
    expect(field('作答时限（秒）')).toHaveValue('15');
    expect(field('存疑门槛（反馈权重）')).toHaveValue('3.0');
    expect(field('每人每天最多反馈')).toHaveValue('20');
    expect((screen.getByLabelText('降低置信度后照常作答') as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText(/之后得到的答案仍会存入题库/)).toBeInTheDocument();
    expect(
      screen.getByText(/调高：更少误答、但更多“未找到”；调低：能匹配改动更大的题目，但更容易答错/),
    ).toBeInTheDocument();
    expect(screen.getByText(/未找到、出错或 10 分钟内重复提问不扣费/)).toBeInTheDocument();
  });

  it('saves the edited values as numbers', async () => {
    answer(ocsAdminApi.saveSettings, { success: true, data: { ...current, bankPrice: 2, fuzzyThreshold: 0.6 } });
    renderAt('/OCS/OCSAdmin/settings', <OcsSettingsPage />);
    await waitFor(() => expect(field('模糊匹配阈值')).toHaveValue('0.50'));
    fireEvent.change(field('题库单价（积分/题）'), { target: { value: '2' } });
    fireEvent.change(field('模糊匹配阈值'), { target: { value: '0.6' } });
    await save();
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith(ocsAdminApi.saveSettings, {
        body: { ...current, bankPrice: 2, fuzzyThreshold: 0.6 },
      }),
    );
  });

  it('saves the latency budget and how 存疑 answers are served; refuses a budget past 25 s', async () => {
    answer(ocsAdminApi.saveSettings, { success: true, data: current });
    renderAt('/OCS/OCSAdmin/settings', <OcsSettingsPage />);
    await waitFor(() => expect(field('作答时限（秒）')).toHaveValue('15'));
    fireEvent.change(field('作答时限（秒）'), { target: { value: '30' } });
    await save();
    expect(await screen.findByText('不能超过 25 秒（部分脚本管理器约 30 秒后丢弃响应）')).toBeInTheDocument();
    expect(sent(ocsAdminApi.saveSettings)).toEqual([]);
    fireEvent.change(field('作答时限（秒）'), { target: { value: '10' } });
    fireEvent.click(screen.getByLabelText('审核前不作答（视为未找到）'));
    await save();
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith(ocsAdminApi.saveSettings, {
        body: { ...current, latencyBudgetSeconds: 10, disputedMode: 'refuse' },
      }),
    );
  });

  it('refuses values outside the allowed range with the reason, without saving', async () => {
    renderAt('/OCS/OCSAdmin/settings', <OcsSettingsPage />);
    await waitFor(() => expect(field('模糊匹配阈值')).toHaveValue('0.50'));
    fireEvent.change(field('模糊匹配阈值'), { target: { value: '0.2' } });
    fireEvent.change(field('每个令牌每秒查询次数'), { target: { value: '' } });
    await save();
    expect(await screen.findByText('不能低于 0.3（过低会答错题）')).toBeInTheDocument();
    expect(screen.getByText('请输入每秒查询次数')).toBeInTheDocument();
    expect(sent(ocsAdminApi.saveSettings)).toEqual([]);
  });
});
