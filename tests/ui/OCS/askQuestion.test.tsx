import AskQuestionPage from '@/pages/OCS/askQuestion';
import { splitOptions } from '@/pages/OCS/askQuestion/components/options';
import * as ocsApi from '@/contract/api/ocs';
import { call } from '@/services/call';
import { answer, fail, failOnce, sent } from '../api';
import * as ocsReviewApi from '@/contract/api/ocsReview';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderAt } from '../helpers';
import { page, query } from './fixtures';

jest.mock('@/services/call');

/** The overview answer, read by the page for serviceReady only. */
const overviewWith = (serviceReady: { bank: boolean; ai: boolean }) => ({
  success: true as const,
  data: {
    balance: 10,
    price: 1,
    today: { queries: 0, answered: 0, hitRate: 0, spent: 0 },
    daily: [],
    recent: [],
    hasToken: false,
    serviceReady,
  },
});

const TITLE = '中华人民共和国的首都是哪座城市？';

beforeEach(() => {
  jest.clearAllMocks();
  answer(ocsApi.overview, overviewWith({ bank: true, ai: false }));
  answer(
    ocsApi.listQueries,
    page([query(1, 'ai', '细胞膜的主要成分是'), query(2, 'miss', '第三章课后习题 7（图片题）')]),
  );
});

async function ask(title = TITLE) {
  fireEvent.change(await screen.findByLabelText('题目'), { target: { value: title } });
  await act(async () => fireEvent.click(screen.getByText('查询答案', { selector: 'button span' })));
}

describe('ask a question', () => {
  it('says up front when the administrator has not set OCS up (no bank, no AI model)', async () => {
    answer(ocsApi.overview, overviewWith({ bank: false, ai: false }));
    const { unmount } = renderAt('/OCS/askQuestion', <AskQuestionPage />);
    const notice = await screen.findByTestId('ocs-service-notice');
    expect(notice).toHaveTextContent('管理员尚未完成 OCS 设置');
    expect(notice).toHaveTextContent('请联系管理员导入题库或配置 AI 模型后再使用');
    unmount();

    answer(ocsApi.overview, overviewWith({ bank: true, ai: false }));
    renderAt('/OCS/askQuestion', <AskQuestionPage />);
    expect(await screen.findByText('细胞膜的主要成分是')).toBeInTheDocument();
    await waitFor(() => expect(sent(ocsApi.overview)).toHaveLength(2));
    expect(screen.queryByTestId('ocs-service-notice')).not.toBeInTheDocument();
  });

  it('sends title, type and pasted options, shows the answer card and refreshes the history', async () => {
    answer(ocsApi.ask, {
      success: true,
      data: {
        code: 1,
        question: TITLE,
        answer: '北京',
        source: 'import',
        confidence: 0.95,
        cost: 1,
        balance: 99,
        queryId: 7,
      },
    });
    renderAt('/OCS/askQuestion', <AskQuestionPage />);
    expect(await screen.findByText('细胞膜的主要成分是')).toBeInTheDocument();
    expect(sent(ocsApi.listQueries)).toHaveLength(1);

    fireEvent.click(screen.getByText('粘贴多行选项'));
    fireEvent.change(screen.getByLabelText('粘贴选项'), { target: { value: 'A. 上海\n\nB、北京\n(C) 广州' } });
    fireEvent.click(screen.getByText('替换为这些选项'));
    expect(screen.getByLabelText('选项 B')).toHaveValue('北京');
    fireEvent.click(screen.getByText('添加选项'));
    fireEvent.change(screen.getByLabelText('选项 D'), { target: { value: ' 深圳 ' } });
    fireEvent.mouseDown(screen.getByText('不限').closest('.ant-select-selector') as HTMLElement);
    fireEvent.click(await screen.findByText('单选题', { selector: '.ant-select-item-option-content' }));
    await ask(`  ${TITLE} `);

    expect(call).toHaveBeenCalledWith(
      ocsApi.ask,
      { body: { title: TITLE, type: 'single', options: ['上海', '北京', '广州', '深圳'] } },
      { skipErrorHandler: true },
    );
    const card = await screen.findByTestId('ask-result');
    const item = (label: string) => within(card).getByText(label).closest('tr') as HTMLElement;
    expect(item('答案')).toHaveTextContent('北京');
    expect(item('匹配到的题目')).toHaveTextContent(TITLE);
    expect(item('来源')).toHaveTextContent('题库导入');
    expect(item('置信度')).toHaveTextContent('95%');
    expect(item('本次扣费')).toHaveTextContent('1 积分');
    expect(item('余额')).toHaveTextContent('99 积分');
    await waitFor(() => expect(sent(ocsApi.listQueries)).toHaveLength(2));
  });

  it('shows OCS’s msg as a warning when nothing was found', async () => {
    answer(ocsApi.ask, { success: true, data: { code: 0, msg: '余额不足，请先领取或兑换积分' } });
    renderAt('/OCS/askQuestion', <AskQuestionPage />);
    await ask('这道题找不到');
    const alert = (await screen.findByText('没有找到答案')).closest('.ant-alert') as HTMLElement;
    expect(alert).toHaveClass('ant-alert-warning');
    expect(alert).toHaveTextContent('余额不足，请先领取或兑换积分');
    expect(screen.queryByTestId('ask-result')).not.toBeInTheDocument();
  });

  it('says 请求过快 with the wait from Retry-After on 429, and adds nothing to the history', async () => {
    fail(ocsApi.ask, {
      response: {
        status: 429,
        headers: { 'retry-after': '3' },
        data: { success: false, errorCode: 'RATE_LIMITED', errorMessage: '请求过快' },
      },
    });
    renderAt('/OCS/askQuestion', <AskQuestionPage />);
    await screen.findByText('细胞膜的主要成分是');
    await ask();
    expect(await screen.findByText('请求过快')).toBeInTheDocument();
    expect(screen.getByText('提问太频繁，请 3 秒后再试。')).toBeInTheDocument();
    expect(sent(ocsApi.listQueries)).toHaveLength(1);
  });

  it('puts the server’s field errors on the fields', async () => {
    fail(ocsApi.ask, {
      response: {
        status: 400,
        data: {
          success: false,
          errorCode: 'BAD_REQUEST',
          errorMessage: '请求参数有误',
          data: { title: ['题目不能只有空白'] },
        },
      },
    });
    renderAt('/OCS/askQuestion', <AskQuestionPage />);
    await ask('？');
    expect(await screen.findByText('题目不能只有空白')).toBeInTheDocument();
    expect(screen.getByText('请求参数有误')).toBeInTheDocument();
  });

  it('needs a title and counts up to 2000 characters', async () => {
    renderAt('/OCS/askQuestion', <AskQuestionPage />);
    await ask('   ');
    expect(await screen.findByText('请输入题目')).toBeInTheDocument();
    expect(sent(ocsApi.ask)).toEqual([]);
    fireEvent.change(screen.getByLabelText('题目'), { target: { value: '水的化学式' } });
    expect(screen.getByText('5 / 2000')).toBeInTheDocument();
  });

  it('stops at 26 options, A to Z', async () => {
    renderAt('/OCS/askQuestion', <AskQuestionPage />);
    fireEvent.click(await screen.findByText('粘贴多行选项'));
    const lines = Array.from({ length: 30 }, (_, i) => `选项${i + 1}`).join('\n');
    fireEvent.change(screen.getByLabelText('粘贴选项'), { target: { value: lines } });
    fireEvent.click(screen.getByText('替换为这些选项'));
    expect(screen.getByLabelText('选项 Z')).toHaveValue('选项26');
    expect(screen.getByText('添加选项').closest('button')).toBeDisabled();
  });
});

