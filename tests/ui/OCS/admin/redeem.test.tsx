import RedeemAdminPage from '@/pages/OCS/OCSAdmin/redeem';
import { toBatchBody } from '@/pages/OCS/OCSAdmin/redeem/components/CreateBatchForm';
import * as ocsFreeApi from '@/contract/api/ocsFree';
import { call } from '@/services/call';
import { answer, fail, sent } from '../../api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { renderAt } from '../../helpers';
import { page } from '../fixtures';
import { batch } from './redeemFixtures';

jest.mock('@/services/call');

const fresh = batch(3, { note: '开学活动' });
const downloaded = batch(2, {
  note: '老用户回馈',
  downloadedAt: '2025-01-03T01:00:00.000Z',
  expiresAt: '2025-02-01T16:00:00.000Z',
  maxUses: 3,
  codeCount: 10,
  uses: 30,
  remainingUses: 0,
  remainingCodes: 0,
  redeemedBy: 25,
  status: 'used_up',
});
const stopped = batch(1, {
  note: '已停用的',
  disabled: true,
  status: 'disabled',
  downloadedAt: '2025-01-01T01:00:00.000Z',
});

beforeEach(() => {
  jest.clearAllMocks();
  answer(ocsFreeApi.listRedeemBatches, page([fresh, downloaded, stopped]));
  global.URL.createObjectURL = jest.fn(() => 'blob:codes');
  global.URL.revokeObjectURL = jest.fn();
});

const row = (note: string) => screen.getByText(note).closest('tr') as HTMLElement;
const bizError = (status: number, errorMessage: string, data?: object) => ({
  response: { status, data: { success: false, errorCode: 'X', errorMessage, data } },
});
const confirm = (okText: RegExp) =>
  act(async () =>
    fireEvent.click(
      within(document.querySelector('.ant-popover:not(.ant-popover-hidden)') as HTMLElement).getByRole('button', {
        name: okText,
      }),
    ),
  );

it('lists batches with uses, remaining, expiry and status; downloaded and disabled batches lose their buttons', async () => {
  renderAt('/OCS/OCSAdmin/redeem', <RedeemAdminPage />);
  await screen.findByText('开学活动');
  expect(call).toHaveBeenCalledWith(ocsFreeApi.listRedeemBatches, { query: { current: 1, pageSize: 10 } });
  expect(row('开学活动')).toHaveTextContent('永不过期');
  expect(within(row('开学活动')).getByText('可用')).toBeInTheDocument();
  expect(within(row('开学活动')).getByText('下载 CSV')).toBeInTheDocument();
  expect(within(row('开学活动')).getByRole('button', { name: /停\s*用/ })).toBeInTheDocument();

  const used = row('老用户回馈');
  expect(within(used).getByText('已用完')).toBeInTheDocument();
  expect(used).toHaveTextContent('2025-02-02 00:00'); // expiry in Beijing time
  expect(used).toHaveTextContent('已下载（2025-01-03 09:00）');
  expect(within(used).queryByText('下载 CSV')).not.toBeInTheDocument();
  const cells = [...used.querySelectorAll('td')].map((td) => td.textContent);
  expect(cells.slice(2, 9)).toEqual(['50', '10', '3', '30', '0', '0', '25']);

  expect(within(row('已停用的')).getByText('已停用')).toBeInTheDocument();
  expect(within(row('已停用的')).queryByRole('button', { name: /停\s*用/ })).not.toBeInTheDocument();
});

it('downloads the codes once, after a confirmation that says it works only once', async () => {
  renderAt('/OCS/OCSAdmin/redeem', <RedeemAdminPage />);
  await screen.findByText('开学活动');
  fireEvent.click(within(row('开学活动')).getByText('下载 CSV'));
  expect(await screen.findByText('兑换码只能下载一次')).toBeInTheDocument();
  expect(screen.getByText(/之后任何人都无法再次下载/)).toBeInTheDocument();
  expect(sent(ocsFreeApi.redeemCodesCsv)).toEqual([]);

  const blob = new Blob(['\uFEFF兑换码\r\n'], { type: 'text/csv' });
  answer(ocsFreeApi.redeemCodesCsv, blob);
  const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
  await confirm(/下\s*载/);
  expect(call).toHaveBeenCalledWith(
    ocsFreeApi.redeemCodesCsv,
    { params: { id: 3 } },
    { responseType: 'blob', skipErrorHandler: true },
  );
  expect(global.URL.createObjectURL).toHaveBeenCalledWith(blob);
  expect(click).toHaveBeenCalled();
  expect(await screen.findByText('兑换码已下载，请妥善保存')).toBeInTheDocument();
  await waitFor(() => expect(sent(ocsFreeApi.listRedeemBatches)).toHaveLength(2));
  click.mockRestore();
});

