import EChart from '@/components/charts/EChart';
import OverviewPage from '@/pages/UMS/overview';
import * as umsApi from '@/contract/api/ums';
import { answer } from '../api';
import { screen, waitFor, within } from '@testing-library/react';
import { atViewport, renderAt } from '../helpers';

jest.mock('@/services/call');

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

const daily = Array.from({ length: 14 }, (_, i) => ({
  day: `2025-01-${String(i + 1).padStart(2, '0')}`,
  delivered: i,
  failed: i % 3,
}));

beforeEach(() => {
  jest.mocked(EChart).mockClear();
  answer(umsApi.stats, {
    success: true,
    data: {
      byStatus: { delivered: 12, failed: 3, retrying: 1 },
      unread: 4,
      total: 16,
      daily,
      channels: [
        {
          id: 1,
          kind: 'dingtalk',
          name: '我的提醒群',
          health: { attempts: 25, delivered: 24, successRate: 0.96 },
          lastSuccessAt: '2025-01-02T04:05:00.000Z',
          lastErrorAt: null,
          lastError: null,
          throttledUntil: null,
        },
        {
          id: 2,
          kind: 'email',
          name: '值班群',
          health: { attempts: 0, delivered: 0, successRate: null },
          lastSuccessAt: null,
          lastErrorAt: '2025-01-02T04:06:00.000Z',
          lastError: '关键词不匹配（310000）',
          throttledUntil: '2999-01-01T00:00:00.000Z',
        },
      ],
    },
  });
});

describe('UMS overview', () => {
  it.each([
    [1440, 7],
    [375, 4],
  ])('lays the seven statuses out at %i px so none sits alone on a row (%i a row)', async (width, perRow) => {
    const restore = atViewport(width);
    try {
      renderAt('/UMS/overview', <OverviewPage />);
      const grid = await screen.findByTestId('status-grid');
      expect(grid.children).toHaveLength(7);
      await waitFor(() => expect(grid.style.gridTemplateColumns).toBe(`repeat(${perRow}, minmax(0, 1fr))`));
      expect(7 % perRow === 0 || 7 % perRow > 1).toBe(true);
    } finally {
      restore();
    }
  });

  it('shows counts by status, the 14-day chart and channel health', async () => {
    renderAt('/UMS/overview', <OverviewPage />);
    const counts = (await screen.findByText('消息状态')).closest('.ant-card') as HTMLElement;
    const stat = (label: string) => within(counts).getByText(label).closest('.ant-statistic') as HTMLElement;
    expect(stat('已送达')).toHaveTextContent('12');
    expect(stat('失败')).toHaveTextContent('3');
    expect(stat('已取消')).toHaveTextContent('0');
    expect(counts).toHaveTextContent('共 16 条，4 条未读');
    expect(within(counts).getByText('4 条未读').closest('a')).toHaveAttribute('href', '/UMS/queryMessage');
    expect(screen.getByRole('img', { name: '近 14 天已送达与失败的消息数' })).toBeInTheDocument();
    const option = chartOption();
    expect(option.xAxis.data).toEqual(daily.map((d) => d.day));
    expect(option.series.map((x: { name: string }) => x.name)).toEqual(['已送达', '失败']);
    expect(option.series[0].data[13]).toBe(13);
    expect(option.series[1].data[13]).toBe(1);
    expect(
      option.tooltip.formatter([
        { axisValue: '2025-01-14', seriesName: '已送达', value: 13, marker: '' },
        { axisValue: '2025-01-14', seriesName: '失败', value: 1, marker: '' },
      ]),
    ).toBe('2025-01-14<br/>已送达 13<br/>失败 1');
    // jsdom matches no breakpoint, as a phone: every third date, counted back from today.
    const labelled = option.xAxis.data.filter((_: string, i: number) => option.xAxis.axisLabel.interval(i));
    expect(labelled).toEqual(['2025-01-02', '2025-01-05', '2025-01-08', '2025-01-11', '2025-01-14']);
    const duty = screen.getByText('值班群').closest('tr') as HTMLElement;
    expect(duty).toHaveTextContent('关键词不匹配（310000）');
    expect(duty).toHaveTextContent('限流至');
    expect(duty).toHaveTextContent('电子邮件');
    expect(duty).toHaveTextContent('暂无');
    const mine = screen.getByText('我的提醒群').closest('tr') as HTMLElement;
    expect(mine).toHaveTextContent('2025-01-02 12:05');
    expect(mine).toHaveTextContent('钉钉机器人');
    expect(mine).toHaveTextContent('96%（24/25）');
  });

  it('gives copy-paste curl commands for this portal’s own address and explains the rate limits', async () => {
    renderAt('/UMS/overview', <OverviewPage />);
    await screen.findByText('消息状态');
    const origin = window.location.origin;
    const commands = screen.getAllByTestId('curl').map((e) => e.textContent ?? '');
    expect(commands[0]).toContain(`curl "${origin}/api/ums/send?token=pt_xxx&title=`);
    expect(commands[1]).toContain('-H "Authorization: Bearer pt_xxx"');
    expect(commands[1]).toContain('-d content=');
    expect(commands[2]).toContain('"sendAt":"');
    expect(commands[2]).toContain('Content-Type: application/json');
    // Scripts written for ServerChan and PushPlus change only their base URL.
    expect(commands[4]).toContain(`curl "${origin}/pt_xxx.send?title=构建完成&desp=**全部**测试通过"`);
    expect(commands[5]).toContain(`curl "${origin}/send?token=pt_xxx&title=日报&content=完成3项&template=txt"`);
    expect(screen.getAllByLabelText('复制').length).toBeGreaterThanOrEqual(4);
    expect(screen.getByText(/Retry-After/)).toBeInTheDocument();
    expect(screen.getByText('生成 ums:send 令牌').closest('a')).toHaveAttribute(
      'href',
      '/user/tokenGen?scope=ums:send',
    );
  });

  it('points to adding a channel on /UMS/self, and back here, when there is no channel', async () => {
    answer(umsApi.stats, {
      success: true,
      data: {
        unread: 0,
        byStatus: {},
        total: 0,
        daily: daily.map((d) => ({ ...d, delivered: 0, failed: 0 })),
        channels: [],
      },
    });
    renderAt('/UMS/overview', <OverviewPage />);
    expect(await screen.findByText('还没有推送渠道，消息无处可发。')).toBeInTheDocument();
    expect(screen.getByText('去添加').closest('a')).toHaveAttribute('href', '/UMS/self?add=1&back=%2FUMS%2Foverview');
    expect(screen.getByText('近 14 天没有已送达或失败的消息')).toBeInTheDocument();
    expect(EChart).not.toHaveBeenCalled();
  });
});
