/**
 * The lookup's search form follows the caller's field policy (/api/njit/policy/mine): no criterion for a
 * field they may not search by (masked or hidden), no column for a hidden field, and the form as it
 * always was while the policy loads.
 */
import QueryStuInfoPage from '@/pages/njit/queryStuInfo';
import * as njitApi from '@/contract/api/njit';
import * as policyApi from '@/contract/api/njitPolicy';
import { DEFAULT_FIELD_LEVELS } from '@/contract';
import { answer, sent } from '../api';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import axe from 'axe-core';
import { renderAt } from '../helpers';
import { as } from './signedIn';
import { zhang } from './fixtures';

jest.mock('@/services/call');
jest.mock('@@/plugin-access', () => ({ useAccess: jest.fn() }));

const { college: _college, ...withoutCollege } = zhang;

beforeEach(() => {
  as(['njit']);
  answer(njitApi.searchStudents, {
    success: true,
    data: [{ ...withoutCollege, name: '张*' }],
    total: 1,
    current: 1,
    pageSize: 10,
    capped: false,
  });
  answer(njitApi.options, {
    success: true,
    data: { colleges: [], majors: [], grades: [2021], approval: { fields: [], minutes: 10 } },
  });
});

/** The search form's criteria, by their labels. */
const criteria = () =>
  [...document.querySelectorAll('.ant-pro-table-search .ant-form-item-label label')].map((l) => l.textContent);
const headers = () => [...document.querySelectorAll('.ant-table-thead th')].map((th) => th.textContent);

it('offers the criteria of every field while the policy loads, as for everyone', async () => {
  // policy/mine left unanswered: still loading.
  renderAt('/njit/queryStuInfo', <QueryStuInfoPage />);
  expect(await screen.findByText(/输入学号、姓名/)).toBeInTheDocument();
  await waitFor(() => expect(criteria()).toEqual(expect.arrayContaining(['学号', '姓名', '学院', '专业', '班级'])));
});

it('keeps every criterion for the default policy', async () => {
  answer(policyApi.myFields, { success: true, data: { fields: DEFAULT_FIELD_LEVELS, scoped: false } });
  renderAt('/njit/queryStuInfo', <QueryStuInfoPage />);
  await waitFor(() => expect(sent(policyApi.myFields)).toHaveLength(1));
  await waitFor(() => expect(criteria()).toEqual(expect.arrayContaining(['学号', '姓名', '学院', '年级', '状态'])));
  expect(screen.getByPlaceholderText('张三 / zhangsan / zs')).toBeInTheDocument();
});

it('has no input for a hidden or masked field, no column for a hidden one, and is axe clean', async () => {
  answer(policyApi.myFields, {
    success: true,
    data: { fields: { ...DEFAULT_FIELD_LEVELS, college: 'hidden', name: 'masked' }, scoped: false },
  });
  const { container } = renderAt('/njit/queryStuInfo', <QueryStuInfoPage />);
  await waitFor(() => expect(criteria()).not.toContain('学院'));
  expect(criteria()).not.toContain('姓名');
  expect(criteria()).toEqual(expect.arrayContaining(['学号', '专业', '班级']));
  expect(screen.queryByPlaceholderText('张三 / zhangsan / zs')).not.toBeInTheDocument();
  expect(container.querySelector('#college')).toBeNull();
  expect(container.querySelector('#name')).toBeNull();
  // The empty list's hint names only criteria the form offers.
  const hint = await screen.findByText(/^输入学号、/);
  expect(hint.textContent).not.toMatch(/姓名|学院/);

  fireEvent.change(screen.getByPlaceholderText('完整学号或开头几位'), { target: { value: '2021' } });
  await act(async () => fireEvent.click(screen.getByText(/^查\s?询$/, { selector: 'button span' })));
  expect(await screen.findByText('张*')).toBeInTheDocument();
  expect(sent(njitApi.searchStudents)).toEqual([{ query: { current: 1, pageSize: 10, studentNo: '2021' } }]);
  // The masked name keeps its column; the hidden college has none.
  expect(headers()).toContain('姓名');
  expect(headers()).not.toContain('学院');
  expect(headers()).toContain('专业');

  const result = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
  expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`)).toEqual([]);
});
