import access from '@/access';
import type { CurrentUser } from '@/contract';

const user = (roles: CurrentUser['roles']): CurrentUser => ({
  uid: 7,
  username: 'alice',
  nickname: null,
  avatar: null,
  roles,
});

describe('access flags', () => {
  it.each([
    [
      'anonymous (no initial state)',
      undefined,
      { isLoggedIn: false, isAdmin: false, isNjit: false, isNjitAdmin: false },
    ],
    [
      'anonymous (null user)',
      { currentUser: null },
      { isLoggedIn: false, isAdmin: false, isNjit: false, isNjitAdmin: false },
    ],
    ['plain user', { currentUser: user([]) }, { isLoggedIn: true, isAdmin: false, isNjit: false, isNjitAdmin: false }],
    [
      'njit user',
      { currentUser: user(['njit']) },
      { isLoggedIn: true, isAdmin: false, isNjit: true, isNjitAdmin: false },
    ],
    ['admin', { currentUser: user(['admin']) }, { isLoggedIn: true, isAdmin: true, isNjit: false, isNjitAdmin: false }],
    [
      'admin + njit',
      { currentUser: user(['admin', 'njit']) },
      { isLoggedIn: true, isAdmin: true, isNjit: true, isNjitAdmin: true },
    ],
  ])('%s', (_name, state, expected) => {
    expect(access(state)).toEqual(expected);
  });

  it('treats uid 0 as logged in (a uid is present)', () => {
    expect(access({ currentUser: { ...user([]), uid: 0 } }).isLoggedIn).toBe(true);
  });
});
