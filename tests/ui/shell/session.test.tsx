/**
 * A session that ends while a page is open: the request layer's 401 handling (src/requestErrorConfig.ts)
 * and what the shell does then (src/components/session.tsx), in the whole shell (Umi's TestBrowser).
 */
import { TestBrowser } from '@@/testBrowser';
import { SESSION_REQUIRED } from '@/requestDefaults';
import { request } from '@/app';
import { endsSession, refusedForRole } from '@/requestErrorConfig';
import { call } from '@/services/call';
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
const failure = (status: number, options: Record<string, unknown>, errorCode = 'UNAUTHORIZED') => ({
  name: 'AxiosError',
  message: `Request failed with status code ${status}`,
  config: options,
  response: { status, data: { success: false, errorCode, errorMessage: '请先登录' } },
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

describe('a role taken away while a page is open', () => {
  beforeEach(() => {
    localStorage.clear();
    jest.mocked(probeCurrentUser).mockReset();
  });

  it('is a 403 FORBIDDEN from an endpoint that needs a session', () => {
    expect(refusedForRole(failure(403, { [SESSION_REQUIRED]: true }, 'FORBIDDEN'))).toBe(true);
    expect(refusedForRole(failure(403, { [SESSION_REQUIRED]: false }, 'FORBIDDEN'))).toBe(false);
    expect(refusedForRole(failure(403, { [SESSION_REQUIRED]: true }, 'TWO_FACTOR_ENROLLMENT_REQUIRED'))).toBe(false);
    expect(refusedForRole(failure(401, { [SESSION_REQUIRED]: true }, 'FORBIDDEN'))).toBe(false);
  });

  it('asks once who the user is, however many calls were refused, and the shell takes the new roles', async () => {
    jest.mocked(probeCurrentUser).mockResolvedValue({ success: true, data: carol });
    // The page's own calls wait: only the shell is under test.
    jest.mocked(call).mockImplementation(() => new Promise(() => undefined));
    const history: { current: any } = { current: undefined };
    render(<TestBrowser location={{ pathname: '/njit/queryStuInfo' }} historyRef={history} />);
    expect(await screen.findByText('carol', {}, { timeout: 15000 })).toBeInTheDocument();
    const asked = jest.mocked(probeCurrentUser).mock.calls.length;

    // The njit role is gone on the server: three calls of the page are refused at once.
    jest.mocked(probeCurrentUser).mockResolvedValue({ success: true, data: { ...carol, roles: [] } });
    const refusals: Promise<unknown>[] = [];
    act(() => {
      for (let i = 0; i < 3; i++) refusals.push(onRejected(failure(403, { [SESSION_REQUIRED]: true }, 'FORBIDDEN')));
    });
    // Each still fails for its page, as before.
    await Promise.all(refusals.map((r) => expect(r).rejects.toMatchObject({ response: { status: 403 } })));
    await waitFor(() => expect(JSON.parse(localStorage.getItem('initialState')!).roles).toEqual([]));
    expect(jest.mocked(probeCurrentUser).mock.calls.length).toBe(asked + 1);
    await new Promise((r) => setTimeout(r, 3000));
    console.log(document.body.textContent);
    // The shell follows: the lookup's tab closes, with a word why, and its page gives way to home.
    expect(
      await screen.findByText('你已无权访问「学生信息查询」，该页面已关闭', {}, { timeout: 15000 }),
    ).toBeInTheDocument();
    await waitFor(() => expect(history.current.location.pathname).toBe('/home'));
    expect(screen.queryByRole('tab', { name: /学生信息查询/ })).toBeNull();
  });
});
