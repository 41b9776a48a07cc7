import { getInitialState, render } from '@/app';
import { FetchError } from '@/services/http';
import { probeCurrentUser } from '@/services/probes';

jest.mock('@/services/probes', () => ({ probeCurrentUser: jest.fn() }));
const me = jest.mocked(probeCurrentUser);

const alice = { uid: 3, username: 'alice', nickname: '爱丽丝', avatar: null, roles: ['njit' as const] };

beforeEach(() => {
  localStorage.clear();
  me.mockReset();
});

describe('getInitialState', () => {
  it('keeps the user from GET /api/user/me and mirrors it in localStorage', async () => {
    me.mockResolvedValue({ success: true, data: alice });
    await expect(getInitialState()).resolves.toEqual({ currentUser: alice });
    expect(me).toHaveBeenCalledWith();
    expect(JSON.parse(localStorage.getItem('initialState')!)).toEqual(alice);
  });

  it("gives a null user on success:false and clears the stored record and the forms' drafts", async () => {
    localStorage.setItem('initialState', JSON.stringify(alice));
    me.mockResolvedValue({ success: false } as never);
    await expect(getInitialState()).resolves.toEqual({ currentUser: null });
    expect(localStorage.getItem('initialState')).toBeNull();
  });

  it('gives a null user on a 401 answer without logging an error', async () => {
    const spy = jest.spyOn(console, 'error').mockImplementation(() => {});
    me.mockRejectedValue(new FetchError(401, 'Unauthorized', { success: false }));
    await expect(getInitialState()).resolves.toEqual({ currentUser: null });
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });

  it('gives a null user and logs the failure on a network error', async () => {
    const spy = jest.spyOn(console, 'error').mockImplementation(() => {});
    localStorage.setItem('initialState', JSON.stringify(alice));
    const failure = new Error('Network Error');
    me.mockRejectedValue(failure);
    await expect(getInitialState()).resolves.toEqual({ currentUser: null });
    expect(spy).toHaveBeenCalledWith(expect.any(String), failure);
    expect(localStorage.getItem('initialState')).toBeNull();
    spy.mockRestore();
  });

  it('is asked for before the first render, and that answer serves the first getInitialState only', async () => {
    me.mockResolvedValue({ success: true, data: alice });
    const oldRender = jest.fn();
    render(oldRender);
    expect(me).toHaveBeenCalledTimes(1); // before React renders anything
    expect(oldRender).toHaveBeenCalledTimes(1);
    await expect(getInitialState()).resolves.toEqual({ currentUser: alice });
    expect(me).toHaveBeenCalledTimes(1);
    // A later refresh (after signing in, say) asks again.
    me.mockResolvedValue({ success: false } as never);
    await expect(getInitialState()).resolves.toEqual({ currentUser: null });
    expect(me).toHaveBeenCalledTimes(2);
  });
});
