import OverviewPage from '@/pages/OCS/overview';
import { fetchOcsOverview } from '@/services/ocs';
import { screen, within } from '@testing-library/react';
import { renderAt } from '../helpers';
import { query } from './fixtures';

jest.mock('@/services/ocs', () => ({ fetchOcsOverview: jest.fn() }));

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
      ...over,
    },
  };
}

beforeEach(() => jest.mocked(fetchOcsOverview).mockResolvedValue(overview()));

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

  it('draws 30 stacked days with a legend and hover titles', async () => {
    renderAt('/OCS/overview', <OverviewPage />);
    const chart = await screen.findByRole('img', { name: '近 30 天每日查询数（按结果堆叠）' });
    const days = within(chart).getAllByTestId('day-bar');
    expect(days).toHaveLength(30);
    expect(days[29].querySelector('title')).toHaveTextContent('2025-01-30：题库命中 4，AI 2，未找到 4');
    // Only non-zero segments are drawn: day 30 has all three, day 1 none.
    expect(days[29].querySelectorAll('rect')).toHaveLength(3);
    expect(days[0].querySelectorAll('rect')).toHaveLength(0);
    const card = chart.closest('.ant-card') as HTMLElement;
    for (const label of ['题库命中', 'AI', '未找到']) expect(within(card).getByText(label)).toBeInTheDocument();
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

    jest.mocked(fetchOcsOverview).mockResolvedValue(overview({ hasToken: true }));
    renderAt('/OCS/overview', <OverviewPage />);
    expect(await screen.findByText(/已有可用令牌/)).toBeInTheDocument();
    expect(screen.getByText('创建令牌').closest('.ant-steps-item')).toHaveClass('ant-steps-item-finish');
    expect(screen.getByText('生成配置').closest('.ant-steps-item')).toHaveClass('ant-steps-item-process');
  });

  it('says so when there is nothing yet', async () => {
    jest.mocked(fetchOcsOverview).mockResolvedValue(
      overview({
        daily: daily.map((d) => ({ ...d, bank: 0, ai: 0, miss: 0 })),
        recent: [],
        today: { queries: 0, answered: 0, hitRate: 0, spent: 0 },
      }),
    );
    renderAt('/OCS/overview', <OverviewPage />);
    expect(await screen.findByText('近 30 天还没有查询')).toBeInTheDocument();
    expect(screen.getByText('还没有查询记录')).toBeInTheDocument();
    expect(screen.getByText('在线提问试一试').closest('a')).toHaveAttribute('href', '/OCS/askQuestion');
    expect(stat('命中率')).toHaveTextContent('-');
  });

  it('offers a retry when the overview cannot load', async () => {
    jest.mocked(fetchOcsOverview).mockRejectedValueOnce({
      response: { status: 500, data: { success: false, errorCode: 'INTERNAL', errorMessage: '服务器开小差了' } },
    });
    renderAt('/OCS/overview', <OverviewPage />);
    expect(await screen.findByText('概览加载失败：服务器开小差了')).toBeInTheDocument();
  });
});
