/**
 * Redeem codes end to end: unguessable codes in an unambiguous alphabet, the one-time CSV, typing
 * tolerance, use limits under concurrency, expiry, disabled batches, one redemption per user, the
 * wrong-code limit, audit rows, the ledger invariant, and admin-only batch routes.
 */
import { sql } from 'kysely';
import { CODE_ALPHABET, CODE_BITS, formatCode } from '../../../src/contract';
import { generateCode } from '../../../server/modules/ocs/wallet/redeem-code';
import { loggedInClient, startTestApp, type Client, type TestContext } from '../helpers';

let ctx: TestContext;
let admin: Client;
beforeAll(async () => {
  ctx = await startTestApp();
  admin = (await loggedInClient(ctx, ['admin'])).client;
});
afterAll(async () => {
  await ctx.close();
});

const CODE_SHAPE = /^[2-9A-HJKMNP-TV-Z]{4}(-[2-9A-HJKMNP-TV-Z]{4}){4}$/;

/** Creates a batch and downloads its codes (the only way to see them). */
async function newBatch(body: Record<string, unknown>): Promise<{ id: number; codes: string[] }> {
  const res = await admin.post('/api/ocs/admin/redeem-batches', { value: 50, count: 1, maxUses: 1, ...body });
  if (res.statusCode !== 200) throw new Error(`create: ${res.body}`);
  const id = res.json().data.id as number;
  const csv = await admin.get(`/api/ocs/admin/redeem-batches/${id}/codes.csv`);
  if (csv.statusCode !== 200) throw new Error(`csv: ${csv.body}`);
  const codes = csv.body
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n')
    .slice(1)
    .map((l) => l.split(',')[0]!);
  return { id, codes };
}

const redeem = (client: Client, code: string) => client.post('/api/ocs/redeem', { code });
const balanceOf = async (uid: number) =>
  Number(
    (await ctx.db.selectFrom('ocs_wallets').select('balance').where('user_id', '=', uid).executeTakeFirst())?.balance ??
      0,
  );
const batch = async (id: number) =>
  ((await admin.get('/api/ocs/admin/redeem-batches?pageSize=100')).json().data as { id: number }[]).find(
    (b) => b.id === id,
  ) as Record<string, unknown>;

describe('code format', () => {
  test('20 symbols of a 30-symbol alphabet without 0/O/1/I/L: at least 80 bits, grouped by 4', () => {
    expect(CODE_ALPHABET).toHaveLength(30);
    expect(CODE_ALPHABET).not.toMatch(/[01OIL]/);
    expect(new Set(CODE_ALPHABET).size).toBe(30);
    expect(CODE_BITS).toBeGreaterThanOrEqual(80);
    const codes = Array.from({ length: 2000 }, generateCode);
    expect(new Set(codes).size).toBe(2000);
    for (const c of codes) {
      expect(c).toHaveLength(20);
      expect([...c].every((ch) => CODE_ALPHABET.includes(ch))).toBe(true);
      expect(formatCode(c)).toMatch(CODE_SHAPE);
    }
    // Every symbol shows up: the generator draws from the whole alphabet.
    expect(new Set(codes.join('')).size).toBe(30);
  });
});

