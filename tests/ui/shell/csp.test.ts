/**
 * The portal's Content-Security-Policy allows no eval (server/plugins/external.ts). zod compiles fast
 * parsers with `new Function` when it may, and probes for that on its first object parse; refused,
 * the probe was reported as a CSP violation on every page that validated a form (Lighthouse: best
 * practices 96). In a browser the contract tells zod not to try.
 */
import { z } from 'zod';
import { LoginBody } from '@/contract';

test('zod never calls new Function in the browser', () => {
  expect(z.config().jitless).toBe(true);
  const spy = jest.spyOn(globalThis, 'Function');
  try {
    expect(LoginBody.safeParse({ username: 'a', password: 'b' }).success).toBe(true);
    expect(spy).not.toHaveBeenCalled();
  } finally {
    spy.mockRestore();
  }
});
