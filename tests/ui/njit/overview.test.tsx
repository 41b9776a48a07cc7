import NjitOverviewPage from '@/pages/njit/overview';
import * as njitApi from '@/contract/api/njit';
import { answer, failOnce } from '../api';
import { fireEvent, screen } from '@testing-library/react';
import { renderAt } from '../helpers';
import axe from 'axe-core';

jest.mock('@/services/call');

const overview = {
  total: 6,
  byCollege: [
    { name: '计算机工程学院', count: 3 },
    { name: '电力工程学院', count: 3 },
  ],
  byGrade: [
    { name: '2023', count: 4 },
    { name: '2024', count: 2 },
  ],
  byStatus: [{ name: '在读', count: 6 }],
  lastImport: null,
  queriesToday: 3,
  queriesThisMinute: 1,
  queryLimitPerMinute: 30,
};

/** The cards of each grid row and the columns holding them. */
function gridRows() {
  const row = document.querySelector('.ant-pro-page-container .ant-row') as HTMLElement;
  const cols = Array.from(row.children) as HTMLElement[];
  return cols.map((col) => ({ col, cards: Array.from(col.children) as HTMLElement[] }));
}

describe('NJIT overview', () => {
  it('is titled NJIT 概览 like the other modules’ overviews, loading or failed too', async () => {
    failOnce(njitApi.overview, new Error('down'));
    answer(njitApi.overview, { success: true, data: overview });
    renderAt('/njit/overview', <NjitOverviewPage />);
    expect(screen.getByText('NJIT 概览')).toBeInTheDocument(); // while loading
    expect(await screen.findByText('概览加载失败')).toBeInTheDocument();
    expect(screen.getByText('NJIT 概览')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /重\s*试/ }));
    expect(await screen.findByText('学生总数')).toBeInTheDocument();
    expect(screen.getByText('NJIT 概览')).toBeInTheDocument();
  });

  it('names every progress bar for a screen reader', async () => {
    answer(njitApi.overview, { success: true, data: overview });
    renderAt('/njit/overview', <NjitOverviewPage />);
    expect(await screen.findByText('按学籍状态')).toBeInTheDocument();
    const bars = screen.getAllByRole('progressbar');
    expect(bars.length).toBeGreaterThan(1);
    for (const bar of bars) expect(bar).toHaveAccessibleName();
    expect(screen.getByRole('progressbar', { name: '计算机工程学院 3 人' })).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: '本分钟已用的查询次数' })).toBeInTheDocument();
  });

  it('lays the cards out as an even grid: one card per column, three columns a row, each as tall as its row', async () => {
    answer(njitApi.overview, { success: true, data: overview });
    renderAt('/njit/overview', <NjitOverviewPage />);
    expect(await screen.findByText('按学籍状态')).toBeInTheDocument();
    const rows = gridRows();
    expect(rows).toHaveLength(6);
    for (const { col, cards } of rows) {
      expect(cards).toHaveLength(1);
      expect(cards[0]).toHaveStyle({ height: '100%' });
      // A third of the width from md (numbers) or lg (charts) on: two even rows of three.
      expect(col.className).toMatch(/ant-col-(md|lg)-8/);
    }
    expect(rows.slice(3).map((r) => r.cards[0].querySelector('.ant-card-head-title')?.textContent)).toEqual([
      '按学院',
      '按年级',
      '按学籍状态',
    ]);
    // Grades read as in the student table: 2023 级.
    expect(screen.getByLabelText('2023 级 4 人')).toBeInTheDocument();
  });

  it('says why a distribution the role may not see is missing, instead of an empty chart', async () => {
    const { byCollege: _college, byGrade: _grade, ...withheld } = overview;
    answer(njitApi.overview, { success: true, data: withheld });
    const { container } = renderAt('/njit/overview', <NjitOverviewPage />);
    expect(await screen.findByText('按学籍状态')).toBeInTheDocument();
    expect(screen.getByText('你的角色不能完整查看「学院」，不显示该分布。')).toBeInTheDocument();
    expect(screen.getByText('你的角色不能完整查看「年级」，不显示该分布。')).toBeInTheDocument();
    expect(screen.queryByText('暂无数据')).not.toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: /计算机工程学院/ })).not.toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: '在读 6 人' })).toBeInTheDocument();
    const result = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(result.violations).toEqual([]);
  });
});
