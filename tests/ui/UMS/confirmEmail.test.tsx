/** The link of an e-mail channel's confirmation mail: confirms once, says why a link does not work. */
import ConfirmEmailPage from '@/pages/UMS/confirmEmail';
import * as umsApi from '@/contract/api/ums';
import { call } from '@/services/call';
import { answer, fail, sent } from '../api';
import { screen, waitFor } from '@testing-library/react';
import { renderAt } from '../helpers';

jest.mock('@/services/call');

const TOKEN = 'B'.repeat(43);

beforeEach(() => jest.clearAllMocks());

it('confirms once and says whose pushes the address will receive', async () => {
  answer(umsApi.confirmEmail, {
    success: true,
    data: { email: 'family@example.org', channelName: '家人邮箱', owner: '张三' },
  });
  renderAt(`/UMS/confirmEmail#token=${TOKEN}`, <ConfirmEmailPage />);
  expect(await screen.findByText('已确认')).toBeInTheDocument();
  expect(screen.getByText(/family@example\.org 将接收用户「张三」通过渠道「家人邮箱」推送的消息/)).toBeInTheDocument();
  await waitFor(() => expect(sent(umsApi.confirmEmail)).toHaveLength(1));
  expect(call).toHaveBeenCalledWith(umsApi.confirmEmail, { body: { token: TOKEN } }, { skipErrorHandler: true });
});

it('explains a link that was used or has expired', async () => {
  fail(umsApi.confirmEmail, {
    response: { status: 410, data: { success: false, errorMessage: '确认链接已失效：链接 72 小时内有效' } },
  });
  renderAt(`/UMS/confirmEmail#token=${TOKEN}`, <ConfirmEmailPage />);
  expect(await screen.findByText('确认失败')).toBeInTheDocument();
  expect(screen.getByText('确认链接已失效：链接 72 小时内有效')).toBeInTheDocument();
});

it('without a token (or with junk in its place) calls nothing', async () => {
  renderAt('/UMS/confirmEmail#token=%00%ud800', <ConfirmEmailPage />);
  expect(await screen.findByText(/链接不完整/)).toBeInTheDocument();
  expect(sent(umsApi.confirmEmail)).toEqual([]);
});
