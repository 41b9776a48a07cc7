import ReviewsPage from '@/pages/OCS/OCSAdmin/reviews';
import * as ocsReviewApi from '@/contract/api/ocsReview';
import { call } from '@/services/call';
import { answer, fail } from '../../api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderAt } from '../../helpers';
import { CAPITAL, DETAIL, DUPLICATE, page } from './reviewFixtures';

jest.mock('@/services/call');

beforeEach(() => {
  jest.clearAllMocks();
  answer(ocsReviewApi.reviewQueue, page([CAPITAL, DUPLICATE]));
  answer(ocsReviewApi.reviewDetail, { success: true, data: DETAIL });
});

const row = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;
const select = (text: string) => fireEvent.click(within(row(text)).getByRole('checkbox'));

it('lists reported questions with the stored answer, its source, 存疑 and the proposals', async () => {
  renderAt('/OCS/OCSAdmin/reviews', <ReviewsPage />);
  await screen.findByText(CAPITAL.title);
  expect(call).toHaveBeenCalledWith(ocsReviewApi.reviewQueue, {
    query: expect.objectContaining({ status: 'open', current: 1 }),
  });
  const r = row(CAPITAL.title);
  expect(within(r).getByText('存疑')).toBeInTheDocument();
  expect(within(r).getByText('AI 生成')).toBeInTheDocument();
  expect(r).toHaveTextContent('待审 3 / 共 3');
  expect(r).toHaveTextContent('北京（3 人）');
});

it('reviews one question: reports and history shown, the most-proposed answer preselected; accepting needs a reason', async () => {
  answer(ocsReviewApi.acceptReviews, {
    success: true,
    data: { questions: 1, reports: 1, refunds: 1, refunded: 1 },
  });
  renderAt('/OCS/OCSAdmin/reviews', <ReviewsPage />);
  await screen.findByText(CAPITAL.title);
  fireEvent.click(within(row(CAPITAL.title)).getByText('审核'));
  const drawer = (await screen.findByText('审核题目 #11')).closest('.ant-drawer') as HTMLElement;
  expect(await within(drawer).findByText('alice')).toBeInTheDocument();
  expect(within(drawer).getByText('教材第三章')).toBeInTheDocument();
  expect(within(drawer).getByText(/标记存疑 · 用户反馈/)).toBeInTheDocument();
  expect((within(drawer).getByLabelText('B. 北京') as HTMLInputElement).checked).toBe(true);
  const accept = within(drawer).getByText('采纳并更正').closest('button')!;
  expect(accept).toBeDisabled();
  fireEvent.change(within(drawer).getByLabelText('处理说明'), { target: { value: '已核对教材' } });
  await waitFor(() => expect(accept).not.toBeDisabled());
  fireEvent.click(accept);
  await act(async () => fireEvent.click(await screen.findByText('采 纳', { selector: '.ant-popconfirm button span' })));
  await waitFor(() =>
    expect(call).toHaveBeenCalledWith(
      ocsReviewApi.acceptReviews,
      { body: { items: [{ questionId: 11, answer: ['北京'] }], reason: '已核对教材' } },
      { skipErrorHandler: true },
    ),
  );
  expect(await screen.findByText('已采纳，题库答案已更正；已给 1 位反馈者退还 1 积分')).toBeInTheDocument();
});

it('shows the server’s refusal in the drawer and keeps it open', async () => {
  fail(ocsReviewApi.rejectReviews, {
    response: {
      status: 409,
      data: { success: false, errorCode: 'CONFLICT', errorMessage: '题目 #11 没有待审核的反馈（可能已被处理）' },
    },
  });
  renderAt('/OCS/OCSAdmin/reviews', <ReviewsPage />);
  await screen.findByText(CAPITAL.title);
  fireEvent.click(within(row(CAPITAL.title)).getByText('审核'));
  const drawer = (await screen.findByText('审核题目 #11')).closest('.ant-drawer') as HTMLElement;
  await within(drawer).findByText('alice');
  fireEvent.change(within(drawer).getByLabelText('处理说明'), { target: { value: '原答案正确' } });
  fireEvent.click(within(drawer).getByText('驳 回').closest('button')!);
  await act(async () => fireEvent.click(await screen.findByText('驳 回', { selector: '.ant-popconfirm button span' })));
  expect(await within(drawer).findByText('题目 #11 没有待审核的反馈（可能已被处理）')).toBeInTheDocument();
});

it('bulk: accepts each selected question with its most-proposed answer (skipping those without one), merges duplicates', async () => {
  answer(ocsReviewApi.acceptReviews, { success: true, data: { questions: 1, reports: 3, refunds: 3, refunded: 3 } });
  answer(ocsReviewApi.mergeReviews, { success: true, data: { merged: 1, reports: 1 } });
  renderAt('/OCS/OCSAdmin/reviews', <ReviewsPage />);
  await screen.findByText(CAPITAL.title);
  select(CAPITAL.title);
  select(DUPLICATE.title);
  fireEvent.click(await screen.findByText('批量采纳'));
  const modal = (await screen.findByText('1 道题没有人建议答案，请逐题审核（本次跳过）。')).closest(
    '.ant-modal',
  ) as HTMLElement;
  const ok = within(modal).getByText('确认采纳').closest('button')!;
  expect(ok).toBeDisabled();
  fireEvent.change(within(modal).getByLabelText('处理说明'), { target: { value: '批量核对' } });
  await act(async () => fireEvent.click(ok));
  await waitFor(() =>
    expect(call).toHaveBeenCalledWith(
      ocsReviewApi.acceptReviews,
      { body: { items: [{ questionId: 11, answer: ['北京'] }], reason: '批量核对' } },
      { skipErrorHandler: true },
    ),
  );

  select(CAPITAL.title);
  select(DUPLICATE.title);
  fireEvent.click(await screen.findByText('合并重复题'));
  const merge = (await screen.findByText(/选择保留的题目/)).closest('.ant-modal') as HTMLElement;
  fireEvent.click(within(merge).getByLabelText(`#12 ${DUPLICATE.title}`));
  fireEvent.change(within(merge).getByLabelText('处理说明'), { target: { value: '同一题' } });
  await act(async () => fireEvent.click(within(merge).getByText('确认合并重复题').closest('button')!));
  await waitFor(() =>
    expect(call).toHaveBeenCalledWith(
      ocsReviewApi.mergeReviews,
      { body: { targetId: 12, sourceIds: [11], reason: '同一题' } },
      { skipErrorHandler: true },
    ),
  );
});
