import { useAccess } from '@@/plugin-access';
import access from '@/access';
import BankAdminPage from '@/pages/OCS/OCSAdmin/bank';
import * as ocsAdminApi from '@/contract/api/ocsAdmin';
import { call, upload } from '@/services/call';
import { answer, answerOnce, sent } from '../../api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderAt } from '../../helpers';
import { question } from './bankFixtures';
import { page } from '../fixtures';

jest.mock('@/services/call');

jest.mock('@@/plugin-access', () => ({ useAccess: jest.fn() }));

const q = question;
const capital = q(1, '中华人民共和国的首都是哪座城市？', { hitCount: 42 });
const aiOne = q(2, '光在真空中的传播速度约为每秒 30 万千米。', {
  type: 'judgement',
  options: [],
  answer: ['正确'],
  source: 'ai',
  status: 'unverified',
  hitCount: 5,
});

const stats = {
  total: 1234,
  bySource: { import: 1000, manual: 34, ai: 200, corrected: 0, upstream: 0 },
  byStatus: { verified: 1100, unverified: 120, wrong: 14 },
  topHits: [capital, aiOne].map(({ id, title, type, source, status, hitCount }) => ({
    id,
    title,
    type,
    source,
    status,
    hitCount,
  })),
};

const preview = {
  id: '0e5f2c1a-7b3d-4c8e-9f10-123456789abc',
  fileName: '题库.csv',
  total: 5000,
  valid: 4997,
  rejected: 3,
  existing: 1200,
  issues: [
    { row: 7, message: '题目为空' },
    { row: 19, message: '答案不在选项中（可写选项字母或选项原文）' },
  ],
  sample: [
    {
      row: 2,
      title: '细胞膜的主要成分是',
      type: 'single',
      options: ['脂质和蛋白质', '糖类'],
      answer: ['脂质和蛋白质'],
    },
  ],
};
const job = (over: object) => ({
  success: true as const,
  data: {
    id: preview.id,
    status: 'running' as const,
    total: 4997,
    done: 0,
    inserted: 0,
    updated: 0,
    error: null,
    ...over,
  },
});

beforeEach(() => {
  jest.clearAllMocks();
  answer(ocsAdminApi.bankStats, { success: true, data: stats });
  answer(ocsAdminApi.listQuestions, page([capital, aiOne]));
});

const row = (title: string) =>
  screen
    .getAllByText(title)
    .map((e) => e.closest('tr'))
    .find(Boolean) as HTMLElement;

describe('bank statistics', () => {
  it('shows size, sources, statuses and the most-hit questions', async () => {
    renderAt('/OCS/OCSAdmin/bank', <BankAdminPage />);
    const total = (await screen.findByText('题目总数')).closest('.ant-statistic') as HTMLElement;
    await waitFor(() => expect(total).toHaveTextContent('1,234'));
    expect(screen.getByText('来源：AI').closest('.ant-statistic')).toHaveTextContent('200');
    expect(
      screen.getByText('标为错误', { selector: '.ant-statistic-title' }).closest('.ant-statistic'),
    ).toHaveTextContent('14');
    const top = screen.getByText('命中最多的题目').closest('.ant-card') as HTMLElement;
    const items = top.querySelectorAll('.ant-list-item');
    expect(items[0]).toHaveTextContent('中华人民共和国的首都是哪座城市？');
    expect(items[0]).toHaveTextContent('42 次');
    expect(items[1]).toHaveTextContent('未核实');
  });
});

