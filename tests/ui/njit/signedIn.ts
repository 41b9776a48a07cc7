/**
 * The access flags src/access.ts computes for a user with these roles, as the page reads them. The test
 * file mocks '@@/plugin-access' (jest.mock is per file), so useAccess here is that file's mock.
 */
import { useAccess } from '@@/plugin-access';
import access from '@/access';

export function as(roles: ('admin' | 'njit')[]) {
  jest
    .mocked(useAccess)
    .mockReturnValue(access({ currentUser: { uid: 2, username: 'staff', nickname: null, avatar: null, roles } }));
}
