/** While a page's chunk loads (src/loading.tsx): progress at once, 加载较慢 with 重试 after a while. */
import Loading from '@/loading';
import RouteLoading, { SLOW_AFTER_MS } from '@/components/RouteLoading';
import { act, fireEvent, render, screen } from '@testing-library/react';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

it('is the route loading component Umi renders', () => {
  expect(Loading).toBe(RouteLoading);
});

it('shows progress at once and says 加载较慢 with 重试 after 8 s', () => {
  const onRetry = jest.fn();
  render(<RouteLoading onRetry={onRetry} />);
  expect(screen.getByRole('progressbar', { name: '页面加载中' })).toBeInTheDocument();
  expect(screen.getByRole('status')).toBeEmptyDOMElement(); // the live region is there, silent
  expect(SLOW_AFTER_MS).toBe(8000);
  act(() => jest.advanceTimersByTime(SLOW_AFTER_MS - 1));
  expect(screen.queryByText(/加载较慢/)).not.toBeInTheDocument();
  act(() => jest.advanceTimersByTime(1));
  expect(screen.getByRole('status')).toHaveTextContent('加载较慢');
  expect(screen.getByRole('progressbar')).toBeInTheDocument(); // still loading
  fireEvent.click(screen.getByRole('button', { name: '重试' }));
  expect(onRetry).toHaveBeenCalledTimes(1);
});

it('stops its timer when the page has come', () => {
  const { unmount } = render(<RouteLoading />);
  unmount();
  expect(jest.getTimerCount()).toBe(0);
});
