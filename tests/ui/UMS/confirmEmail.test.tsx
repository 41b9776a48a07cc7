/** The link of an e-mail channel's confirmation mail: confirms once, says why a link does not work. */
import ConfirmEmailPage from '@/pages/UMS/confirmEmail';
import { confirmEmail } from '@/services/ums';
import { screen, waitFor } from '@testing-library/react';
import { renderAt } from '../helpers';

jest.mock('@/services/ums', () => ({ confirmEmail: jest.fn() }));

const TOKEN = 'B'.repeat(43);

beforeEach(() => jest.clearAllMocks());

it('confirms once and says whose pushes the address will receive', async () => {
  jest.mocked(confirmEmail).mockResolvedValue({
    success: true,
    data: { email: 'family@example.org', channelName: '家人邮箱', owner: '张三' },
  });
  renderAt(`/UMS/confirmEmail#token=${TOKEN}`, <ConfirmEmailPage />);
  expect(await screen.findByText('已确认')).toBeInTheDocument();
  expect(screen.getByText(/family@example\.org 将接收用户「张三」通过渠道「家人邮箱」推送的消息/)).toBeInTheDocument();
  await waitFor(() => expect(confirmEmail).toHaveBeenCalledTimes(1));
  expect(confirmEmail).toHaveBeenCalledWith(TOKEN, { skipErrorHandler: true });
});

it('explains a link that was used or has expired', async () => {
  jest.mocked(confirmEmail).mockRejectedValue({
    response: { status: 410, data: { success: false, errorMessage: '确认链接已失效：链接 72 小时内有效' } },
  });
  renderAt(`/UMS/confirmEmail#token=${TOKEN}`, <ConfirmEmailPage />);
  expect(await screen.findByText('确认失败')).toBeInTheDocument();
  expect(screen.getByText('确认链接已失效：链接 72 小时内有效')).toBeInTheDocument();
});

it('without a token (or with junk in its place) calls nothing', async () => {
  renderAt('/UMS/confirmEmail#token=%00%ud800', <ConfirmEmailPage />);
  expect(await screen.findByText(/链接不完整/)).toBeInTheDocument();
  expect(confirmEmail).not.toHaveBeenCalled();
});
