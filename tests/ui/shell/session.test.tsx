/**
 * A session that ends while a page is open: the request layer's 401 handling (src/requestErrorConfig.ts)
 * and what the shell does then (src/components/session.tsx), in the whole shell (Umi's TestBrowser).
 */
import { TestBrowser } from '@@/testBrowser';
import { SESSION_REQUIRED } from '@/requestDefaults';
import { request } from '@/app';
import { endsSession } from '@/requestErrorConfig';
import { probeCurrentUser } from '@/services/probes';
import { act, render, screen, waitFor } from '@testing-library/react';

jest.mock('@/services/call');

jest.mock('@/services/probes', () => ({
  fetchCurrentUser: jest.fn(),
  probeCurrentUser: jest.fn(),
  fetchAuthSettings: jest.fn().mockResolvedValue({
    success: true,
    data: { registration: 'open', passwordReset: false, sso: { cas: null, oidc: null } },
  }),
  fetchHealth: jest.fn().mockResolvedValue({
    success: true,
    data: { status: 'ok', database: 'ok', version: 't', uptimeSeconds: 1 },
  }),
}));
const carol = { uid: 5, username: 'carol', nickname: null, avatar: null, roles: ['njit' as const] };

/** What axios rejects with for an answer of `status` to a call made with these request options. */
const failure = (status: number, options: Record<string, unknown>) => ({
  name: 'AxiosError',
  message: `Request failed with status code ${status}`,
  config: options,
  response: { status, data: { success: false, errorCode: 'UNAUTHORIZED', errorMessage: '请先登录' } },
});

// The app's own request config: the interceptor as the shell wires it.
const [, onRejected] = request.responseInterceptors![0] as [unknown, (e: unknown) => Promise<unknown>];

describe('which failures end the session', () => {
  it('is a 401 from an endpoint that needs a session, nothing else', () => {
    expect(endsSession(failure(401, { [SESSION_REQUIRED]: true }))).toBe(true);
    // A public endpoint's 401 is a wrong password or code: the login page shows it.
    expect(endsSession(failure(401, { [SESSION_REQUIRED]: false }))).toBe(false);
    expect(endsSession(failure(403, { [SESSION_REQUIRED]: true }))).toBe(false);
    expect(endsSession({ request: {}, config: { [SESSION_REQUIRED]: true } })).toBe(false); // no answer at all
  });

  it('passes any other failure on to the caller', async () => {
    const wrongPassword = failure(401, { [SESSION_REQUIRED]: false });
    await expect(onRejected(wrongPassword)).rejects.toBe(wrongPassword);
  });
});

describe('a session that ends while a page is open', () => {
  beforeEach(() => {
    localStorage.clear();
    jest.mocked(probeCurrentUser).mockResolvedValue({ success: true, data: carol });
  });

  it('shows one message however many calls fail, clears the user and opens the login page with the way back', async () => {
    const history: { current: any } = { current: undefined };
    render(<TestBrowser location={{ pathname: '/home', search: '?tab=2' }} historyRef={history} />);
    expect(await screen.findByText('carol', {}, { timeout: 15000 })).toBeInTheDocument();
    expect(localStorage.getItem('initialState')).not.toBeNull();

    // Three calls of the page fail at once; none of them settles (no page shows an error or an empty list).
    let settled = 0;
    act(() => {
      for (let i = 0; i < 3; i++) {
        onRejected(failure(401, { [SESSION_REQUIRED]: true })).then(
          () => settled++,
          () => settled++,
        );
      }
    });
    await waitFor(() => expect(history.current.location.pathname).toBe('/user/login'));
    expect(history.current.location.search).toBe('?redirect=%2Fhome%3Ftab%3D2');
    expect(await screen.findByText('登录已过期，请重新登录')).toBeInTheDocument();
    expect(screen.getAllByText('登录已过期，请重新登录')).toHaveLength(1);
    expect(localStorage.getItem('initialState')).toBeNull();
    await screen.findByRole('button', { name: /登\s*录/ }, { timeout: 15000 });
    expect(settled).toBe(0);

    // The shell no longer holds the user: the public home page names a visitor.
    act(() => history.current.push('/home'));
    expect(await screen.findByText('未登录', {}, { timeout: 15000 })).toBeInTheDocument();
  });
});
