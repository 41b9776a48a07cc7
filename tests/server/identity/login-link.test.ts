/**
 * An attacker who fails once each time the account's delay ends keeps every browser the account does
 * not know waiting — the owner's new browser too. With mail configured and a verified address, the
 * right password from such a browser earns a sign-in link by e-mail instead of the wait; the answer is
 * the same for a wrong password (nothing to learn from it, and the attacker stays as slow as before).
 * Against a real SMTP server on loopback (tests/fixtures/mailbox.ts).
 */
import { sql } from 'kysely';
import { sendLoginLink, LOGIN_LINKS_PER_HOUR } from '../../../server/modules/user/identity/email';
import type { MailMessage } from '../../../server/modules/user/identity/mailer';
import { sha256 } from '../../../server/lib/tokens';
import { linkIn, type Mailbox, type ReceivedMail } from '../../fixtures/mailbox';
import { Client, loggedInClient, uniqueName, type TestContext } from '../helpers';
import { MAIL_BASE as BASE, startMailApp } from './helpers';

let mailbox: Mailbox;
let ctx: TestContext;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ ctx, mailbox, close } = await startMailApp());
});
afterAll(async () => {
  await close?.();
});

/** A mailer that keeps what it sends, and the owner's link target, for sendLoginLink itself. */
const recording = (owner: { uid: number; username: string; address: string }) => {
  const sent: MailMessage[] = [];
  const mailer = { enabled: true, send: async (m: MailMessage) => void sent.push(m), close: () => undefined };
  const to = { user: { id: owner.uid, username: owner.username }, email: owner.address };
  return { sent, mail: { mailer, baseUrl: BASE }, to };
};

const tokenOf = (mail: ReceivedMail) => new URL(linkIn(mail)).hash.replace('#token=', '');

/** A browser at an address, with its own cookies. */
const browserAt = (ip: string) => {
  const client = new Client(ctx.app);
  return {
    client,
    login: (username: string, password: string) =>
      client.request({ method: 'POST', url: '/api/user/login', remoteAddress: ip, payload: { username, password } }),
  };
};

/** A user whose address is verified (through the real verification mail), signed out everywhere. */
async function ownerWithEmail() {
  const u = await loggedInClient(ctx, [], 'right-password-1');
  const address = `${u.username}@example.edu`;
  await u.client.request({ method: 'PUT', url: '/api/user/email', payload: { email: address } });
  const mail = await mailbox.waitFor((m) => m.to.includes(address) && m.subject.includes('验证'));
  expect((await new Client(ctx.app).post('/api/user/email/verify', { token: tokenOf(mail) })).statusCode).toBe(200);
  await u.client.post('/api/user/logout');
  return { ...u, address };
}

/** Five failures from five addresses: the account now makes unknown browsers wait. */
async function attack(username: string, round: string) {
  for (let i = 0; i < 5; i++) {
    expect((await browserAt(`10.60.${round}.${i}`).login(username, `wrong-${i}-pw`)).statusCode).toBe(401);
  }
}

const failures = async (username: string) =>
  Number(
    (
      await ctx.db
        .selectFrom('login_failures')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('username', '=', username.toLowerCase())
        .executeTakeFirstOrThrow()
    ).n,
  );