describe('question table', () => {
  it('opens the question the header search picked (?question=id) in the editor', async () => {
    answer(ocsAdminApi.getQuestion, { success: true, data: capital });
    renderAt('/OCS/OCSAdmin/bank?question=1', <BankAdminPage />);
    expect(await screen.findByText('编辑题目 #1')).toBeInTheDocument();
    expect(sent(ocsAdminApi.getQuestion)).toEqual([{ params: { id: 1 } }]);
  });

  it('filters on the server and offers JSON and CSV export links', async () => {
    renderAt('/OCS/OCSAdmin/bank', <BankAdminPage />);
    await waitFor(() => expect(row(capital.title)).toBeTruthy());
    expect(call).toHaveBeenCalledWith(ocsAdminApi.listQuestions, {
      query: { current: 1, pageSize: 10, sortBy: 'updated', order: 'descend' },
    });
    fireEvent.change(screen.getByPlaceholderText('题目关键字'), { target: { value: ' 首都 ' } });
    jest.mocked(call).mockClear();
    await act(async () => fireEvent.click(screen.getByText('查 询', { selector: 'button span' })));
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith(ocsAdminApi.listQuestions, {
        query: expect.objectContaining({ keyword: '首都' }),
      }),
    );
    expect(screen.getByText('导出 JSON').closest('a')).toHaveAttribute(
      'href',
      '/api/ocs/admin/bank/export?format=json',
    );
    expect(screen.getByText('导出 CSV').closest('a')).toHaveAttribute('href', '/api/ocs/admin/bank/export?format=csv');
  });

  it('marks an AI answer verified or wrong, and deletes after confirmation', async () => {
    answer(ocsAdminApi.setQuestionStatus, { success: true, data: { ...aiOne, status: 'verified' } });
    answer(ocsAdminApi.deleteQuestion, { success: true });
    renderAt('/OCS/OCSAdmin/bank', <BankAdminPage />);
    await waitFor(() => expect(row(aiOne.title)).toBeTruthy());
    expect(within(row(capital.title)).queryByText('核实')).not.toBeInTheDocument();
    await act(async () => fireEvent.click(within(row(aiOne.title)).getByText('核实')));
    expect(call).toHaveBeenCalledWith(ocsAdminApi.setQuestionStatus, {
      params: { id: 2 },
      body: { status: 'verified' },
    });
    await act(async () => fireEvent.click(within(row(capital.title)).getByText('标为错误')));
    expect(call).toHaveBeenCalledWith(ocsAdminApi.setQuestionStatus, { params: { id: 1 }, body: { status: 'wrong' } });

    fireEvent.click(within(row(capital.title)).getByText('删除'));
    const pop = (await screen.findByText('删除这道题？')).closest('.ant-popover') as HTMLElement;
    expect(sent(ocsAdminApi.deleteQuestion)).toEqual([]);
    await act(async () => fireEvent.click(within(pop).getByText('删 除', { selector: 'button span' })));
    await waitFor(() => expect(call).toHaveBeenCalledWith(ocsAdminApi.deleteQuestion, { params: { id: 1 } }));
  });

  it('edits a question in a drawer and sends options and answers as lists', async () => {
    answer(ocsAdminApi.updateQuestion, { success: true, data: capital });
    renderAt('/OCS/OCSAdmin/bank', <BankAdminPage />);
    await waitFor(() => expect(row(capital.title)).toBeTruthy());
    fireEvent.click(within(row(capital.title)).getByText('编辑'));
    const drawer = (await screen.findByText('编辑题目 #1')).closest('.ant-drawer') as HTMLElement;
    expect(within(drawer).getByLabelText('选项')).toHaveValue('上海\n北京\n广州');
    fireEvent.change(within(drawer).getByLabelText('选项'), { target: { value: '上海\n北京\n广州\n深圳' } });
    fireEvent.change(within(drawer).getByLabelText('答案'), { target: { value: 'B' } });
    await act(async () => fireEvent.click(within(drawer).getByText('保存题目')));
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith(ocsAdminApi.updateQuestion, {
        params: { id: 1 },
        body: {
          title: capital.title,
          type: 'single',
          options: ['上海', '北京', '广州', '深圳'],
          answer: ['B'],
        },
      }),
    );
  });
});

