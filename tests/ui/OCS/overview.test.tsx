import { useAccess } from '@@/plugin-access';
import access from '@/access';
import EChart from '@/components/charts/EChart';
import OverviewPage from '@/pages/OCS/overview';
import * as ocsApi from '@/contract/api/ocs';
import { answer, failOnce, sent } from '../api';
import * as ocsAdminApi from '@/contract/api/ocsAdmin';
import { screen, waitFor, within } from '@testing-library/react';
import { atViewport, renderAt } from '../helpers';
import { query } from './fixtures';

jest.mock('@/services/call');

jest.mock('@@/plugin-access', () => ({ useAccess: jest.fn() }));
// ECharts draws on a canvas jsdom lacks: the chart is an image named by its label, and the test reads
// the option the page gave it.
jest.mock('@/components/charts/EChart', () => ({
  __esModule: true,
  default: jest.fn((props: { ariaLabel: string }) =>
    require('react').createElement('div', { role: 'img', 'aria-label': props.ariaLabel }),
  ),
}));

/** The option of the chart drawn last (the ECharts option object, read loosely). */
const chartOption = () => jest.mocked(EChart).mock.calls.at(-1)![0].option as any;

const daily = Array.from({ length: 30 }, (_, i) => ({
  day: `2025-01-${String(i + 1).padStart(2, '0')}`,
  bank: i % 5,
  ai: i % 3,
  miss: i === 29 ? 4 : 0,
}));

function overview(over: object = {}) {
  return {
    success: true as const,
    data: {
      balance: 128,
      price: 1,
      today: { queries: 8, answered: 6, hitRate: 0.75, spent: 5 },
      daily,
      recent: [
        query(3, 'bank', '中华人民共和国的首都是哪座城市？'),
        query(2, 'miss', '第三章课后习题 7（图片题）'),
        query(1, 'cache', '水的化学式'),
      ],
      hasToken: false,
      serviceReady: { bank: true, ai: true },
      ...over,
    },
  };
}

const setup = (over: object = {}) => ({
  success: true as const,
  data: {
    bank: { done: false },
    ai: { done: true, models: 2 },
    price: { done: false, bankPrice: 1 },
    complete: false,
    ...over,
  },
});

function as(roles: ('admin' | 'njit')[]) {
  jest
    .mocked(useAccess)
    .mockReturnValue(access({ currentUser: { uid: 2, username: 'someone', nickname: null, avatar: null, roles } }));
}

beforeEach(() => {
  answer(ocsApi.overview, overview());
  answer(ocsAdminApi.setupStatus, setup());
  jest.mocked(EChart).mockClear();
  as([]);
});

const stat = (title: string) => screen.getByText(title).closest('.ant-pro-statistic-card') as HTMLElement;

