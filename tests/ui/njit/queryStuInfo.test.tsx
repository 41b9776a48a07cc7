import QueryStuInfoPage from '@/pages/njit/queryStuInfo';
import * as njitApi from '@/contract/api/njit';
import { call } from '@/services/call';
import { answer, sent } from '../api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderAt } from '../helpers';
import { as } from './signedIn';
import { zhang } from './fixtures';

jest.mock('@/services/call');

jest.mock('@@/plugin-access', () => ({ useAccess: jest.fn() }));

beforeEach(() => {
  answer(njitApi.searchStudents, { success: true, data: [zhang], total: 1, current: 1, pageSize: 10, capped: false });
  answer(njitApi.getStudent, { success: true, data: { ...zhang, manualEdits: [] } });
  answer(njitApi.options, {
    success: true,
    data: { colleges: ['计算机工程学院'], majors: [], grades: [2021], approval: { fields: [], minutes: 10 } },
  });
});

async function searchByName(text: string) {
  fireEvent.change(screen.getByPlaceholderText('张三 / zhangsan / zs'), { target: { value: text } });
  await act(async () => fireEvent.click(screen.getByText(/^查\s?询$/, { selector: 'button span' })));
}

describe('student lookup page', () => {
  it('opens the student the header search picked (?student=id) through the audited detail call; closing drops it', async () => {
    as(['njit']);
    renderAt('/njit/queryStuInfo?student=7', <QueryStuInfoPage />);
    expect(await screen.findByText('张三（202101010001）')).toBeInTheDocument();
    expect(sent(njitApi.getStudent)).toEqual([{ params: { id: 7 } }]);
    fireEvent.click(document.querySelector('.ant-drawer-close')!);
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/njit\/queryStuInfo$/);
  });

  it('does not list anyone before a criterion is given, and refuses an empty search', async () => {
    as(['njit']);
    renderAt('/njit/queryStuInfo', <QueryStuInfoPage />);
    expect(await screen.findByText(/输入学号、姓名/)).toBeInTheDocument();
    await act(async () => fireEvent.click(screen.getByText(/^查\s?询$/, { selector: 'button span' })));
    expect(await screen.findByText('请至少输入一个查询条件')).toBeInTheDocument();
    expect(sent(njitApi.searchStudents)).toEqual([]);
  });

  it('says 没有找到匹配的学生 after a search that matched no one, no longer how to search', async () => {
    as(['njit']);
    answer(njitApi.searchStudents, { success: true, data: [], total: 0, current: 1, pageSize: 10, capped: false });
    renderAt('/njit/queryStuInfo', <QueryStuInfoPage />);
    expect(await screen.findByText(/输入学号、姓名/)).toBeInTheDocument();
    await searchByName('nobody');
    expect(await screen.findByText('没有找到匹配的学生')).toBeInTheDocument();
    expect(screen.queryByText(/输入学号、姓名/)).not.toBeInTheDocument();
  });

  it('searches by pinyin and shows the masked phone; no reveal for a non-admin', async () => {
    as(['njit']);
    renderAt('/njit/queryStuInfo', <QueryStuInfoPage />);
    await searchByName('zs');
    expect(await screen.findByText('138****1234')).toBeInTheDocument();
    expect(call).toHaveBeenCalledWith(njitApi.searchStudents, {
      query: expect.objectContaining({ name: 'zs', current: 1, pageSize: 10 }),
    });
    // Staff without admin get neither the import nor the audit tab.
    expect(screen.queryByText('名单导入')).not.toBeInTheDocument();
    expect(screen.queryByText('审计日志')).not.toBeInTheDocument();

    fireEvent.click(screen.getByText('详情'));
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText('东区1栋101')).toBeInTheDocument();
    expect(within(drawer).getByText('138****1234')).toBeInTheDocument();
    expect(within(drawer).getByText('3201**********123X')).toBeInTheDocument();
    expect(within(drawer).queryByText('查看完整')).not.toBeInTheDocument();
    expect(within(drawer).queryByRole('link', { name: /访问记录/ })).not.toBeInTheDocument();
    expect(call).toHaveBeenCalledWith(njitApi.getStudent, { params: { id: 7 } });
  });

  it('names the grade the same way in the table and in the drawer: 2021 级', async () => {
    as(['njit']);
    renderAt('/njit/queryStuInfo', <QueryStuInfoPage />);
    await searchByName('张三');
    const row = (await screen.findByText('138****1234')).closest('tr') as HTMLElement;
    expect(within(row).getByText('2021 级')).toBeInTheDocument();
    fireEvent.click(within(row).getByText('详情'));
    const drawer = await screen.findByRole('dialog');
    const grade = (await within(drawer).findByText('年级')).closest('tr') as HTMLElement;
    expect(grade).toHaveTextContent('年级2021 级');
  });

  it('lets an administrator reveal a field only after giving a reason', async () => {
    as(['njit', 'admin']);
    answer(njitApi.revealField, { success: true, data: { field: 'phone', value: '13812341234' } });
    renderAt('/njit/queryStuInfo', <QueryStuInfoPage />);
    expect(screen.getByText('名单导入')).toBeInTheDocument();
    await searchByName('张三');
    fireEvent.click(await screen.findByText('详情'));
    const buttons = await screen.findAllByText('查看完整');
    expect(buttons).toHaveLength(2);
    // The student's access report: the audit export of what concerned this student only.
    expect(screen.getByRole('link', { name: /访问记录/ })).toHaveAttribute(
      'href',
      '/api/njit/audit/export?studentId=7',
    );
    fireEvent.click(buttons[0]);
    expect(await screen.findByText('查看完整手机号')).toBeInTheDocument();
    await act(async () => fireEvent.click(screen.getByText('确认查看')));
    expect(await screen.findByText('请填写查看原因')).toBeInTheDocument();
    expect(sent(njitApi.revealField)).toEqual([]);

    fireEvent.change(screen.getByPlaceholderText(/核实学生联系方式/), { target: { value: '发放录取通知' } });
    await act(async () => fireEvent.click(screen.getByText('确认查看')));
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith(njitApi.revealField, {
        params: { id: 7 },
        body: { field: 'phone', reason: '发放录取通知' },
      }),
    );
    expect(await screen.findByTestId('revealed-phone')).toHaveTextContent('13812341234');
  });
});

