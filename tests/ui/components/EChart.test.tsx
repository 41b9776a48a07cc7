import EChart from '@/components/charts/EChart';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';

// ECharts itself is not run in jsdom (no canvas, no layout): these check the component's part of the
// contract (load on mount, init in its box, setOption on change, resize with the box, dispose) and
// that the chart module registers only the parts the portal draws with.
const mockChart = { setOption: jest.fn(), resize: jest.fn(), dispose: jest.fn() };
const mockLoad = { failures: 0 };
jest.mock('@/components/charts/echarts', () => {
  if (mockLoad.failures > 0) {
    mockLoad.failures--;
    throw new Error('Loading chunk echarts failed.');
  }
  return { init: jest.fn(() => mockChart) };
});

const observers: { callback: () => void; observed: Element[]; disconnected: boolean }[] = [];
class FakeResizeObserver {
  entry = { callback: () => {}, observed: [] as Element[], disconnected: false };
  constructor(callback: () => void) {
    this.entry.callback = callback;
    observers.push(this.entry);
  }
  observe(el: Element) {
    this.entry.observed.push(el);
  }
  disconnect() {
    this.entry.disconnected = true;
  }
}

beforeAll(() => {
  (window as unknown as { ResizeObserver: unknown }).ResizeObserver = FakeResizeObserver;
});
beforeEach(() => {
  jest.clearAllMocks();
  observers.length = 0;
});

const a = { series: [{ type: 'bar' as const, data: [1, 2] }] };
const b = { series: [{ type: 'bar' as const, data: [3] }] };

// First: the chart module is required (and fails) on the first load, and a failure is not cached.
test('a failed download offers 重试, which loads it again', async () => {
  mockLoad.failures = 1;
  render(<EChart option={a} ariaLabel="测试图表" />);
  expect(await screen.findByText('图表加载失败，可能是网络不稳定。')).toBeInTheDocument();
  await act(async () => fireEvent.click(screen.getByText('重 试', { selector: 'button span' })));
  await waitFor(() => expect(screen.queryByText('图表加载失败，可能是网络不稳定。')).not.toBeInTheDocument());
  const { init } = jest.requireMock('@/components/charts/echarts');
  await waitFor(() => expect(init).toHaveBeenCalledTimes(1));
});

test('loads ECharts, draws in its box, follows the option and the box, and disposes on unmount', async () => {
  const { rerender, unmount } = render(<EChart option={a} ariaLabel="测试图表" height={200} />);
  const box = screen.getByRole('img', { name: '测试图表' });
  expect(box).toHaveStyle({ height: '200px', width: '100%' });
  const { init } = jest.requireMock('@/components/charts/echarts');
  await waitFor(() => expect(init).toHaveBeenCalledTimes(1));
  expect(init).toHaveBeenCalledWith(box, undefined, { renderer: 'svg' });
  expect(mockChart.setOption).toHaveBeenLastCalledWith(a, { notMerge: true });

  rerender(<EChart option={a} ariaLabel="测试图表" height={200} />);
  expect(mockChart.setOption).toHaveBeenCalledTimes(1);
  rerender(<EChart option={b} ariaLabel="测试图表" height={200} />);
  expect(mockChart.setOption).toHaveBeenCalledTimes(2);
  expect(mockChart.setOption).toHaveBeenLastCalledWith(b, { notMerge: true });

  expect(observers).toHaveLength(1);
  expect(observers[0].observed).toEqual([box]);
  observers[0].callback();
  expect(mockChart.resize).toHaveBeenCalledTimes(1);

  unmount();
  expect(mockChart.dispose).toHaveBeenCalledTimes(1);
  expect(observers[0].disconnected).toBe(true);
  expect(init).toHaveBeenCalledTimes(1);
});

test('an option given while ECharts loads is the one drawn', async () => {
  const { rerender } = render(<EChart option={a} ariaLabel="测试图表" />);
  rerender(<EChart option={b} ariaLabel="测试图表" />);
  await waitFor(() => expect(mockChart.setOption).toHaveBeenCalled());
  expect(mockChart.setOption).toHaveBeenLastCalledWith(b, { notMerge: true });
});