describe('import', () => {
  it('uploads with progress, shows the report, and writes with a progress bar only after confirmation', async () => {
    let progress: (p: number) => void = () => undefined;
    let uploaded: (v: unknown) => void = () => undefined;
    answer(ocsAdminApi.uploadImport, (_f, onProgress) => {
      progress = onProgress!;
      return new Promise((resolve) => (uploaded = resolve)) as never;
    });
    renderAt('/OCS/OCSAdmin/bank', <BankAdminPage />);
    const file = new File(['题目,答案\n好题,正确\n'], '题库.csv', { type: 'text/csv' });
    fireEvent.change(document.querySelector('input[type=file]') as HTMLInputElement, { target: { files: [file] } });
    expect(upload).toHaveBeenCalledWith(ocsAdminApi.uploadImport, file, expect.any(Function));
    await act(async () => progress(40));
    expect(screen.getByText('正在上传 题库.csv…')).toBeInTheDocument();
    await act(async () => progress(100));
    expect(screen.getByText('上传完成，服务器正在解析和校验…')).toBeInTheDocument();
    await act(async () => uploaded({ success: true, data: preview }));

    const report = (await screen.findByText('预览：题库.csv')).closest('.ant-card') as HTMLElement;
    expect(within(report).getByText('将新增').closest('.ant-statistic')).toHaveTextContent('3,797');
    expect(within(report).getByText('将更新').closest('.ant-statistic')).toHaveTextContent('1,200');
    expect(within(report).getByText(/3 行有问题/)).toBeInTheDocument();
    const issue = within(report).getByText('题目为空').closest('tr') as HTMLElement;
    expect(issue).toHaveTextContent('7');
    expect(sent(ocsAdminApi.commitImport)).toEqual([]);

    answer(ocsAdminApi.commitImport, job({ done: 0 }));
    answerOnce(ocsAdminApi.importJob, job({ done: 2000, inserted: 800, updated: 1200 }));
    answer(ocsAdminApi.importJob, job({ status: 'done', done: 4997, inserted: 3797, updated: 1200 }));
    await act(async () => fireEvent.click(screen.getByText('确认导入 4997 题')));
    expect(call).toHaveBeenCalledWith(ocsAdminApi.commitImport, { params: { id: preview.id } });
    expect(
      await screen.findByText('正在导入 题库.csv：已写入 2000 / 4997 题', undefined, { timeout: 3000 }),
    ).toBeInTheDocument();
    expect(screen.getByText('40%')).toBeInTheDocument();
    expect(await screen.findByText('导入完成', undefined, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.getByText('题库.csv：新增 3797 题，更新 1200 题，跳过 3 行')).toBeInTheDocument();
    expect(call).toHaveBeenCalledWith(
      ocsAdminApi.importJob,
      { params: { id: preview.id } },
      { skipErrorHandler: true },
    );
    // Stats and the table refresh with the new questions.
    await waitFor(() => expect(sent(ocsAdminApi.bankStats)).toHaveLength(2));
  }, 15_000);

  it('shows a failed job with what was written', async () => {
    answer(ocsAdminApi.uploadImport, { success: true, data: preview });
    answer(
      ocsAdminApi.commitImport,
      job({
        status: 'failed',
        done: 2000,
        inserted: 2000,
        error: '导入在第 2001 条附近中断（之前的 2000 条已写入；重新导入同一文件是安全的）',
      }),
    );
    renderAt('/OCS/OCSAdmin/bank', <BankAdminPage />);
    fireEvent.change(document.querySelector('input[type=file]') as HTMLInputElement, {
      target: { files: [new File(['x'], '题库.csv')] },
    });
    const confirm = await screen.findByText('确认导入 4997 题', undefined, { timeout: 3000 });
    await act(async () => fireEvent.click(confirm));
    expect(await screen.findByText('导入失败')).toBeInTheDocument();
    expect(screen.getByText(/重新导入同一文件是安全的/)).toBeInTheDocument();
  });
});

describe('first run', () => {
  const setup = (bankDone: boolean) => ({
    success: true as const,
    data: {
      bank: { done: bankDone },
      ai: { done: true, models: 1 },
      price: { done: true, bankPrice: 1 },
      complete: bankDone,
    },
  });

  it('imports the sample bank after a confirmation that says what it is, then refreshes stats and checklist', async () => {
    jest
      .mocked(useAccess)
      .mockReturnValue(
        access({ currentUser: { uid: 1, username: 'admin', nickname: null, avatar: null, roles: ['admin'] } }),
      );
    answerOnce(ocsAdminApi.setupStatus, setup(false));
    answer(ocsAdminApi.setupStatus, setup(true));
    answer(ocsAdminApi.importSampleBank, { success: true, data: { total: 272, inserted: 272, skipped: 0 } });
    renderAt('/OCS/OCSAdmin/bank', <BankAdminPage />);
    const checklist = await screen.findByTestId('ocs-setup-checklist');
    expect(within(checklist).getByTestId('ocs-setup-bank')).toHaveAttribute('data-done', 'false');
    expect(within(checklist).getByText('已完成 2/3')).toBeInTheDocument();

    fireEvent.click(screen.getByText('导入示例题库', { selector: 'button span' }));
    expect(await screen.findByText('导入示例题库？')).toBeInTheDocument();
    expect(screen.getByText(/不是任何课程或考试的真实题目/)).toBeInTheDocument();
    expect(sent(ocsAdminApi.importSampleBank)).toEqual([]);
    await act(async () => fireEvent.click(screen.getByText('导 入', { selector: 'button span' })));
    expect(sent(ocsAdminApi.importSampleBank)).toHaveLength(1);
    expect(await screen.findByText('已导入示例题库：新增 272 题')).toBeInTheDocument();
    await waitFor(() => expect(sent(ocsAdminApi.bankStats)).toHaveLength(2));
    // Everything done now: the checklist leaves the page.
    await waitFor(() => expect(screen.queryByTestId('ocs-setup-checklist')).not.toBeInTheDocument());
    expect(sent(ocsAdminApi.setupStatus)).toHaveLength(2);
  });

  it('says so when the sample bank is already imported', async () => {
    jest.mocked(useAccess).mockReturnValue(undefined as never);
    answer(ocsAdminApi.importSampleBank, { success: true, data: { total: 272, inserted: 0, skipped: 272 } });
    renderAt('/OCS/OCSAdmin/bank', <BankAdminPage />);
    fireEvent.click(await screen.findByText('导入示例题库', { selector: 'button span' }));
    await act(async () => fireEvent.click(await screen.findByText('导 入', { selector: 'button span' })));
    expect(await screen.findByText('示例题库的 272 道题都已在题库中，没有新增')).toBeInTheDocument();
  });
});
