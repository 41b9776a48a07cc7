/** Shared steps of the institutional sign-in tests: TOTP codes, enrolment, a sign-in in two steps. */
import { authenticator } from 'otplib';
import type { Kysely } from 'kysely';
import type { DB } from '../../../server/db/schema';
import { Mailbox } from '../../fixtures/mailbox';
import { Client, startTestApp, type TestContext } from '../helpers';

/** The public base URL of the apps that send account mail (links point there). */
export const MAIL_BASE = 'http://portal.test';

/** An app that sends account mail to a real SMTP server on loopback; close() stops both. */
export async function startMailApp(): Promise<{ ctx: TestContext; mailbox: Mailbox; close(): Promise<void> }> {
  const mailbox = await new Mailbox().start();
  const ctx = await startTestApp({
    SMTP_URL: mailbox.url,
    SMTP_FROM: '统一门户 <portal@example.edu>',
    PUBLIC_URL: MAIL_BASE,
  });
  return {
    ctx,
    mailbox,
    async close() {
      await ctx.close();
      await mailbox.stop();
    },
  };
}

const base = authenticator.clone({ window: 1 });

/** The code an authenticator app shows `steps` time steps (30 s each) from now. */
export function totp(secret: string, steps = 0): string {
  return base.clone({ epoch: Date.now() + steps * 30_000 }).generate(secret);
}

/** Sets up two-factor sign-in for the client's user; returns the secret and the recovery codes. */
export async function enrol(client: Client): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await client.post('/api/user/2fa/setup');
  if (setup.statusCode !== 200) throw new Error(`setup: ${setup.body}`);
  const secret = setup.json().data.secret as string;
  const enabled = await client.post('/api/user/2fa/enable', { code: totp(secret) });
  if (enabled.statusCode !== 200) throw new Error(`enable: ${enabled.body}`);
  return { secret, recoveryCodes: enabled.json().data.recoveryCodes as string[] };
}

/**
 * Time passes for the authenticator: the last accepted step is forgotten, so the current code works
 * again (a test cannot wait 30 seconds between sign-ins).
 */
export async function nextWindow(db: Kysely<DB>, userId: number): Promise<void> {
  await db.updateTable('user_two_factor').set({ last_step: null }).where('user_id', '=', userId).execute();
}

export const sessionOf = (c: Client) => c.cookies.get('portal_sid');