type RevealRequest = import('@/contract').RevealRequest;

describe('four-eyes reveals', () => {
  const request: RevealRequest = {
    id: 5,
    studentId: 7,
    studentName: '张三',
    studentNo: '202101010001',
    field: 'idCard',
    reason: '办理学籍证明',
    requesterName: 'alice',
    status: 'pending',
    deciderName: null,
    decidedAt: null,
    expiresAt: null,
    createdAt: '2025-01-01T00:00:00.000Z',
  };
  const list = (data: RevealRequest[]) => ({
    success: true as const,
    data,
    total: data.length,
    current: 1,
    pageSize: 10,
  });

  it('asks for approval of a field that needs it instead of revealing it', async () => {
    as(['njit', 'admin']);
    answer(njitApi.options, {
      success: true,
      data: { colleges: [], majors: [], grades: [], approval: { fields: ['idCard'], minutes: 10 } },
    });
    answer(njitApi.requestReveal, { success: true, data: request });
    renderAt('/njit/queryStuInfo', <QueryStuInfoPage />);
    await searchByName('张三');
    fireEvent.click(await screen.findByText('详情'));
    // The phone is revealed with a reason as before; the ID number is asked for.
    expect(await screen.findByText('查看完整')).toBeInTheDocument();
    fireEvent.click(await screen.findByText('申请查看'));
    expect(await screen.findByText('申请查看完整身份证号')).toBeInTheDocument();
    expect(screen.getByText(/需另一位管理员批准；批准后 10 分钟内可查看/)).toBeInTheDocument();
    fireEvent.change(screen.getByPlaceholderText(/核实学生联系方式/), { target: { value: '办理学籍证明' } });
    await act(async () => fireEvent.click(screen.getByText('提交申请')));
    await waitFor(() =>
      expect(sent(njitApi.requestReveal)).toEqual([
        { params: { id: 7 }, body: { field: 'idCard', reason: '办理学籍证明' } },
      ]),
    );
    expect(sent(njitApi.revealField)).toEqual([]);
  });

  it('lets an administrator approve a request after confirming, and see an approved one of their own', async () => {
    as(['njit', 'admin']);
    const approved: RevealRequest = {
      ...request,
      id: 6,
      requesterName: 'staff',
      status: 'approved',
      deciderName: 'bob',
      decidedAt: new Date().toISOString(),
      expiresAt: new Date(Date.now() + 600_000).toISOString(),
    };
    answer(njitApi.listRevealRequests, async (input) =>
      list(input.query?.scope === 'pending' ? [request] : [approved]),
    );
    answer(njitApi.decideRevealRequest, { success: true, data: { ...request, status: 'approved' } });
    answer(njitApi.revealApproved, { success: true, data: { field: 'idCard', value: '32010220030101123X' } });
    renderAt('/njit/queryStuInfo', <QueryStuInfoPage />);
    fireEvent.click(screen.getByText('查看审批'));
    expect(await screen.findByText('alice')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '批准' }));
    // Nothing is decided before the confirmation.
    expect(sent(njitApi.decideRevealRequest)).toEqual([]);
    const confirm = (await screen.findByText(/批准 alice 查看 张三 的完整身份证号/)).closest(
      '.ant-popover',
    ) as HTMLElement;
    fireEvent.click(within(confirm).getByRole('button', { name: /批\s?准/ }));
    await waitFor(() =>
      expect(sent(njitApi.decideRevealRequest)).toEqual([{ params: { id: 5 }, body: { decision: 'approve' } }]),
    );

    fireEvent.click(await screen.findByRole('button', { name: '查看' }));
    expect(await screen.findByTestId('approved-value-6')).toHaveTextContent('32010220030101123X');
    expect(sent(njitApi.revealApproved)).toEqual([{ params: { id: 6 } }]);
  });
});
