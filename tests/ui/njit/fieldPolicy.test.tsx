import { DEFAULT_FIELD_LEVELS, NJIT_ROLES } from '@/contract';
import * as njitApi from '@/contract/api/njit';
import * as policyApi from '@/contract/api/njitPolicy';
import FieldPolicyPage from '@/pages/njit/fieldPolicy';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import { answer, sent } from '../api';
import { renderAt } from '../helpers';

jest.mock('@/services/call');

type RoleFieldPolicy = import('@/contract').RoleFieldPolicy;

const roles: RoleFieldPolicy[] = NJIT_ROLES.map((role) => ({ role, fields: { ...DEFAULT_FIELD_LEVELS } }));

beforeEach(() => {
  answer(policyApi.getFieldPolicy, { success: true, data: { roles } });
  answer(policyApi.setFieldPolicy, { success: true, data: { roles } });
  answer(policyApi.listUserScopes, {
    success: true,
    data: [
      {
        userId: 7,
        username: 'wang',
        nickname: '王老师',
        roles: ['njit_counselor'],
        colleges: [],
        classes: ['软件211'],
      },
    ],
  });
  answer(policyApi.setUserScope, {
    success: true,
    data: { userId: 7, username: 'wang', nickname: '王老师', roles: ['njit_counselor'], colleges: [], classes: [] },
  });
  answer(njitApi.options, {
    success: true,
    data: { colleges: ['计算机工程学院'], majors: [], grades: [], approval: { fields: [], minutes: 10 } },
  });
});

async function pick(label: string, option: string) {
  const select = screen.getByRole('combobox', { name: label }).closest('.ant-select') as HTMLElement;
  fireEvent.mouseDown(select.querySelector('.ant-select-selector') as HTMLElement);
  const options = await screen.findAllByTitle(option);
  const visible = options.filter((o) => o.classList.contains('ant-select-item-option'));
  fireEvent.click(visible[visible.length - 1]);
}

describe('the field policy page', () => {
  it('shows the grid, and saves a change only after confirming', async () => {
    renderAt('/njit/fieldPolicy', <FieldPolicyPage />);
    expect(await screen.findByRole('combobox', { name: 'NJIT：姓名' })).toBeInTheDocument();
    const save = screen.getByRole('button', { name: '保存字段策略' });
    expect(save).toBeDisabled();

    await pick('NJIT：姓名', '隐藏');
    await waitFor(() => expect(save).toBeEnabled());
    await act(async () => fireEvent.click(save));
    expect(sent(policyApi.setFieldPolicy)).toEqual([]);
    const confirm = (await screen.findByText('保存字段策略？')).closest('.ant-popover') as HTMLElement;
    await act(async () => fireEvent.click(within(confirm).getByRole('button', { name: /^保\s?存$/ })));
    await waitFor(() => expect(sent(policyApi.setFieldPolicy)).toHaveLength(1));
    const body = sent(policyApi.setFieldPolicy)[0].body!;
    expect(body.roles.find((r) => r.role === 'njit')!.fields.name).toBe('hidden');
    expect(body.roles.find((r) => r.role === 'njit_teacher')!.fields.name).toBe('full');
  });

  it('does not offer a mask for a field that cannot be masked', async () => {
    renderAt('/njit/fieldPolicy', <FieldPolicyPage />);
    const select = (await screen.findByRole('combobox', { name: 'NJIT：年级' })).closest('.ant-select') as HTMLElement;
    fireEvent.mouseDown(select.querySelector('.ant-select-selector') as HTMLElement);
    const masked = (await screen.findAllByTitle('脱敏')).filter((o) => o.classList.contains('ant-select-item-option'));
    expect(masked.at(-1)).toHaveClass('ant-select-item-option-disabled');
  });

  it('previews a student as a role sees them, a hidden field marked', async () => {
    const { name: _hidden, ...rest } = {
      id: 1,
      studentNo: '202101010001',
      name: '张三',
      college: '计算机工程学院',
      phone: '138****1234',
      updatedAt: '2025-09-01T02:00:00.000Z',
    };
    answer(policyApi.previewFieldPolicy, { success: true, data: { role: 'njit', student: rest } });
    renderAt('/njit/fieldPolicy', <FieldPolicyPage />);
    fireEvent.change(await screen.findByPlaceholderText('完整学号'), { target: { value: '202101010001' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /^预\s?览$/ })));
    await waitFor(() => expect(sent(policyApi.previewFieldPolicy)).toHaveLength(1));
    expect(sent(policyApi.previewFieldPolicy)[0].query).toEqual({ role: 'njit', studentNo: '202101010001' });
    const preview = (await screen.findByText(/看到的记录/)).closest('.ant-descriptions') as HTMLElement;
    expect(within(preview).getByText('138****1234')).toBeInTheDocument();
    expect(within(preview).getAllByText(/无权查看（隐藏）/).length).toBeGreaterThan(0);
    expect(within(preview).queryByText('张三')).not.toBeInTheDocument();
  });

  it('edits a counselor’s classes and saves them', async () => {
    renderAt('/njit/fieldPolicy', <FieldPolicyPage />);
    const row = (await screen.findByText('王老师（wang）')).closest('tr') as HTMLElement;
    // Removing the one class: back to every student.
    const remove = within(row).getByText('软件211').closest('.ant-select-selection-item') as HTMLElement;
    await act(async () => fireEvent.click(remove.querySelector('.ant-select-selection-item-remove') as HTMLElement));
    await act(async () => fireEvent.click(within(row).getByRole('button', { name: /^保\s?存$/ })));
    await waitFor(() => expect(sent(policyApi.setUserScope)).toHaveLength(1));
    expect(sent(policyApi.setUserScope)[0]).toEqual({ params: { userId: 7 }, body: { colleges: [], classes: [] } });
  });

  it('says when there is no counselor or teacher yet', async () => {
    answer(policyApi.listUserScopes, { success: true, data: [] });
    renderAt('/njit/fieldPolicy', <FieldPolicyPage />);
    expect(await screen.findByText(/还没有辅导员或教师/)).toBeInTheDocument();
  });

  it('has no axe violations', async () => {
    renderAt('/njit/fieldPolicy', <FieldPolicyPage />);
    await screen.findByRole('combobox', { name: 'NJIT：姓名' });
    await screen.findByText('王老师（wang）');
    // The page alone (the layout's landmarks are not rendered here).
    const page = document.querySelector('.ant-pro-page-container') as HTMLElement;
    const result = await axe.run(page, { rules: { 'color-contrast': { enabled: false }, region: { enabled: false } } });
    expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`)).toEqual([]);
  });
});
