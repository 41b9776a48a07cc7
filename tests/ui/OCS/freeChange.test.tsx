import FreeChangePage from '@/pages/OCS/freeChange';
import * as ocsApi from '@/contract/api/ocs';
import * as ocsFreeApi from '@/contract/api/ocsFree';
import { call } from '@/services/call';
import { answer, callsOf, fail, sent } from '../api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderAt } from '../helpers';
import { ledgerRow, page } from './fixtures';

jest.mock('@/services/call');

const HOUR = 3_600_000;
function status(over: object = {}) {
  const now = Date.now();
  return {
    success: true as const,
    data: {
      amount: 10,
      enabled: true,
      claimedToday: false,
      claimedAmount: null,
      balance: 120,
      nextClaimAt: new Date(now + 3 * HOUR).toISOString(),
      serverTime: new Date(now).toISOString(),
      ...over,
    },
  };
}
const bizError = (status: number, errorMessage: string) => ({
  response: { status, data: { success: false, errorCode: 'X', errorMessage } },
});

beforeEach(() => {
  jest.clearAllMocks();
  answer(ocsFreeApi.freeStatus, status());
  answer(
    ocsApi.listLedger,
    page([
      ledgerRow(2, 'redeem', 50, 120, '兑换码：开学活动'),
      ledgerRow(1, 'free', 10, 70, '每日免费领取（2025-01-02）'),
    ]),
  );
});

const claimButton = () => screen.getByRole('button', { name: /领取|已领取/ });
const card = (title: string) =>
  screen.getByText(title, { selector: '.ant-card-head-title' }).closest('.ant-card') as HTMLElement;

describe('daily claim', () => {
  it('shows the amount and balance, claims once, then disables the button and counts down to the next opening', async () => {
    renderAt('/OCS/freeChange', <FreeChangePage />);
    await screen.findByText('领取 10 积分');
    expect(card('每日免费领取')).toHaveTextContent('每日可领10积分');
    expect(card('每日免费领取')).toHaveTextContent('当前余额120积分');
    expect(claimButton()).toBeEnabled();

    answer(ocsFreeApi.claimFree, {
      success: true,
      data: { amount: 10, balance: 130, nextClaimAt: status().data.nextClaimAt },
    });
    answer(ocsFreeApi.freeStatus, status({ claimedToday: true, claimedAmount: 10, balance: 130 }));
    await act(async () => fireEvent.click(claimButton()));
    expect(sent(ocsFreeApi.claimFree)).toHaveLength(1);
    expect(await screen.findByText('领取成功，获得 10 积分')).toBeInTheDocument();
    expect(await screen.findByText('今日已领取 10 积分')).toBeInTheDocument();
    expect(claimButton()).toBeDisabled();
    expect(card('每日免费领取')).toHaveTextContent('当前余额130积分');
    expect(within(card('每日免费领取')).getByText('距下次领取')).toBeInTheDocument();
    expect(card('每日免费领取')).toHaveTextContent(/0[23]:[0-5]\d:[0-5]\d/);
    // The recent rows are fetched again after the claim.
    await waitFor(() => expect(sent(ocsApi.listLedger)).toHaveLength(2));
  });

  it('counts down on the server clock, not the browser clock', async () => {
    // The browser runs an hour ahead of the server; the next opening is 2 server-hours away.
    const serverNow = Date.now() - HOUR;
    answer(
      ocsFreeApi.freeStatus,
      status({
        claimedToday: true,
        claimedAmount: 10,
        serverTime: new Date(serverNow).toISOString(),
        nextClaimAt: new Date(serverNow + 2 * HOUR).toISOString(),
      }),
    );
    renderAt('/OCS/freeChange', <FreeChangePage />);
    await screen.findByText('距下次领取');
    // The timer shows 「-」 until its first tick, which a loaded machine may delay.
    await waitFor(() => expect(card('每日免费领取')).toHaveTextContent(/0[12]:[0-5]\d:[0-5]\d/));
    expect(card('每日免费领取')).not.toHaveTextContent(/00:[0-5]\d:[0-5]\d/);
  });

  it('a refused claim says why and refreshes the status', async () => {
    renderAt('/OCS/freeChange', <FreeChangePage />);
    await screen.findByText('领取 10 积分');
    fail(ocsFreeApi.claimFree, bizError(409, '今天已经领取过了，明天再来吧'));
    await act(async () => fireEvent.click(claimButton()));
    expect(await screen.findByText('今天已经领取过了，明天再来吧')).toBeInTheDocument();
    expect(sent(ocsFreeApi.freeStatus)).toHaveLength(2);
  });

  it('says when the administrator switched claiming off', async () => {
    answer(ocsFreeApi.freeStatus, status({ amount: 0, enabled: false }));
    renderAt('/OCS/freeChange', <FreeChangePage />);
    expect(await screen.findByText('管理员已关闭每日免费领取')).toBeInTheDocument();
    expect(claimButton()).toBeDisabled();
  });
});

