import BillPage from '@/pages/OCS/bill';
import { ledgerCsvUrl } from '@/services/ledger';
import * as ocsApi from '@/contract/api/ocs';
import { call } from '@/services/call';
import { answer, sent } from '../api';
import * as ocsReviewApi from '@/contract/api/ocsReview';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderAt } from '../helpers';
import { ledgerRow, page, query } from './fixtures';

jest.mock('@/services/call');

const rows = [
  ledgerRow(4, 'charge', -1, 127, '中华人民共和国的首都是哪座城市？'),
  ledgerRow(3, 'free', 10, 128, '每日免费领取'),
  ledgerRow(2, 'redeem', 100, 118, '兑换码 OCS-8F2K-Q7WM'),
  ledgerRow(1, 'adjust', 18, 18, '管理员补偿'),
];

beforeEach(() => {
  jest.clearAllMocks();
  answer(ocsApi.listLedger, page(rows, 42));
  answer(ocsApi.wallet, { success: true, data: { balance: 127, price: 1 } });
});

const row = (memo: string) => screen.getByText(memo).closest('tr') as HTMLElement;
const exportLink = () => screen.getByText('导出 CSV').closest('a') as HTMLAnchorElement;

describe('OCS bill: reporting a charged answer', () => {
  it('a charge row opens the report dialog for its query; other rows have nothing to report', async () => {
    answer(ocsReviewApi.reportContext, {
      success: true,
      data: {
        query: query(104, 'bank', '中华人民共和国的首都是哪座城市？'),
        question: {
          title: '中华人民共和国的首都是哪座城市？',
          type: 'single',
          options: ['上海', '北京'],
          answer: ['北京'],
        },
        report: null,
        refusal: null,
      },
    });
    answer(ocsReviewApi.createReport, {
      success: true,
      data: {
        id: 1,
        queryId: 104,
        status: 'open',
        proposed: ['上海'],
        reason: '',
        refunded: 0,
        resolution: null,
        createdAt: '2025-01-02T04:05:00.000Z',
        resolvedAt: null,
      },
    });
    renderAt('/OCS/bill', <BillPage />);
    await screen.findByText('每日免费领取');
    expect(within(row('每日免费领取')).queryByText('答案有误')).not.toBeInTheDocument();
    fireEvent.click(within(row('中华人民共和国的首都是哪座城市？')).getByText('答案有误'));
    const dialog = (await screen.findByText('反馈答案有误')).closest('.ant-modal') as HTMLElement;
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith(
        ocsReviewApi.reportContext,
        { params: { id: 104 } },
        { skipErrorHandler: true },
      ),
    );
    fireEvent.click(await within(dialog).findByLabelText('A. 上海'));
    await act(async () => fireEvent.click(within(dialog).getByText('提交反馈')));
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith(
        ocsReviewApi.createReport,
        { body: { queryId: 104, proposed: '上海' } },
        { skipErrorHandler: true },
      ),
    );
  });
});

describe('OCS bill', () => {
  it('shows the balance and each row with its kind, signed amount and balance after', async () => {
    renderAt('/OCS/bill', <BillPage />);
    await screen.findByText('每日免费领取');
    expect(sent(ocsApi.listLedger)).toContainEqual({ query: expect.objectContaining({ current: 1, pageSize: 10 }) });
    expect(screen.getByText('当前余额').closest('.ant-statistic')).toHaveTextContent('127积分');
    const charge = row('中华人民共和国的首都是哪座城市？');
    expect(within(charge).getByText('扣费')).toBeInTheDocument();
    expect(within(charge).getByText('−1')).toHaveStyle({ color: '#cf1322' });
    expect(charge).toHaveTextContent('127');
    expect(within(row('每日免费领取')).getByText('免费领取')).toBeInTheDocument();
    expect(within(row('每日免费领取')).getByText('+10')).toHaveStyle({ color: '#389e0d' });
    expect(within(row('兑换码 OCS-8F2K-Q7WM')).getByText('兑换码')).toBeInTheDocument();
    expect(screen.getByText('共 42 条', { exact: false })).toBeInTheDocument();
    expect(exportLink()).toHaveAttribute('href', '/api/ocs/ledger.csv');
  });

  it('filters by several kinds and a date range, and exports the same filter', async () => {
    renderAt('/OCS/bill', <BillPage />);
    await screen.findByText('每日免费领取');
    jest.mocked(call).mockClear();
    const kindSelect = screen.getByText('全部类型').closest('.ant-select-selector') as HTMLElement;
    fireEvent.mouseDown(kindSelect);
    fireEvent.click(await screen.findByText('扣费', { selector: '.ant-select-item-option-content' }));
    fireEvent.click(screen.getByText('免费领取', { selector: '.ant-select-item-option-content' }));
    const [start, end] = [screen.getByPlaceholderText('开始日期'), screen.getByPlaceholderText('结束日期')];
    // Typed dates, as a user may; Enter confirms each end of the range.
    for (const [input, value] of [
      [start, '2025-01-01'],
      [end, '2025-01-31'],
    ] as const) {
      fireEvent.mouseDown(input);
      fireEvent.focus(input);
      fireEvent.change(input, { target: { value } });
      fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
    }
    fireEvent.blur(end);
    await act(async () => fireEvent.click(screen.getByText('查 询', { selector: 'button span' })));
    await waitFor(() =>
      expect(sent(ocsApi.listLedger).at(-1)).toEqual({
        query: expect.objectContaining({ current: 1, kind: ['charge', 'free'], from: '2025-01-01', to: '2025-01-31' }),
      }),
    );
    await waitFor(() =>
      expect(exportLink()).toHaveAttribute(
        'href',
        '/api/ocs/ledger.csv?kind=charge&kind=free&from=2025-01-01&to=2025-01-31',
      ),
    );
  });

  it('says so when no row matches', async () => {
    answer(ocsApi.listLedger, page([]));
    renderAt('/OCS/bill', <BillPage />);
    expect(await screen.findByText('没有符合条件的账单')).toBeInTheDocument();
    expect(screen.getByText('领取每日免费积分').closest('a')).toHaveAttribute('href', '/OCS/freeChange');
  });
});

describe('ledger CSV address', () => {
  it('repeats kind and leaves unset filters out', () => {
    expect(ledgerCsvUrl({ kind: ['charge', 'refund'], to: '2025-02-01' })).toBe(
      '/api/ocs/ledger.csv?kind=charge&kind=refund&to=2025-02-01',
    );
    expect(ledgerCsvUrl({ kind: [], from: '' })).toBe('/api/ocs/ledger.csv');
  });
});
