import ImportDiff, { DEFAULT_CHOICE } from '@/pages/njit/queryStuInfo/components/ImportDiff';
import * as njitApi from '@/contract/api/njit';
import { answer, sent } from '../api';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { renderAt } from '../helpers';
import { useState } from 'react';
import axe from 'axe-core';

jest.mock('@/services/call');

// Types by import(): a type-only import beside jest.mock trips the test transformer.
type Item = import('@/contract').ImportDiffItem;
type ImportChoice = import('@/contract').ImportCommitChoice;

const changed: Item[] = [
  {
    studentId: 7,
    studentNo: '202101010001',
    name: '张三',
    status: '在读',
    changes: [
      { field: 'college', stored: '信息工程学院', roster: '计算机学院', manual: true, editedBy: 'admin' },
      { field: 'phone', stored: '139****2222', roster: '138****1234', manual: false, editedBy: null },
    ],
  },
];
const missing: Item[] = [{ studentId: 9, studentNo: '202202010004', name: '王五', status: '在读', changes: [] }];
const counts = { new: 0, changed: 1, missing: 1, manualConflicts: 1 };

beforeEach(() => {
  answer(njitApi.importDiff, async ({ query }) => {
    const rows = query?.kind === 'missing' ? missing : query?.kind === 'new' ? [] : changed;
    return { success: true as const, data: rows, total: rows.length, current: 1, pageSize: 10, counts };
  });
});

/** The diff with its choice kept in a parent, as the import panel keeps it; the last choice is exposed. */
let last: ImportChoice = DEFAULT_CHOICE;
function Harness() {
  const [choice, setChoice] = useState<ImportChoice>(DEFAULT_CHOICE);
  last = choice;
  return <ImportDiff importId="imp_1" value={choice} onChange={setChoice} />;
}

describe('import diff and choices', () => {
  it('shows the changed fields with the manual flag, masked values and counts; keeps manual edits by default', async () => {
    const { container } = renderAt('/njit/queryStuInfo', <Harness />);
    expect(await screen.findByText('信息工程学院')).toBeInTheDocument();
    expect(sent(njitApi.importDiff)[0]).toEqual({
      params: { id: 'imp_1' },
      query: { kind: 'changed', current: 1, pageSize: 10 },
    });
    expect(screen.getByText('手动修改（admin）')).toBeInTheDocument();
    expect(screen.getByText('139****2222')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: '变更（1）' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: '名单中缺少（1）' })).toBeInTheDocument();
    expect(screen.getByText('名单将改动 1 个手动修改过的字段')).toBeInTheDocument();
    const perField = screen.getByRole('radiogroup', { name: '张三的学院' });
    expect(within(perField).getByRole('radio', { name: '保留手动修改' })).toBeChecked();
    expect(last).toEqual(DEFAULT_CHOICE);
    // jsdom has no layout: contrast is checked in the browser (tests/e2e).
    const result = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`)).toEqual([]);
  });

  it('takes the roster for one field, then in bulk (which clears the per-field choices)', async () => {
    renderAt('/njit/queryStuInfo', <Harness />);
    const perField = await screen.findByRole('radiogroup', { name: '张三的学院' });
    await act(async () => fireEvent.click(within(perField).getByRole('radio', { name: '采用名单' })));
    expect(last).toEqual({
      manual: 'keep',
      choices: [{ studentNo: '202101010001', field: 'college', take: 'roster' }],
      missing: 'leave',
    });
    // Back to the bulk choice: no per-field entry is kept.
    await act(async () => fireEvent.click(within(perField).getByRole('radio', { name: '保留手动修改' })));
    expect(last.choices).toEqual([]);
    const bulk = screen.getByRole('radiogroup', { name: '手动修改的字段（批量）' });
    await act(async () => fireEvent.click(within(bulk).getByRole('radio', { name: '全部采用名单中的值' })));
    expect(last).toMatchObject({ manual: 'roster', choices: [] });
    expect(within(perField).getByRole('radio', { name: '采用名单' })).toBeChecked();
  });

  it('lists the students the roster misses and marks them 离校 when asked', async () => {
    renderAt('/njit/queryStuInfo', <Harness />);
    await screen.findByText('信息工程学院');
    await act(async () => fireEvent.click(screen.getByRole('tab', { name: '名单中缺少（1）' })));
    expect(await screen.findByText('王五')).toBeInTheDocument();
    expect(sent(njitApi.importDiff).at(-1)).toEqual({
      params: { id: 'imp_1' },
      query: { kind: 'missing', current: 1, pageSize: 10 },
    });
    await act(async () => fireEvent.click(screen.getByRole('checkbox', { name: /标记为“离校”/ })));
    expect(last.missing).toBe('mark_left');
  });
});
