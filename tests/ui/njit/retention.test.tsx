import * as njitApi from '@/contract/api/njit';
import QueryStuInfoPage from '@/pages/njit/queryStuInfo';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import { answer, sent } from '../api';
import { renderAt } from '../helpers';
import { as } from './signedIn';

jest.mock('@/services/call');
jest.mock('@@/plugin-access', () => ({ useAccess: jest.fn() }));

type PurgeCandidate = import('@/contract').PurgeCandidate;
type RetentionPreview = import('@/contract').RetentionPreview;

const CUTOFF = '2023-12-05T21:00:00.000Z';
const qian: PurgeCandidate = {
  id: 31,
  studentNo: '201901010001',
  name: '钱七',
  status: '毕业',
  college: '计算机工程学院',
  className: '软件191',
  leftAt: '2023-06-30T02:00:00.000Z',
  dueAt: '2024-06-29T02:00:00.000Z',
};
const sun: PurgeCandidate = { ...qian, id: 32, studentNo: '201901010002', name: '孙八', status: '退学' };

function preview(data: PurgeCandidate[], extra: Partial<RetentionPreview> = {}): RetentionPreview {
  return {
    success: true,
    data,
    total: data.length,
    current: 1,
    pageSize: 10,
    retentionDays: 365,
    cutoff: CUTOFF,
    dueCount: data.length,
    ...extra,
  };
}

async function openTab() {
  renderAt('/njit/queryStuInfo', <QueryStuInfoPage />);
  await act(async () => fireEvent.click(screen.getByText('到期清除')));
}

