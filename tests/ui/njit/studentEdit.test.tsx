import QueryStuInfoPage from '@/pages/njit/queryStuInfo';
import * as njitApi from '@/contract/api/njit';
import { answer, sent } from '../api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderAt } from '../helpers';
import { as } from './signedIn';
import { zhang } from './fixtures';

jest.mock('@/services/call');

jest.mock('@@/plugin-access', () => ({ useAccess: jest.fn() }));

beforeEach(() => {
  answer(njitApi.getStudent, { success: true, data: { ...zhang, manualEdits: [] } });
  answer(njitApi.options, {
    success: true,
    data: { colleges: ['计算机工程学院'], majors: [], grades: [2021], approval: { fields: [], minutes: 10 } },
  });
});

async function openEdit() {
  as(['njit', 'admin']);
  renderAt('/njit/queryStuInfo?student=7', <QueryStuInfoPage />);
  await screen.findByText('张三（202101010001）');
  await act(async () => fireEvent.click(screen.getByRole('button', { name: /编\s?辑/ })));
  return (await screen.findByText('编辑 张三（202101010001）')).closest('.ant-modal') as HTMLElement;
}

describe('correcting a student record', () => {
  it('is not offered to a caller without admin', async () => {
    as(['njit']);
    renderAt('/njit/queryStuInfo?student=7', <QueryStuInfoPage />);
    await screen.findByText('张三（202101010001）');
    expect(screen.queryByRole('button', { name: /编\s?辑/ })).toBeNull();
  });

  it('sends only the changed fields after a confirmation, then marks them as corrected by hand', async () => {
    answer(njitApi.editStudent, {
      success: true,
      data: {
        ...zhang,
        college: '信息工程学院',
        phone: '139****2222',
        manualEdits: [
          { field: 'college', userName: 'admin', editedAt: '2025-01-02T00:00:00.000Z' },
          { field: 'phone', userName: 'admin', editedAt: '2025-01-02T00:00:00.000Z' },
        ],
      },
    });
    const dialog = await openEdit();
    // The masked phone is not a value to edit: its box starts empty and says what is stored.
    expect(within(dialog).getByLabelText('手机号')).toHaveValue('');
    expect(within(dialog).getByText('当前：138****1234。留空表示不修改。')).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText('学院'), { target: { value: '信息工程学院' } });
    fireEvent.change(within(dialog).getByLabelText('手机号'), { target: { value: '13900002222' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: /保\s?存/ })));
    const confirm = await screen.findByRole('button', { name: '确认修改' });
    expect(screen.getAllByText('确认修改 张三 的信息？').length).toBeGreaterThan(0);
    expect(screen.getByText(/将修改：学院、手机号/)).toBeInTheDocument();
    expect(sent(njitApi.editStudent)).toEqual([]);
    await act(async () => fireEvent.click(confirm));
    await waitFor(() =>
      expect(sent(njitApi.editStudent)).toEqual([
        { params: { id: 7 }, body: { college: '信息工程学院', phone: '13900002222' } },
      ]),
    );
    expect(await screen.findAllByText('手动修改')).toHaveLength(2);
    expect(screen.getByText('信息工程学院')).toBeInTheDocument();
  });

  it('refuses a wrong phone in Chinese without calling the server', async () => {
    const dialog = await openEdit();
    fireEvent.change(within(dialog).getByLabelText('手机号'), { target: { value: '12345' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: /保\s?存/ })));
    expect(await within(dialog).findByText('手机号格式不正确（应为 11 位，以 1 开头）')).toBeInTheDocument();
    expect(screen.queryByText('确认修改 张三 的信息？')).toBeNull();
    expect(sent(njitApi.editStudent)).toEqual([]);
  });

  it('says so when nothing changed', async () => {
    const dialog = await openEdit();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: /保\s?存/ })));
    expect(await screen.findByText('没有要修改的内容')).toBeInTheDocument();
    expect(sent(njitApi.editStudent)).toEqual([]);
  });
});
