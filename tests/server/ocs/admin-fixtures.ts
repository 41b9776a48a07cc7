/**
 * Shared helpers of the OCS tests: bank files, upload/commit through the API, questions written to the
 * bank, a query token.
 */
import { prepareQuestion, type PreparedQuestion, type QuestionInput } from '../../../server/modules/ocs/bank/question';
import { upsertQuestions } from '../../../server/modules/ocs/bank/store';
import { credit } from '../../../server/modules/ocs/wallet/balance';
import { loggedInClient, multipart, type Client, type TestContext } from '../helpers';

/** A question as the bank stores it; throws on one the bank refuses (a test's own data is valid). */
export function preparedQuestion(q: QuestionInput): PreparedQuestion {
  const p = prepareQuestion(q);
  if ('error' in p) throw new Error(p.error);
  return p;
}

/**
 * Questions written to the bank as an import writes them, then told to the indexes, as every writer
 * does after its commit; resolves once memory has read them back. Returns the rows written.
 */
export async function seedQuestions(ctx: TestContext, questions: QuestionInput[]) {
  const { rows } = await upsertQuestions(ctx.db, questions.map(preparedQuestion), 'import');
  for (const row of rows) ctx.app.ocs.bank.index.add(row.id, row.norm_title);
  await ctx.app.ocs.bank.settled();
  return rows;
}

export function csv(rows: (string | number)[][]): string {
  const cell = (v: string | number) => (/[",\r\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
  return rows.map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}

export function upload(client: Client, content: Buffer | string, filename: string) {
  const body = multipart('file', filename, Buffer.isBuffer(content) ? content : Buffer.from(content));
  return client.request({
    method: 'POST',
    url: '/api/ocs/admin/bank/imports',
    payload: body.payload,
    headers: body.headers,
  });
}

/** Polls the job until it leaves `running`; returns every snapshot seen (the last is final). */
export async function waitForJob(client: Client, id: string) {
  const seen: {
    status: string;
    done: number;
    total: number;
    inserted: number;
    updated: number;
    error: string | null;
  }[] = [];
  for (let i = 0; i < 600; i++) {
    const res = await client.get(`/api/ocs/admin/bank/imports/${id}`);
    if (res.statusCode !== 200) throw new Error(`job ${res.statusCode}: ${res.body}`);
    seen.push(res.json().data);
    if (seen[seen.length - 1]!.status !== 'running') return seen;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('import job did not finish');
}

/** Upload, then commit and wait; fails the test on any non-200. */
export async function importFile(client: Client, content: Buffer | string, filename: string) {
  const res = await upload(client, content, filename);
  if (res.statusCode !== 200) throw new Error(`upload failed ${res.statusCode}: ${res.body}`);
  const preview = res.json().data;
  const commit = await client.post(`/api/ocs/admin/bank/imports/${preview.id}/commit`, {});
  if (commit.statusCode !== 200) throw new Error(`commit failed ${commit.statusCode}: ${commit.body}`);
  const seen = await waitForJob(client, preview.id);
  return { preview, job: seen[seen.length - 1]!, seen };
}

/** A user with an ocs:query token and some points. */
/** The notices that a user's points run low, oldest first. */
export const lowBalanceNotices = (ctx: TestContext, uid: number) =>
  ctx.db
    .selectFrom('notifications')
    .select(['title', 'body', 'link'])
    .where('user_id', '=', uid)
    .where('kind', '=', 'ocs.balance.low')
    .orderBy('id')
    .execute();

export async function userWithToken(ctx: TestContext, balance = 100) {
  const { client, uid, username } = await loggedInClient(ctx);
  const res = await client.post('/api/user/tokens', { name: 'ocs', scopes: ['ocs:query'], expiresInDays: null });
  const token = res.json().data.token as string;
  if (balance > 0) await credit(ctx.db, uid, 'topup', balance, '测试充值');
  return { client, uid, username, token };
}

export function ask(ctx: TestContext, token: string, title: string, type?: string, options?: string) {
  return ctx.app
    .inject({
      method: 'GET',
      url: '/api/ocs/query',
      query: { token, title, ...(type ? { type } : {}), ...(options ? { options } : {}) },
    })
    .then((r) => r.json());
}
