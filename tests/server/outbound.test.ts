/**
 * Which addresses count as inside the server's network (server/lib/outbound.ts): the addresses that
 * webhooks, callbacks, upstream banks and AI providers may not reach. Public addresses, IPv4 ones
 * included, must stay reachable: every DNS answer a delivery gets is checked by the same function.
 */
import { isPrivateAddress, pointsInward } from '../../server/lib/outbound';

describe('isPrivateAddress', () => {
  test.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '64:ff9b::a00:1',
  ])('%s is inside', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  test.each(['8.8.8.8', '1.1.1.1', '192.0.2.1', '203.0.113.7', '::ffff:8.8.8.8', '2001:db8::1', '2400:3200::1'])(
    '%s is outside',
    (address) => {
      expect(isPrivateAddress(address)).toBe(false);
    },
  );
});

test('a public address as written is not inward; a loopback one is unless allow-listed', () => {
  expect(pointsInward('https://oapi.dingtalk.com/robot/send', [])).toBe(false);
  expect(pointsInward('http://203.0.113.7/v1', [])).toBe(false);
  expect(pointsInward('http://127.0.0.1:8080/v1', [])).toBe(true);
  expect(pointsInward('http://127.0.0.1:8080/v1', ['http://127.0.0.1:8080'])).toBe(false);
  expect(pointsInward('http://localhost./x', [])).toBe(true);
});