describe('OCS overview', () => {
  it('shows the balance and today’s numbers', async () => {
    renderAt('/OCS/overview', <OverviewPage />);
    await screen.findByText('今日查询');
    expect(stat('余额')).toHaveTextContent('128积分');
    expect(stat('今日查询')).toHaveTextContent('8次');
    expect(stat('今日查询')).toHaveTextContent('已作答 6 次');
    expect(stat('命中率')).toHaveTextContent('75.0%');
    expect(stat('今日消费')).toHaveTextContent('5积分');
    expect(stat('今日消费')).toHaveTextContent('每次作答 1 积分');
  });

  it('charts 30 days stacked by outcome, with a legend, a tooltip and dates a phone can read', async () => {
    renderAt('/OCS/overview', <OverviewPage />);
    await screen.findByRole('img', { name: '近 30 天每日查询数（按结果堆叠）' });
    const option = chartOption();
    expect(option.xAxis.data).toHaveLength(30);
    expect(option.xAxis.data[29]).toBe('2025-01-30');
    // Bottom to top, one stack; the legend toggles these series.
    expect(option.series.map((x: { name: string }) => x.name)).toEqual(['题库命中', 'AI', '未找到']);
    expect(option.series.every((x: { stack: string }) => x.stack === 'queries')).toBe(true);
    expect(option.series.map((x: { data: number[] }) => x.data[29])).toEqual([4, 2, 4]);
    expect(option.series.map((x: { data: number[] }) => x.data[0])).toEqual([0, 0, 0]);
    expect(option.legend).toBeDefined();
    // Hovering day 30: its numbers and their total.
    const hover = [
      { axisValue: '2025-01-30', seriesName: '题库命中', value: 4, marker: '' },
      { axisValue: '2025-01-30', seriesName: 'AI', value: 2, marker: '' },
      { axisValue: '2025-01-30', seriesName: '未找到', value: 4, marker: '' },
    ];
    expect(option.tooltip.formatter(hover)).toBe('2025-01-30<br/>题库命中 4<br/>AI 2<br/>未找到 4<br/>合计 10');
    expect(option.tooltip.confine).toBe(true);
    // jsdom matches no breakpoint, as a phone: one date a week, counted back from today.
    const labelled = option.xAxis.data.filter((_: string, i: number) => option.xAxis.axisLabel.interval(i));
    expect(labelled).toEqual(['2025-01-02', '2025-01-09', '2025-01-16', '2025-01-23', '2025-01-30']);
    expect(option.xAxis.axisLabel.formatter('2025-01-30')).toBe('01-30');
    expect(option.yAxis.axisLabel.formatter(12000)).toBe('1.2万');
  });

  it('lists recent queries with local time, outcome and cost', async () => {
    renderAt('/OCS/overview', <OverviewPage />);
    const row = (await screen.findByText('中华人民共和国的首都是哪座城市？')).closest('tr') as HTMLElement;
    expect(row).toHaveTextContent('2025-01-04 12:05');
    expect(within(row).getByText('题库命中')).toBeInTheDocument();
    expect(row).toHaveTextContent('−1');
    const miss = screen.getByText('第三章课后习题 7（图片题）').closest('tr') as HTMLElement;
    expect(within(miss).getByText('未找到')).toBeInTheDocument();
    expect(screen.getByText('水的化学式').closest('tr')).toHaveTextContent('缓存（未扣费）');
  });

  it('guides through token, config and script, with step 1 done once a token exists', async () => {
    const { unmount } = renderAt('/OCS/overview', <OverviewPage />);
    expect((await screen.findByText('去创建')).closest('a')).toHaveAttribute('href', '/OCS/tokenGen');
    expect(screen.getByText('去生成').closest('a')).toHaveAttribute('href', '/OCS/configGen');
    expect(screen.getByText('去安装').closest('a')).toHaveAttribute('href', '/OCS/downloadUserScript');
    expect(screen.getByText('创建令牌').closest('.ant-steps-item')).toHaveClass('ant-steps-item-process');
    unmount();

    answer(ocsApi.overview, overview({ hasToken: true }));
    renderAt('/OCS/overview', <OverviewPage />);
    expect(await screen.findByText(/已有可用令牌/)).toBeInTheDocument();
    expect(screen.getByText('创建令牌').closest('.ant-steps-item')).toHaveClass('ant-steps-item-finish');
    expect(screen.getByText('生成配置').closest('.ant-steps-item')).toHaveClass('ant-steps-item-process');
  });

  it('says so when there is nothing yet', async () => {
    answer(
      ocsApi.overview,
      overview({
        daily: daily.map((d) => ({ ...d, bank: 0, ai: 0, miss: 0 })),
        recent: [],
        today: { queries: 0, answered: 0, hitRate: 0, spent: 0 },
      }),
    );
    renderAt('/OCS/overview', <OverviewPage />);
    expect(await screen.findByText('近 30 天还没有查询')).toBeInTheDocument();
    expect(EChart).not.toHaveBeenCalled();
    expect(screen.getByText('还没有查询记录')).toBeInTheDocument();
    expect(screen.getByText('在线提问试一试').closest('a')).toHaveAttribute('href', '/OCS/askQuestion');
    expect(stat('命中率')).toHaveTextContent('-');
  });

  it('offers a retry when the overview cannot load', async () => {
    failOnce(ocsApi.overview, {
      response: { status: 500, data: { success: false, errorCode: 'INTERNAL', errorMessage: '服务器开小差了' } },
    });
    renderAt('/OCS/overview', <OverviewPage />);
    expect(await screen.findByText('概览加载失败：服务器开小差了')).toBeInTheDocument();
  });

  it('tells a user when the portal has neither a bank nor an AI model yet', async () => {
    answer(ocsApi.overview, overview({ serviceReady: { bank: false, ai: false } }));
    const { unmount } = renderAt('/OCS/overview', <OverviewPage />);
    const notice = await screen.findByTestId('ocs-service-notice');
    expect(notice).toHaveTextContent('管理员尚未完成 OCS 设置');
    expect(notice).toHaveTextContent('请联系管理员');
    expect(sent(ocsAdminApi.setupStatus)).toEqual([]);
    unmount();

    // Either one is enough to answer something: no notice.
    answer(ocsApi.overview, overview({ serviceReady: { bank: false, ai: true } }));
    renderAt('/OCS/overview', <OverviewPage />);
    await screen.findByText('今日查询');
    expect(screen.queryByTestId('ocs-service-notice')).not.toBeInTheDocument();
  });

  it('shows an administrator the setup checklist, with a link to where each open item is done', async () => {
    as(['admin']);
    answer(ocsApi.overview, overview({ serviceReady: { bank: false, ai: true } }));
    const { unmount } = renderAt('/OCS/overview', <OverviewPage />);
    const list = await screen.findByTestId('ocs-setup-checklist');
    expect(within(list).getByText('已完成 1/3')).toBeInTheDocument();
    const bank = within(list).getByTestId('ocs-setup-bank');
    expect(bank).toHaveAttribute('data-done', 'false');
    expect(within(bank).getByText('题库已导入？')).toBeInTheDocument();
    expect(within(bank).getByText('去导入题库').closest('a')).toHaveAttribute('href', '/OCS/OCSAdmin/bank');
    const ai = within(list).getByTestId('ocs-setup-ai');
    expect(ai).toHaveAttribute('data-done', 'true');
    expect(ai).toHaveTextContent('已启用 2 个模型');
    expect(within(ai).queryByRole('link')).not.toBeInTheDocument();
    const price = within(list).getByTestId('ocs-setup-price');
    expect(price).toHaveTextContent('仍是默认的 1 积分/次');
    expect(within(price).getByText('去设置单价').closest('a')).toHaveAttribute('href', '/OCS/OCSAdmin/settings');
    // The administrator gets the checklist, not the users' notice.
    expect(screen.queryByTestId('ocs-service-notice')).not.toBeInTheDocument();
    unmount();

    // Done: the checklist goes away.
    answer(
      ocsAdminApi.setupStatus,
      setup({ bank: { done: true }, price: { done: true, bankPrice: 2 }, complete: true }),
    );
    renderAt('/OCS/overview', <OverviewPage />);
    await screen.findByText('今日查询');
    expect(sent(ocsAdminApi.setupStatus)).toHaveLength(2);
    expect(screen.queryByTestId('ocs-setup-checklist')).not.toBeInTheDocument();
  });

  describe('at a phone’s and a desktop’s width', () => {
    let restore: () => void = () => {};
    afterEach(() => restore());

    it('a phone shows today’s four figures two by two and a date a week; a desktop one row and more dates', async () => {
      restore = atViewport(375);
      const phone = renderAt('/OCS/overview', <OverviewPage />);
      let group = await screen.findByTestId('today-stats');
      // Two columns that wrap (half the width each), no vertical dividers squeezing them.
      expect(group.querySelector('.ant-pro-card-body')).toHaveClass('ant-pro-card-body-wrap');
      expect(group.querySelectorAll('.ant-pro-card-col-12')).toHaveLength(4);
      expect(group.querySelector('.ant-pro-card-divider')).toBeNull();
      let option = chartOption();
      expect(option.xAxis.data.filter((_: string, i: number) => option.xAxis.axisLabel.interval(i))).toHaveLength(5);
      phone.unmount();
      restore();

      restore = atViewport(1440);
      renderAt('/OCS/overview', <OverviewPage />);
      group = await screen.findByTestId('today-stats');
      // antd's useBreakpoint knows the width only after its first effect: wait for the wide layout.
      await waitFor(() => expect(group.querySelector('.ant-pro-card-body')).not.toHaveClass('ant-pro-card-body-wrap'));
      expect(group.querySelectorAll('.ant-pro-card-col-12')).toHaveLength(0);
      expect(group.querySelectorAll('.ant-pro-card-divider')).toHaveLength(3);
      expect(stat('命中率')).toHaveTextContent('75.0%');
      option = chartOption();
      const labelled = option.xAxis.data.filter((_: string, i: number) => option.xAxis.axisLabel.interval(i));
      expect(labelled).toHaveLength(10);
      expect(labelled.at(-1)).toBe('2025-01-30');
    });
  });
});
