/** Shared by the OCS AI tests: an admin, a provider on the fake OpenAI server, users with tokens. */
import { sql } from 'kysely';
import type { OcsAiAnswerer } from '../../../server/modules/ocs/ai/answerer';
import { credit } from '../../../server/modules/ocs/wallet/balance';
import { loggedInClient, type Client, type TestContext } from '../helpers';

export const API_KEY = 'sk-test-SECRET-key-0123456789abcdef';

export async function adminClient(ctx: TestContext): Promise<Client> {
  return (await loggedInClient(ctx, ['admin'])).client;
}

export async function createProvider(admin: Client, url: string, name = 'fake', apiKey = API_KEY): Promise<number> {
  const res = await admin.post('/api/ocs/admin/providers', { name, baseURL: url, apiKey });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json().data.id;
}

export async function createModel(
  admin: Client,
  providerId: number,
  over: Record<string, unknown> = {},
): Promise<number> {
  const res = await admin.post('/api/ocs/admin/models', {
    providerId,
    model: 'fake-model',
    displayName: '测试模型',
    price: 3,
    ...over,
  });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json().data.id;
}

export async function userWithToken(ctx: TestContext, balance: number) {
  const { client, uid } = await loggedInClient(ctx);
  const res = await client.post('/api/user/tokens', { name: 'ocs', scopes: ['ocs:query'], expiresInDays: null });
  const token = res.json().data.token as string;
  if (balance > 0) await credit(ctx.db, uid, 'topup', balance, '测试充值');
  return { client, uid, token };
}

export function query(ctx: TestContext, params: Record<string, string>) {
  return ctx.app.inject({ method: 'GET', url: '/api/ocs/query', query: params });
}

export const balanceOf = async (ctx: TestContext, uid: number) =>
  Number(
    (await ctx.db.selectFrom('ocs_wallets').select('balance').where('user_id', '=', uid).executeTakeFirst())?.balance ??
      0,
  );

export const ledgerOf = (ctx: TestContext, uid: number) =>
  ctx.db
    .selectFrom('ocs_ledger')
    .select(['kind', 'amount', 'balance_after', 'query_id'])
    .where('user_id', '=', uid)
    .orderBy('id')
    .execute();

export const ledgerSum = async (ctx: TestContext, uid: number) =>
  Number(
    (
      await sql<{ s: number }>`select coalesce(sum(amount), 0) as s from ocs_ledger where user_id = ${uid}`.execute(
        ctx.db,
      )
    ).rows[0]!.s,
  );

export const answerer = (ctx: TestContext) => ctx.app.ocs.service.ai as OcsAiAnswerer;

/** Waits for a condition the event loop will bring about (requests reaching a stalled provider). */
export async function until(cond: () => boolean, what: string, limitMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!cond()) {
    if (Date.now() - started > limitMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}
