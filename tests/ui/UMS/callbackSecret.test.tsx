/** The callback signing secret on /UMS/self: hidden until shown, replaced only after a confirmation. */
import CallbackSecretCard from '@/pages/UMS/self/components/CallbackSecretCard';
import * as umsApi from '@/contract/api/ums';
import { answer, sent } from '../api';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { renderAt } from '../helpers';

jest.mock('@/services/call');

const SECRET = 'whsec_FirstSecretValue0123456789';
const NEW = 'whsec_SecondSecretValue987654321';

beforeEach(() => {
  answer(umsApi.callbackSecret, { success: true, data: { secret: SECRET, createdAt: '' } });
  answer(umsApi.rotateCallbackSecret, { success: true, data: { secret: NEW, createdAt: '' } });
});

it('shows the secret masked, in full on request, and how to verify a callback', async () => {
  renderAt('/UMS/self', <CallbackSecretCard />);
  const value = await screen.findByTestId('callback-secret');
  expect(value).toHaveTextContent('whsec_Fi…6789');
  expect(document.body).not.toHaveTextContent(SECRET);
  fireEvent.click(screen.getByText(/^显\s?示$/));
  expect(screen.getByTestId('callback-secret')).toHaveTextContent(SECRET);
  expect(screen.getByText('X-Portal-Signature')).toBeInTheDocument();
});

it('rotates only after confirmation, then shows the new secret', async () => {
  renderAt('/UMS/self', <CallbackSecretCard />);
  await screen.findByTestId('callback-secret');
  fireEvent.click(screen.getByText('更换密钥'));
  const tip = (await screen.findByText('更换回调签名密钥？')).closest('.ant-popover') as HTMLElement;
  expect(sent(umsApi.rotateCallbackSecret)).toEqual([]);
  await act(async () => fireEvent.click(within(tip).getByText(/^更\s?换$/, { selector: 'button span' })));
  expect(sent(umsApi.rotateCallbackSecret)).toHaveLength(1);
  expect(await screen.findByText(NEW)).toBeInTheDocument();
});
