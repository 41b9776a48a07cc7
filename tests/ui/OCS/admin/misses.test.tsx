import MissesPage from '@/pages/OCS/OCSAdmin/misses';
import * as ocsReviewApi from '@/contract/api/ocsReview';
import { call } from '@/services/call';
import { answer, fail } from '../../api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderAt } from '../../helpers';
import { NOVEL, TCP, missPage as page } from './missFixtures';

jest.mock('@/services/call');

beforeEach(() => {
  jest.clearAllMocks();
  answer(ocsReviewApi.listMisses, page([TCP, NOVEL]));
});

const row = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;

it('lists the open misses, most asked first, with their counts and AI drafts', async () => {
  renderAt('/OCS/OCSAdmin/misses', <MissesPage />);
  await screen.findByText(TCP.title);
  expect(call).toHaveBeenCalledWith(ocsReviewApi.listMisses, { query: expect.objectContaining({ status: 'open' }) });
  expect(row(TCP.title)).toHaveTextContent('17');
  expect(within(row(TCP.title)).getByText('deepseek-chat')).toBeInTheDocument();
  expect(row(NOVEL.title)).toHaveTextContent('9');
});

it('names its check boxes in Chinese: 全选本页 and each row by its question', async () => {
  renderAt('/OCS/OCSAdmin/misses', <MissesPage />);
  await screen.findByText(TCP.title);
  expect(screen.getByRole('checkbox', { name: '全选本页' })).toBeInTheDocument();
  expect(screen.getByRole('checkbox', { name: `选择「${TCP.title}」` })).toBeInTheDocument();
  expect(screen.queryByRole('checkbox', { name: /Select all/ })).toBeNull();
});

it('answers the selected misses in one go, the AI draft prefilled; nothing is sent until every one has an answer', async () => {
  answer(ocsReviewApi.answerMisses, { success: true, data: { answered: 2 } });
  renderAt('/OCS/OCSAdmin/misses', <MissesPage />);
  await screen.findByText(TCP.title);
  fireEvent.click(within(row(TCP.title)).getByRole('checkbox'));
  fireEvent.click(within(row(NOVEL.title)).getByRole('checkbox'));
  fireEvent.click(await screen.findByText('批量补录'));
  const modal = (await screen.findByText('补录 2 道题的答案')).closest('.ant-modal') as HTMLElement;
  expect((within(modal).getByLabelText('B. SYN+ACK') as HTMLInputElement).checked).toBe(true);
  const save = within(modal).getByText('保存到题库').closest('button')!;
  expect(save).toBeDisabled();
  fireEvent.change(within(modal).getByLabelText('第 2 题答案'), { target: { value: '曹雪芹' } });
  await waitFor(() => expect(save).not.toBeDisabled());
  await act(async () => fireEvent.click(save));
  await waitFor(() =>
    expect(call).toHaveBeenCalledWith(
      ocsReviewApi.answerMisses,
      {
        body: {
          items: [
            { id: 1, answer: ['SYN+ACK'] },
            { id: 2, answer: ['曹雪芹'] },
          ],
        },
      },
      { skipErrorHandler: true },
    ),
  );
  expect(await screen.findByText('已补录 2 道题，已作为“已核实”题目加入题库')).toBeInTheDocument();
});

it('keeps the dialog open with the server’s reason when an answer is refused', async () => {
  fail(ocsReviewApi.answerMisses, {
    response: {
      status: 400,
      data: { success: false, errorCode: 'BAD_REQUEST', errorMessage: '「《红楼梦》的作者是____。」：答案为空' },
    },
  });
  renderAt('/OCS/OCSAdmin/misses', <MissesPage />);
  await screen.findByText(NOVEL.title);
  fireEvent.click(within(row(NOVEL.title)).getByText('补录'));
  const modal = (await screen.findByText('补录答案')).closest('.ant-modal') as HTMLElement;
  fireEvent.change(within(modal).getByLabelText('第 1 题答案'), { target: { value: '曹雪芹' } });
  await act(async () => fireEvent.click(within(modal).getByText('保存到题库').closest('button')!));
  expect(await within(modal).findByText('「《红楼梦》的作者是____。」：答案为空')).toBeInTheDocument();
});

it('asks the AI for a draft, and dismisses after a confirmation', async () => {
  answer(ocsReviewApi.draftMiss, { success: true, data: { ...NOVEL, draft: ['曹雪芹'], draftModel: 'm' } });
  answer(ocsReviewApi.dismissMisses, { success: true, data: { dismissed: 1 } });
  renderAt('/OCS/OCSAdmin/misses', <MissesPage />);
  await screen.findByText(NOVEL.title);
  await act(async () => fireEvent.click(within(row(NOVEL.title)).getByText('AI 起草')));
  await waitFor(() => expect(call).toHaveBeenCalledWith(ocsReviewApi.draftMiss, { params: { id: 2 } }));
  expect(await screen.findByText('AI 草稿：曹雪芹（确认后才会入库）')).toBeInTheDocument();
  fireEvent.click(within(row(NOVEL.title)).getByText('忽略'));
  await act(async () => fireEvent.click(await screen.findByText('忽 略', { selector: '.ant-popconfirm button span' })));
  await waitFor(() => expect(call).toHaveBeenCalledWith(ocsReviewApi.dismissMisses, { body: { ids: [2] } }));
});