describe('pasted options', () => {
  it('takes one option per line and drops letter labels, not letters that belong to the option', () => {
    expect(splitOptions('A. 北京\r\nB、上海\n\n（C）广州\nD：深圳\nDNA 双螺旋')).toEqual([
      '北京',
      '上海',
      '广州',
      '深圳',
      'DNA 双螺旋',
    ]);
  });
});

describe('reporting a wrong answer', () => {
  const context = (over: object = {}) => ({
    success: true as const,
    data: {
      query: { ...query(7, 'bank', TITLE), report: null },
      question: { title: TITLE, type: 'completion' as const, options: [], answer: ['北京'] },
      report: null,
      refusal: null,
      ...over,
    },
  });

  it('答案有误？ on the answer card: the right answer and why, sent with the query id; the server’s refusal shown', async () => {
    answer(ocsApi.ask, {
      success: true,
      data: {
        code: 1,
        question: TITLE,
        answer: '北京',
        source: 'ai',
        confidence: 0.7,
        cost: 3,
        balance: 7,
        queryId: 7,
      },
    });
    answer(ocsReviewApi.reportContext, context());
    failOnce(ocsReviewApi.createReport, {
      response: {
        status: 429,
        data: {
          success: false,
          errorCode: 'RATE_LIMITED',
          errorMessage: '今天的反馈次数已达上限（20 次），请明天再来',
        },
      },
    });
    renderAt('/OCS/askQuestion', <AskQuestionPage />);
    await ask();
    const card = await screen.findByTestId('ask-result');
    expect(within(card).getByText('AI 生成')).toBeInTheDocument();
    fireEvent.click(within(card).getByText('答案有误？'));
    const dialog = (await screen.findByText('反馈答案有误')).closest('.ant-modal') as HTMLElement;
    fireEvent.change(await within(dialog).findByLabelText('正确答案（可选）'), { target: { value: '北京市' } });
    fireEvent.change(within(dialog).getByLabelText('说明（可选）'), { target: { value: '题目问的是城市全称' } });
    await act(async () => fireEvent.click(within(dialog).getByText('提交反馈')));
    expect(await within(dialog).findByText('今天的反馈次数已达上限（20 次），请明天再来')).toBeInTheDocument();
    expect(call).toHaveBeenCalledWith(
      ocsReviewApi.createReport,
      { body: { queryId: 7, proposed: '北京市', reason: '题目问的是城市全称' } },
      { skipErrorHandler: true },
    );
  });

  it('the history shows a report’s outcome, and why an answer cannot be reported', async () => {
    answer(
      ocsApi.listQueries,
      page([
        { ...query(9, 'bank', '已被采纳的题'), report: { status: 'accepted', refunded: 1 } },
        query(8, 'ai', '可以反馈的题'),
        query(6, 'miss', '没有答案的题'),
      ]),
    );
    answer(
      ocsReviewApi.reportContext,
      context({
        report: null,
        refusal: '这个答案没有存入题库，无法反馈',
      }),
    );
    renderAt('/OCS/askQuestion', <AskQuestionPage />);
    const accepted = (await screen.findByText('已被采纳的题')).closest('tr') as HTMLElement;
    expect(within(accepted).getByText('已采纳')).toBeInTheDocument();
    expect(within(accepted).getByText('退 1')).toBeInTheDocument();
    const missRow = screen.getByText('没有答案的题').closest('tr') as HTMLElement;
    expect(within(missRow).queryByText('答案有误')).not.toBeInTheDocument();
    fireEvent.click(within(screen.getByText('可以反馈的题').closest('tr') as HTMLElement).getByText('答案有误'));
    expect(await screen.findByText('这个答案没有存入题库，无法反馈')).toBeInTheDocument();
    expect(screen.queryByText('提交反馈')).not.toBeInTheDocument();
  });
});