describe('purging students past retention', () => {
  it('is a tab for administrators only', () => {
    as(['njit']);
    renderAt('/njit/queryStuInfo', <QueryStuInfoPage />);
    expect(screen.queryByText('到期清除')).not.toBeInTheDocument();
  });

  it('lists who is due with the day they left, and purges the preview’s cutoff only after confirming', async () => {
    as(['njit', 'admin']);
    answer(njitApi.retentionPreview, preview([qian, sun]));
    answer(njitApi.purgeStudents, { success: true, data: { purged: 2, cutoff: CUTOFF } });
    await openTab();
    expect(await screen.findByText('钱七')).toBeInTheDocument();
    expect(screen.getByText('孙八')).toBeInTheDocument();
    expect(screen.getByText(/满 365 天的学生记录每天自动清除，当前已到期 2 人/)).toBeInTheDocument();
    expect(screen.getAllByText('2023-06-30 10:00')).toHaveLength(2);
    expect(screen.getAllByText('已到期')).not.toHaveLength(0);
    expect(sent(njitApi.retentionPreview)).toEqual([{ query: { current: 1, pageSize: 10, withinDays: 0 } }]);

    const button = screen.getByRole('button', { name: /立即清除（2 人）/ });
    button.focus();
    expect(document.activeElement).toBe(button);
    fireEvent.click(button);
    const confirm = (await screen.findByText('确认清除已到期的 2 名学生的全部记录？')).closest(
      '.ant-popover',
    ) as HTMLElement;
    // Nothing is erased before the confirmation.
    expect(sent(njitApi.purgeStudents)).toEqual([]);
    answer(njitApi.retentionPreview, preview([]));
    await act(async () => fireEvent.click(within(confirm).getByRole('button', { name: '确认清除' })));
    await waitFor(() => expect(sent(njitApi.purgeStudents)).toEqual([{ body: { cutoff: CUTOFF } }]));
    expect(await screen.findByText('已清除 2 名学生的记录')).toBeInTheDocument();
    // The list is read again: nobody is due any more, and the button says so.
    expect(await screen.findByText('没有已到期的学生记录')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /立即清除（0 人）/ })).toBeDisabled();
  });

  it('says so when another purge got there first', async () => {
    as(['njit', 'admin']);
    answer(njitApi.retentionPreview, preview([qian]));
    answer(njitApi.purgeStudents, { success: true, data: { purged: 0, cutoff: CUTOFF } });
    await openTab();
    fireEvent.click(await screen.findByRole('button', { name: /立即清除（1 人）/ }));
    const confirm = (await screen.findByText(/确认清除已到期的 1 名/)).closest('.ant-popover') as HTMLElement;
    await act(async () => fireEvent.click(within(confirm).getByRole('button', { name: '确认清除' })));
    expect(await screen.findByText(/没有需要清除的记录：可能已被其他管理员或定时任务清除/)).toBeInTheDocument();
  });

  it('shows who falls due in the next 30 days on request, without more to purge', async () => {
    as(['njit', 'admin']);
    answer(njitApi.retentionPreview, async (input) =>
      input.query?.withinDays === 30
        ? preview([qian, { ...sun, leftAt: '2024-01-01T00:00:00.000Z', dueAt: '2024-12-31T00:00:00.000Z' }], {
            dueCount: 1,
          })
        : preview([qian]),
    );
    await openTab();
    expect(await screen.findByText('钱七')).toBeInTheDocument();
    await act(async () => fireEvent.click(screen.getByText('含 30 天内到期')));
    expect(await screen.findByText('孙八')).toBeInTheDocument();
    expect(screen.getByText('未到期')).toBeInTheDocument();
    expect(sent(njitApi.retentionPreview).at(-1)).toEqual({ query: { current: 1, pageSize: 10, withinDays: 30 } });
    expect(screen.getByRole('button', { name: /立即清除（1 人）/ })).toBeEnabled();
  });

  it('explains that nothing is purged while no retention is set', async () => {
    as(['njit', 'admin']);
    answer(njitApi.retentionPreview, preview([], { retentionDays: 0, cutoff: null }));
    await openTab();
    expect(await screen.findByText('未启用学生记录保留期限')).toBeInTheDocument();
    expect(screen.getByText('没有已到期的学生记录')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /立即清除（0 人）/ })).toBeDisabled();
  });

  it('has no axe violations (icons hidden, controls named)', async () => {
    as(['njit', 'admin']);
    answer(njitApi.retentionPreview, preview([qian]));
    await openTab();
    await screen.findByText('钱七');
    const panel = screen.getByText('到期待清除的学生').closest('.ant-pro-table') as HTMLElement;
    const result = await axe.run(panel, { rules: { 'color-contrast': { enabled: false } } });
    expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`)).toEqual([]);
    // Every icon the tab draws is hidden from screen readers or named in Chinese (antd's default labels
    // are English). The pager's arrows sit in controls antd names itself (上一页…). Only the tab's own:
    // a toast an earlier test raised may still be fading out of the document.
    const tab = (panel.closest('.ant-tabs-tabpane') as HTMLElement | null) ?? panel;
    const unnamed = [...tab.querySelectorAll('.anticon')].filter(
      (i) =>
        !i.closest('.ant-pagination, .ant-tabs-nav-operations') &&
        i.getAttribute('aria-hidden') !== 'true' &&
        !/[\u4e00-\u9fff]/.test(i.getAttribute('aria-label') ?? ''),
    );
    expect(unnamed.map((i) => i.outerHTML.slice(0, 80))).toEqual([]);
  });

  it('shows a field the caller’s policy hides as 无权查看 and a masked one as sent', async () => {
    as(['njit', 'admin']);
    const { name: _name, status: _status, ...rest } = qian;
    answer(njitApi.retentionPreview, preview([{ ...rest, studentNo: '201*********', college: '计******' }]));
    await openTab();
    expect(await screen.findByText('201*********')).toBeInTheDocument();
    const row = screen.getByText('201*********').closest('tr') as HTMLElement;
    expect(within(row).getAllByText('无权查看')).toHaveLength(2);
    expect(within(row).getByText('计******')).toBeInTheDocument();
    expect(screen.queryByText('钱七')).not.toBeInTheDocument();
  });
});