test('under attack, the owner’s new browser with the right password gets a sign-in link; a wrong password the same answer and no mail', async () => {
  const owner = await ownerWithEmail();
  await attack(owner.username, '1');

  // The attacker tries again while the delay runs: the same answer the owner will get, and it counts.
  const before = await failures(owner.username);
  const wrong = await browserAt('10.60.1.9').login(owner.username, 'still-wrong-pw');
  expect(await failures(owner.username)).toBe(before + 1);

  // The owner, from a browser the account does not know, with the right password.
  const right = await browserAt('10.61.0.1').login(owner.username, 'right-password-1');
  expect(right.statusCode).toBe(200);
  expect(right.json()).toEqual({ success: true, data: { loginLink: true, minutes: 15 } });
  expect({ status: wrong.statusCode, body: wrong.json() }).toEqual({ status: right.statusCode, body: right.json() });
  expect(right.cookies.find((c) => c.name === 'portal_sid')).toBeUndefined(); // no session from the password alone

  const mail = await mailbox.waitFor((m) => m.to.includes(owner.address) && m.subject === '统一门户：登录链接');
  const link = new URL(linkIn(mail));
  expect(`${link.origin}${link.pathname}`).toBe(`${BASE}/user/loginLink`);
  expect(link.search).toBe('');
  // One mail only: the wrong password sent none.
  expect(
    mailbox.messages.filter((m) => m.to.includes(owner.address) && m.subject === '统一门户：登录链接'),
  ).toHaveLength(1);

  // The link signs in the browser that opens it, once.
  const phone = new Client(ctx.app);
  const opened = await phone.post('/api/user/login/link', { token: tokenOf(mail) });
  expect(opened.statusCode).toBe(200);
  expect(opened.json().data).toMatchObject({ uid: owner.uid, username: owner.username });
  expect((await phone.get('/api/user/me')).statusCode).toBe(200);
  const again = await new Client(ctx.app).post('/api/user/login/link', { token: tokenOf(mail) });
  expect(again.statusCode).toBe(400);
  expect(again.json().data).toHaveProperty('token');

  // The attacker is as slow as before: without the mailbox, the password alone gives nothing.
  const attacker = await browserAt('10.60.1.10').login(owner.username, 'guess-again-pw');
  expect(attacker.json().data).toEqual({ loginLink: true, minutes: 15 });
});

test('an account without a verified address still waits, as before', async () => {
  const { username } = await loggedInClient(ctx, [], 'right-password-1');
  await attack(username, '2');
  const res = await browserAt('10.62.0.1').login(username, 'right-password-1');
  expect(res.statusCode).toBe(429);
  expect(res.json().errorMessage).toMatch(/常用浏览器上登录不受影响/);
});

test('an unknown username waits like any other', async () => {
  const username = uniqueName('ghost');
  await attack(username, '3');
  expect((await browserAt('10.63.0.1').login(username, 'whatever-pw')).statusCode).toBe(429);
});

test('a link of a disabled account, an expired link or a made-up one signs nobody in', async () => {
  const owner = await ownerWithEmail();
  const { sent, mail, to } = recording(owner);
  await sendLoginLink(ctx.db, mail, to);
  await sendLoginLink(ctx.db, mail, to);
  const [expired, disabled] = sent.map((m) => new URL(/https?:\/\/\S+/.exec(m.text)![0]).hash.replace('#token=', ''));
  await ctx.db
    .updateTable('email_tokens')
    .set({ expires_at: sql`now() - interval '1 minute'` })
    .where('token_hash', '=', sha256(expired))
    .execute();
  expect((await new Client(ctx.app).post('/api/user/login/link', { token: expired })).statusCode).toBe(400);
  await ctx.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', owner.uid).execute();
  expect((await new Client(ctx.app).post('/api/user/login/link', { token: disabled })).statusCode).toBe(400);
  expect((await new Client(ctx.app).post('/api/user/login/link', { token: 'x'.repeat(43) })).statusCode).toBe(400);
});

test(`at most ${LOGIN_LINKS_PER_HOUR} links an hour reach one address`, async () => {
  const owner = await ownerWithEmail();
  const { sent, mail, to } = recording(owner);
  const results = [];
  for (let i = 0; i < LOGIN_LINKS_PER_HOUR + 2; i++) results.push(await sendLoginLink(ctx.db, mail, to));
  expect(results).toEqual([...Array(LOGIN_LINKS_PER_HOUR).fill(true), false, false]);
  expect(sent).toHaveLength(LOGIN_LINKS_PER_HOUR);
});