describe('redeem form', () => {
  const input = () => screen.getByPlaceholderText('XXXX-XXXX-XXXX-XXXX-XXXX');
  const submit = () => act(async () => fireEvent.click(screen.getByRole('button', { name: '兑 换' })));

  it('redeems, shows what it was worth, clears the field and refreshes the balance and rows', async () => {
    renderAt('/OCS/freeChange', <FreeChangePage />);
    await screen.findByText('领取 10 积分');
    answer(ocsFreeApi.redeem, { success: true, data: { amount: 50, balance: 170, note: '开学活动' } });
    fireEvent.change(input(), { target: { value: 'abcd-efgh-jkmn-pqrs-tvwx' } });
    await submit();
    expect(call).toHaveBeenCalledWith(
      ocsFreeApi.redeem,
      { body: { code: 'abcd-efgh-jkmn-pqrs-tvwx' } },
      { skipErrorHandler: true },
    );
    expect(await screen.findByText('兑换成功，获得 50 积分（开学活动），当前余额 170 积分')).toBeInTheDocument();
    await waitFor(() => expect(input()).toHaveValue(''));
    expect(sent(ocsFreeApi.freeStatus)).toHaveLength(2);
    await waitFor(() => expect(sent(ocsApi.listLedger)).toHaveLength(2));
  });

  it("shows the server's refusal (here the wrong-code limit) on the field", async () => {
    renderAt('/OCS/freeChange', <FreeChangePage />);
    await screen.findByText('领取 10 积分');
    fail(ocsFreeApi.redeem, bizError(429, '兑换码输错次数过多，请 42 秒后再试'));
    fireEvent.change(input(), { target: { value: 'WRONG' } });
    await submit();
    expect(await screen.findByText('兑换码输错次数过多，请 42 秒后再试')).toBeInTheDocument();
    expect(input()).toHaveValue('WRONG');
  });

  it('an empty code never reaches the server', async () => {
    renderAt('/OCS/freeChange', <FreeChangePage />);
    await screen.findByText('领取 10 积分');
    await submit();
    expect(await screen.findByText('请输入兑换码')).toBeInTheDocument();
    expect(sent(ocsFreeApi.redeem)).toEqual([]);
  });
});

it('lists the latest claims and redemptions from the ledger', async () => {
  renderAt('/OCS/freeChange', <FreeChangePage />);
  const row = (await screen.findByText('兑换码：开学活动')).closest('tr') as HTMLElement;
  expect(callsOf(ocsApi.listLedger)).toContainEqual([
    { query: { kind: ['free', 'redeem'], current: 1, pageSize: 10 } },
    expect.objectContaining({ skipErrorHandler: true }),
  ]);
  expect(within(row).getByText('兑换码')).toBeInTheDocument();
  expect(row).toHaveTextContent('+50');
  expect(row).toHaveTextContent('2025-01-02 12:05');
  expect(screen.getByText('每日免费领取（2025-01-02）').closest('tr')).toHaveTextContent('免费领取');
  expect(screen.getByText('全部账单').closest('a')).toHaveAttribute('href', '/OCS/bill');
});