it("a second download shows the server's refusal", async () => {
  renderAt('/OCS/OCSAdmin/redeem', <RedeemAdminPage />);
  await screen.findByText('开学活动');
  fail(
    ocsFreeApi.redeemCodesCsv,
    bizError(410, '该批次的兑换码已经下载过一次，服务器不再保存兑换码明文，无法再次下载'),
  );
  fireEvent.click(within(row('开学活动')).getByText('下载 CSV'));
  await screen.findByText('兑换码只能下载一次');
  await confirm(/下\s*载/);
  expect(await screen.findByText(/已经下载过一次/)).toBeInTheDocument();
  expect(global.URL.createObjectURL).not.toHaveBeenCalled();
});

it('disables a batch after a Popconfirm', async () => {
  renderAt('/OCS/OCSAdmin/redeem', <RedeemAdminPage />);
  await screen.findByText('开学活动');
  answer(ocsFreeApi.disableRedeemBatch, { success: true, data: { ...fresh, disabled: true, status: 'disabled' } });
  fireEvent.click(within(row('开学活动')).getByRole('button', { name: /停\s*用/ }));
  expect(await screen.findByText('停用这个批次？')).toBeInTheDocument();
  await confirm(/停\s*用/);
  expect(call).toHaveBeenCalledWith(ocsFreeApi.disableRedeemBatch, { params: { id: 3 } }, { skipErrorHandler: true });
  expect(await screen.findByText('批次 #3 已停用')).toBeInTheDocument();
  await waitFor(() => expect(sent(ocsFreeApi.listRedeemBatches)).toHaveLength(2));
});

describe('create', () => {
  const modal = () => document.querySelector('.ant-modal') as HTMLElement;
  const field = (label: string) => within(modal()).getByLabelText(label);
  const submit = () => act(async () => fireEvent.click(within(modal()).getByRole('button', { name: /生\s*成/ })));

  it('sends the batch and reloads the list', async () => {
    renderAt('/OCS/OCSAdmin/redeem', <RedeemAdminPage />);
    await screen.findByText('开学活动');
    fireEvent.click(screen.getByRole('button', { name: /生成兑换码/ }));
    await screen.findByText('面值（积分）');
    answer(ocsFreeApi.createRedeemBatch, { success: true, data: batch(4, { codeCount: 20 }) });
    fireEvent.change(field('面值（积分）'), { target: { value: '50' } });
    fireEvent.change(field('数量'), { target: { value: '20' } });
    fireEvent.change(field('备注'), { target: { value: ' 期末活动 ' } });
    await submit();
    await waitFor(() => expect(sent(ocsFreeApi.createRedeemBatch)).toHaveLength(1));
    expect(call).toHaveBeenCalledWith(
      ocsFreeApi.createRedeemBatch,
      { body: { value: 50, count: 20, maxUses: 1, expiresAt: null, note: '期末活动' } },
      { skipErrorHandler: true },
    );
    expect(await screen.findByText('已生成 20 个兑换码，请在列表中下载（只能下载一次）')).toBeInTheDocument();
    await waitFor(() => expect(sent(ocsFreeApi.listRedeemBatches)).toHaveLength(2));
  });

  it("refuses a count above 10,000 before sending, and shows the server's field errors", async () => {
    renderAt('/OCS/OCSAdmin/redeem', <RedeemAdminPage />);
    await screen.findByText('开学活动');
    fireEvent.click(screen.getByRole('button', { name: /生成兑换码/ }));
    await screen.findByText('面值（积分）');
    fireEvent.change(field('面值（积分）'), { target: { value: '5' } });
    fireEvent.change(field('数量'), { target: { value: '10001' } });
    await submit();
    expect(
      await within(modal()).findByText('一批最多 10000 个', { selector: '.ant-form-item-explain-error' }),
    ).toBeInTheDocument();
    expect(sent(ocsFreeApi.createRedeemBatch)).toEqual([]);

    fireEvent.change(field('数量'), { target: { value: '10' } });
    fail(ocsFreeApi.createRedeemBatch, bizError(400, '过期时间必须晚于现在', { expiresAt: ['过期时间必须晚于现在'] }));
    await submit();
    await waitFor(() => expect(sent(ocsFreeApi.createRedeemBatch)).toHaveLength(1));
    expect(await within(modal()).findByText('过期时间必须晚于现在')).toBeInTheDocument();
  });

  it('turns the picked expiry into an ISO timestamp', () => {
    const at = dayjs('2030-06-01T12:00:00Z');
    expect(toBatchBody({ value: 1, count: 2, maxUses: 3, expiresAt: at, note: '' })).toEqual({
      value: 1,
      count: 2,
      maxUses: 3,
      expiresAt: '2030-06-01T12:00:00.000Z',
      note: '',
    });
  });
});
