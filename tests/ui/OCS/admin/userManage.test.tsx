import OcsUserManagePage from '@/pages/OCS/OCSAdmin/userManage';
import * as ocsAdminApi from '@/contract/api/ocsAdmin';
import { call } from '@/services/call';
import { answer, sent } from '../../api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderAt } from '../../helpers';
import { ledgerRow, page } from '../fixtures';

jest.mock('@/services/call');

const alice = {
  id: 2,
  username: 'alice',
  nickname: '爱丽丝',
  balance: 18,
  queriesToday: 12,
  queriesTotal: 860,
  aiSpend: 95,
  lastQueryAt: '2025-03-01T16:30:00.000Z',
};
const bob = {
  id: 3,
  username: 'bob',
  nickname: null,
  balance: 0,
  queriesToday: 0,
  queriesTotal: 0,
  aiSpend: 0,
  lastQueryAt: null,
};

beforeEach(() => {
  answer(ocsAdminApi.listUsers, page([alice, bob]));
  answer(ocsAdminApi.userLedger, page([ledgerRow(1, 'adjust', 30, 48, '补偿：AI 服务中断')]));
});

const row = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;
const lastQuery = () => sent(ocsAdminApi.listUsers).at(-1)?.query;

async function openAdjust(name: string) {
  fireEvent.click(within(row(name)).getByText('调整余额'));
  return (await screen.findByText(`调整余额：${name}`)).closest('.ant-modal') as HTMLElement;
}

describe('OCS user management', () => {
  it('lists balance, queries today and in total, AI spend and the last query', async () => {
    renderAt('/OCS/OCSAdmin/userManage', <OcsUserManagePage />);
    await screen.findByText('alice');
    expect(call).toHaveBeenCalledWith(ocsAdminApi.listUsers, {
      query: { current: 1, pageSize: 10, sortBy: 'createdAt', order: 'descend' },
    });
    const cells = [...row('alice').querySelectorAll('td')].map((td) => td.textContent);
    expect(cells).toEqual(expect.arrayContaining(['alice爱丽丝', '18', '12', '860', '95', '2025-03-02 00:30']));
    expect(row('bob')).toHaveTextContent('从未');
  });

  it('links to the other admin pages', async () => {
    renderAt('/OCS/OCSAdmin/userManage', <OcsUserManagePage />);
    for (const [label, href] of [
      ['题库管理', '/OCS/OCSAdmin/bank'],
      ['AI 模型管理', '/OCS/OCSAdmin/models'],
      ['兑换码', '/OCS/OCSAdmin/redeem'],
      ['服务设置', '/OCS/OCSAdmin/settings'],
    ]) {
      expect(screen.getByText(label).closest('a')).toHaveAttribute('href', href);
    }
  });

  it('searches by keyword and sorts by balance on the server', async () => {
    renderAt('/OCS/OCSAdmin/userManage', <OcsUserManagePage />);
    await screen.findByText('alice');
    fireEvent.change(screen.getByPlaceholderText('用户名或昵称'), { target: { value: ' ali ' } });
    jest.mocked(call).mockClear();
    await act(async () => fireEvent.click(screen.getByText('查 询', { selector: 'button span' })));
    await waitFor(() => expect(sent(ocsAdminApi.listUsers)).not.toEqual([]));
    expect(lastQuery()).toMatchObject({ keyword: 'ali' });
    jest.mocked(call).mockClear();
    await act(async () => fireEvent.click(screen.getAllByText('余额', { selector: 'th .ant-table-column-title' })[0]!));
    await waitFor(() => expect(sent(ocsAdminApi.listUsers)).not.toEqual([]));
    expect(lastQuery()).toMatchObject({ keyword: 'ali', sortBy: 'balance', order: 'ascend' });
  });

  it('adjusts a balance only with a reason, sends a deduction as a negative amount and reloads', async () => {
    answer(ocsAdminApi.adjustBalance, { success: true, data: { balance: 13, ledgerId: 9 } });
    renderAt('/OCS/OCSAdmin/userManage', <OcsUserManagePage />);
    await screen.findByText('alice');
    const dialog = await openAdjust('alice');
    expect(dialog).toHaveTextContent('当前余额：18 积分');
    fireEvent.click(within(dialog).getByText('扣减'));
    fireEvent.change(within(dialog).getByLabelText('积分'), { target: { value: '5' } });
    await act(async () => fireEvent.click(within(dialog).getByText('确认调整')));
    expect(await within(dialog).findByText('请填写调整原因')).toBeInTheDocument();
    expect(sent(ocsAdminApi.adjustBalance)).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText('原因'), { target: { value: ' 误充回收 ' } });
    jest.mocked(call).mockClear();
    await act(async () => fireEvent.click(within(dialog).getByText('确认调整')));
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith(ocsAdminApi.adjustBalance, {
        params: { id: 2 },
        body: { amount: -5, reason: '误充回收' },
      }),
    );
    await waitFor(() => expect(sent(ocsAdminApi.listUsers)).not.toEqual([]));
  });

  it('will not send a deduction larger than the balance', async () => {
    renderAt('/OCS/OCSAdmin/userManage', <OcsUserManagePage />);
    await screen.findByText('alice');
    const dialog = await openAdjust('alice');
    fireEvent.click(within(dialog).getByText('扣减'));
    fireEvent.change(within(dialog).getByLabelText('积分'), { target: { value: '19' } });
    fireEvent.change(within(dialog).getByLabelText('原因'), { target: { value: '扣减' } });
    await act(async () => fireEvent.click(within(dialog).getByText('确认调整')));
    expect(await within(dialog).findByText('最多可扣减 18 积分')).toBeInTheDocument();
    expect(sent(ocsAdminApi.adjustBalance)).toEqual([]);
  });

  it('shows a user’s recent bills', async () => {
    renderAt('/OCS/OCSAdmin/userManage', <OcsUserManagePage />);
    await screen.findByText('alice');
    fireEvent.click(within(row('alice')).getByText('明细'));
    expect(await screen.findByText('积分明细：alice')).toBeInTheDocument();
    const bill = (await screen.findByText('补偿：AI 服务中断')).closest('tr') as HTMLElement;
    expect(bill).toHaveTextContent('管理员调整');
    expect(bill).toHaveTextContent('+30');
    expect(call).toHaveBeenCalledWith(ocsAdminApi.userLedger, {
      params: { id: 2 },
      query: { current: 1, pageSize: 10 },
    });
  });
});