describe('batches', () => {
  test('a batch is created, its codes are stored only as hashes plus an encrypted copy, and download once', async () => {
    const res = await admin.post('/api/ocs/admin/redeem-batches', {
      value: 30,
      count: 3,
      maxUses: 2,
      note: '开学活动',
    });
    expect(res.statusCode).toBe(200);
    const created = res.json().data;
    expect(created).toMatchObject({
      value: 30,
      maxUses: 2,
      codeCount: 3,
      note: '开学活动',
      status: 'active',
      uses: 0,
      remainingUses: 6,
      remainingCodes: 3,
      redeemedBy: 0,
      downloadedAt: null,
      expiresAt: null,
      disabled: false,
    });
    const stored = await ctx.db.selectFrom('ocs_redeem_codes').selectAll().where('batch_id', '=', created.id).execute();
    expect(stored).toHaveLength(3);
    for (const row of stored) {
      expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.code_enc).toMatch(/^v1:/);
    }

    const csv = await admin.get(`/api/ocs/admin/redeem-batches/${created.id}/codes.csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toContain('attachment');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('兑换码,面值,可用次数,过期时间,备注');
    expect(lines).toHaveLength(4);
    const codes = lines.slice(1).map((l) => l.split(','));
    for (const c of codes) {
      expect(c[0]).toMatch(CODE_SHAPE);
      expect(c.slice(1)).toEqual(['30', '2', '永不过期', '开学活动']);
      for (const row of stored) expect(JSON.stringify(row)).not.toContain(c[0]!.replace(/-/g, ''));
    }

    const after = await ctx.db
      .selectFrom('ocs_redeem_codes')
      .select('code_enc')
      .where('batch_id', '=', created.id)
      .execute();
    expect(after.every((r) => r.code_enc === null)).toBe(true);
    const again = await admin.get(`/api/ocs/admin/redeem-batches/${created.id}/codes.csv`);
    expect(again.statusCode).toBe(410);
    expect(again.json().errorMessage).toMatch(/已经下载过一次/);
    expect((await batch(created.id)).downloadedAt).toEqual(expect.any(String));
    expect((await admin.get('/api/ocs/admin/redeem-batches/999999/codes.csv')).statusCode).toBe(404);

    const audit = await ctx.db
      .selectFrom('audit_log')
      .select(['action', 'after'])
      .where('target_type', '=', 'ocs_redeem_batch')
      .where('target_id', '=', String(created.id))
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['ocs.redeem_batch.create', 'ocs.redeem_batch.download']);
    expect(audit[0]!.after).toMatchObject({ value: 30, count: 3, maxUses: 2, note: '开学活动' });
    expect(audit[1]!.after).toEqual({ codes: 3 });
  });

  test('a cross-site link cannot spend the one download', async () => {
    const res = await admin.post('/api/ocs/admin/redeem-batches', { value: 1, count: 1, maxUses: 1 });
    const id = res.json().data.id;
    const evil = await admin.request({
      method: 'GET',
      url: `/api/ocs/admin/redeem-batches/${id}/codes.csv`,
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(evil.statusCode).toBe(403);
    expect((await admin.get(`/api/ocs/admin/redeem-batches/${id}/codes.csv`)).statusCode).toBe(200);
  });

  test('bad batch input is refused with field errors and creates nothing', async () => {
    const before = await ctx.db
      .selectFrom('ocs_redeem_batches')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const cases: [Record<string, unknown>, string][] = [
      [{ value: 0, count: 1, maxUses: 1 }, 'value'],
      [{ value: 1, count: 0, maxUses: 1 }, 'count'],
      [{ value: 1, count: 10_001, maxUses: 1 }, 'count'],
      [{ value: 1, count: 1, maxUses: 0 }, 'maxUses'],
      [{ value: 1.5, count: 1, maxUses: 1 }, 'value'],
      [{ value: 1, count: 1, maxUses: 1, expiresAt: 'tomorrow' }, 'expiresAt'],
      [{ value: 1, count: 1, maxUses: 1, expiresAt: new Date(Date.now() - 60_000).toISOString() }, 'expiresAt'],
      [{ value: 1, count: 1, maxUses: 1, note: 'x'.repeat(201) }, 'note'],
    ];
    for (const [body, field] of cases) {
      const res = await admin.post('/api/ocs/admin/redeem-batches', body);
      expect({ body, status: res.statusCode }).toEqual({ body, status: 400 });
      expect(res.json().data[field]).toBeDefined();
    }
    const after = await ctx.db
      .selectFrom('ocs_redeem_batches')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  test('10,000 codes in one batch', async () => {
    const res = await admin.post('/api/ocs/admin/redeem-batches', {
      value: 1,
      count: 10_000,
      maxUses: 1,
      note: '大批量',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ codeCount: 10_000, remainingCodes: 10_000 });
    const csv = await admin.get(`/api/ocs/admin/redeem-batches/${res.json().data.id}/codes.csv`);
    expect(
      new Set(
        csv.body
          .trim()
          .split('\r\n')
          .slice(1)
          .map((l) => l.split(',')[0]),
      ).size,
    ).toBe(10_000);
  }, 60_000);
});

describe('redeeming', () => {
  test('case and separators do not matter; the ledger row carries the note; twice is refused', async () => {
    const { codes } = await newBatch({ value: 50, maxUses: 5, note: '迎新礼包' });
    const { client, uid } = await loggedInClient(ctx);
    const typed = ` ${codes[0]!.toLowerCase().replace(/-/g, ' ')} `;
    const res = await redeem(client, typed);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ amount: 50, balance: 50, note: '迎新礼包' });
    const ledger = await ctx.db.selectFrom('ocs_ledger').selectAll().where('user_id', '=', uid).execute();
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ kind: 'redeem', memo: '兑换码：迎新礼包' });
    expect(Number(ledger[0]!.amount)).toBe(50);

    const twice = await redeem(client, codes[0]!.replace(/-/g, ''));
    expect(twice.statusCode).toBe(409);
    expect(twice.json().errorMessage).toBe('你已经兑换过这个兑换码了');
    expect(await balanceOf(uid)).toBe(50);
    // Another user can still use the same code (5 uses).
    const other = await loggedInClient(ctx);
    expect((await redeem(other.client, codes[0]!)).statusCode).toBe(200);
  });

  test('a code with 3 uses redeemed by 10 users at once: exactly 3 succeed', async () => {
    const { id, codes } = await newBatch({ value: 7, maxUses: 3, note: '限量' });
    const users = await Promise.all(Array.from({ length: 10 }, () => loggedInClient(ctx)));
    const results = await Promise.all(users.map((u) => redeem(u.client, codes[0]!)));
    const codesSeen = results.map((r) => r.statusCode).sort();
    expect(codesSeen).toEqual([200, 200, 200, 409, 409, 409, 409, 409, 409, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json().errorMessage).toBe('该兑换码已被用完');
    const ledger = await ctx.db
      .selectFrom('ocs_ledger')
      .select('user_id')
      .where('kind', '=', 'redeem')
      .where('memo', '=', '兑换码：限量')
      .execute();
    expect(ledger).toHaveLength(3);
    const redemptions = await sql<{
      n: number;
    }>`select count(*)::int as n from ocs_redemptions r join ocs_redeem_codes c on c.id = r.code_id where c.batch_id = ${id}`.execute(
      ctx.db,
    );
    expect(redemptions.rows[0]!.n).toBe(3);
    expect(await batch(id)).toMatchObject({
      uses: 3,
      remainingUses: 0,
      remainingCodes: 0,
      redeemedBy: 3,
      status: 'used_up',
    });
  });

  test('an expired code is refused and changes nothing', async () => {
    const { id, codes } = await newBatch({ value: 9, expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    await sql`update ocs_redeem_batches set expires_at = now() - interval '1 second' where id = ${id}`.execute(ctx.db);
    const { client, uid } = await loggedInClient(ctx);
    const res = await redeem(client, codes[0]!);
    expect(res.statusCode).toBe(409);
    expect(res.json().errorMessage).toBe('该兑换码已过期');
    expect(await balanceOf(uid)).toBe(0);
    expect(await batch(id)).toMatchObject({ status: 'expired', uses: 0 });
  });

  test('a disabled batch is refused; disabling is audited once', async () => {
    const { id, codes } = await newBatch({ value: 9, maxUses: 2 });
    const res = await admin.post(`/api/ocs/admin/redeem-batches/${id}/disable`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ disabled: true, status: 'disabled' });
    expect((await admin.post(`/api/ocs/admin/redeem-batches/${id}/disable`)).statusCode).toBe(200);
    expect((await admin.post('/api/ocs/admin/redeem-batches/999999/disable')).statusCode).toBe(404);
    const { client, uid } = await loggedInClient(ctx);
    const refused = await redeem(client, codes[0]!);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errorMessage).toBe('该兑换码所属批次已停用');
    expect(await balanceOf(uid)).toBe(0);
    const audit = await ctx.db
      .selectFrom('audit_log')
      .select('action')
      .where('target_id', '=', String(id))
      .where('action', '=', 'ocs.redeem_batch.disable')
      .execute();
    expect(audit).toHaveLength(1);
  });

  test('5 wrong codes a minute, then even a right code is refused with 429 until the minute passes', async () => {
    const { codes } = await newBatch({ value: 11 });
    const { client, uid } = await loggedInClient(ctx);
    const wrong = [
      'ABCD-EFGH-JKMN-PQRS-TVWX',
      'abcd-efgh-jkmn-pqrs-tvw2',
      'not-a-code',
      'ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ',
      '2222-3333-4444-5555-6666',
    ];
    for (const code of wrong) {
      const res = await redeem(client, code);
      expect(res.statusCode).toBe(400);
      expect(res.json().data.code).toHaveLength(1);
    }
    const limited = await redeem(client, codes[0]!);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.json().errorMessage).toMatch(/输错次数过多/);
    expect(await balanceOf(uid)).toBe(0);

    // Someone else's guesses do not count against this user.
    const other = await loggedInClient(ctx);
    expect((await redeem(other.client, 'ABCD-EFGH-JKMN-PQRS-TVWX')).statusCode).toBe(400);

    await sql`update ocs_redeem_failures set at = at - interval '61 seconds' where user_id = ${uid}`.execute(ctx.db);
    const ok = await redeem(client, codes[0]!);
    expect(ok.statusCode).toBe(200);
    expect(await balanceOf(uid)).toBe(11);
  });

  test('empty or oversized input is a 400 that does not count as a guess', async () => {
    const { client, uid } = await loggedInClient(ctx);
    expect((await redeem(client, '   ')).statusCode).toBe(400);
    expect((await redeem(client, 'x'.repeat(65))).statusCode).toBe(400);
    const n = await ctx.db.selectFrom('ocs_redeem_failures').select('id').where('user_id', '=', uid).execute();
    expect(n).toHaveLength(0);
  });

  test('every wallet equals the sum of its ledger afterwards', async () => {
    const off = await sql<{ user_id: number }>`
      select w.user_id from ocs_wallets w
      where w.balance <> (select coalesce(sum(amount), 0) from ocs_ledger l where l.user_id = w.user_id)`.execute(
      ctx.db,
    );
    expect(off.rows).toEqual([]);
  });
});

describe('admin routes refuse a non-admin with 403', () => {
  let user: Client;
  beforeAll(async () => {
    user = (await loggedInClient(ctx)).client;
  });
  test('GET /api/ocs/admin/redeem-batches', async () => {
    expect((await user.get('/api/ocs/admin/redeem-batches')).statusCode).toBe(403);
  });
  test('POST /api/ocs/admin/redeem-batches', async () => {
    expect((await user.post('/api/ocs/admin/redeem-batches', { value: 1, count: 1, maxUses: 1 })).statusCode).toBe(403);
  });
  test('GET /api/ocs/admin/redeem-batches/:id/codes.csv', async () => {
    expect((await user.get('/api/ocs/admin/redeem-batches/1/codes.csv')).statusCode).toBe(403);
  });
  test('POST /api/ocs/admin/redeem-batches/:id/disable', async () => {
    expect((await user.post('/api/ocs/admin/redeem-batches/1/disable')).statusCode).toBe(403);
  });
});
