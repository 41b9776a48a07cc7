/** The channel form's values as request bodies: only a kind's own fields, secrets and quiet hours only when changed. */
import { createBody, initialValues, patchBody } from '@/pages/UMS/self/components/channelBody';
import dayjs from 'dayjs';
import { defaultChannel, hookChannel } from './fixtures';

const at = (hhmm: string) => dayjs(`2000-01-01T${hhmm}`);

it('a new channel carries its quiet hours as HH:mm, across midnight', () => {
  expect(
    createBody({ kind: 'email', name: '邮箱', email: ' me@njit.edu.cn ', quiet: [at('22:00'), at('07:30')] }),
  ).toEqual({
    kind: 'email',
    name: '邮箱',
    email: 'me@njit.edu.cn',
    isDefault: false,
    quietStart: '22:00',
    quietEnd: '07:30',
  });
});

it('an edit sends quiet hours only when they changed, and empty strings to remove them', () => {
  const quiet = { ...defaultChannel, quietHours: { start: '22:00', end: '07:00' } };
  const untouched = initialValues(quiet);
  expect(untouched.quiet?.map((d) => (typeof d === 'string' ? d : d.format('HH:mm')))).toEqual(['22:00', '07:00']);
  expect(patchBody(untouched, quiet)).not.toHaveProperty('quietStart');
  expect(patchBody({ ...untouched, quiet: [at('23:00'), at('07:00')] }, quiet)).toMatchObject({
    quietStart: '23:00',
    quietEnd: '07:00',
  });
  expect(patchBody({ ...untouched, quiet: null }, quiet)).toMatchObject({ quietStart: '', quietEnd: '' });
  expect(patchBody({ ...initialValues(defaultChannel), quiet: null }, defaultChannel)).not.toHaveProperty('quietStart');
});

it('a webhook edit keeps its headers unless rows were typed or removal asked for', () => {
  const v = initialValues(hookChannel);
  expect(patchBody(v, hookChannel)).not.toHaveProperty('headers');
  expect(patchBody({ ...v, headers: [{ name: 'X-Key', value: 'v' }] }, hookChannel).headers).toEqual([
    { name: 'X-Key', value: 'v' },
  ]);
  expect(patchBody({ ...v, removeHeaders: true }, hookChannel).headers).toEqual([]);
  // A robot's fields never travel with a webhook, nor a webhook's with a robot.
  expect(patchBody(v, hookChannel)).not.toHaveProperty('secret');
  expect(patchBody(initialValues(defaultChannel), defaultChannel)).not.toHaveProperty('method');
});

it('the overflow digest travels as seconds when turned on or changed, and null when turned off', () => {
  expect(
    createBody({ kind: 'wecom', name: 'w', webhook: 'https://x', digestOn: true, digestAfterSeconds: 90 }),
  ).toMatchObject({
    digestAfterSeconds: 90,
  });
  expect(createBody({ kind: 'wecom', name: 'w', webhook: 'https://x', digestOn: false })).not.toHaveProperty(
    'digestAfterSeconds',
  );
  const on = { ...defaultChannel, digestAfterSeconds: 120 };
  expect(patchBody(initialValues(on), on)).not.toHaveProperty('digestAfterSeconds');
  expect(patchBody({ ...initialValues(on), digestAfterSeconds: 300 }, on).digestAfterSeconds).toBe(300);
  expect(patchBody({ ...initialValues(on), digestOn: false }, on).digestAfterSeconds).toBeNull();
});
