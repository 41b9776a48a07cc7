import OcsSettingsPage from '@/pages/OCS/OCSAdmin/settings';
import { fetchOcsSettings, saveOcsSettings } from '@/services/ocsAdmin';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../../helpers';

jest.mock('@/services/ocsAdmin', () => ({ fetchOcsSettings: jest.fn(), saveOcsSettings: jest.fn() }));

const current = { bankPrice: 1, freeDaily: 10, fuzzyThreshold: 0.5, ratePerSecond: 10, rateBurst: 20 };

beforeEach(() => {
  jest.mocked(fetchOcsSettings).mockResolvedValue({ success: true, data: current });
  jest.mocked(saveOcsSettings).mockReset();
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
    expect(
      screen.getByText(/调高：更少误答、但更多“未找到”；调低：能匹配改动更大的题目，但更容易答错/),
    ).toBeInTheDocument();
    expect(screen.getByText(/未找到、出错或 10 分钟内重复提问不扣费/)).toBeInTheDocument();
  });

  it('saves the edited values as numbers', async () => {
    jest
      .mocked(saveOcsSettings)
      .mockResolvedValue({ success: true, data: { ...current, bankPrice: 2, fuzzyThreshold: 0.6 } });
    renderAt('/OCS/OCSAdmin/settings', <OcsSettingsPage />);
    await waitFor(() => expect(field('模糊匹配阈值')).toHaveValue('0.50'));
    fireEvent.change(field('题库单价（积分/题）'), { target: { value: '2' } });
    fireEvent.change(field('模糊匹配阈值'), { target: { value: '0.6' } });
    await save();
    await waitFor(() =>
      expect(saveOcsSettings).toHaveBeenCalledWith({ ...current, bankPrice: 2, fuzzyThreshold: 0.6 }),
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
    expect(saveOcsSettings).not.toHaveBeenCalled();
  });
});
