/**
 * Redeem-code batches for administrators: creating one (codes generated here, stored as hashes plus
 * an encrypted copy), listing them with their use counts, the one-time CSV download (after which the
 * encrypted copies are gone and nobody, the server included, can show the codes again) and disabling.
 * Every change is audited in its own transaction.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { z } from 'zod';
import { toCsv } from '../../../lib/csv';
import type { RedeemBatch, RedeemBatchBody, RedeemBatchStatus } from '../../../../src/contract';
import type { DB } from '../../../db/schema';
import { badRequest, HttpError, notFound } from '../../../errors';
import type { SecretBox } from '../../../lib/secretbox';
import { recordAudit, type Actor } from '../../audit';
import { formatCode } from '@contract';
import { generateCode, hashCode } from './redeem-code';

type Db = Kysely<DB> | Transaction<DB>;
type CreateInput = z.output<typeof RedeemBatchBody>;

const INSERT_CHUNK = 1000;
const TARGET = 'ocs_redeem_batch';
export const DOWNLOADED_MESSAGE = '该批次的兑换码已经下载过一次，服务器不再保存兑换码明文，无法再次下载';

interface BatchRow {
  id: number;
  note: string;
  value: number;
  max_uses: number;
  code_count: number;
  expires_at: Date | null;
  disabled: boolean;
  downloaded_at: Date | null;
  created_at: Date;
  expired: boolean;
  uses: number;
  remaining_codes: number;
  redeemed_by: number;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

function toBatch(r: BatchRow): RedeemBatch {
  const uses = Number(r.uses);
  const remainingCodes = Number(r.remaining_codes);
  const status: RedeemBatchStatus = r.disabled
    ? 'disabled'
    : r.expired
      ? 'expired'
      : remainingCodes === 0
        ? 'used_up'
        : 'active';
  return {
    id: Number(r.id),
    note: r.note,
    value: Number(r.value),
    maxUses: Number(r.max_uses),
    codeCount: Number(r.code_count),
    expiresAt: iso(r.expires_at),
    disabled: r.disabled,
    status,
    downloadedAt: iso(r.downloaded_at),
    createdAt: iso(r.created_at)!,
    uses,
    remainingUses: Number(r.code_count) * Number(r.max_uses) - uses,
    remainingCodes,
    redeemedBy: Number(r.redeemed_by),
  };
}

function batchRows(db: Db, where: ReturnType<typeof sql>, limit: number, offset: number) {
  return sql<BatchRow>`
    select b.id, b.note, b.value, b.max_uses, b.code_count, b.expires_at, b.disabled, b.downloaded_at, b.created_at,
      (b.expires_at is not null and b.expires_at <= now()) as expired,
      coalesce((select sum(c.uses) from ocs_redeem_codes c where c.batch_id = b.id), 0)::int as uses,
      (select count(*) from ocs_redeem_codes c where c.batch_id = b.id and c.uses < b.max_uses)::int as remaining_codes,
      (select count(distinct r.user_id) from ocs_redemptions r join ocs_redeem_codes c on c.id = r.code_id
        where c.batch_id = b.id)::int as redeemed_by
    from ocs_redeem_batches b where ${where}
    order by b.id desc limit ${limit} offset ${offset}`.execute(db);
}

export async function getBatch(db: Db, id: number): Promise<RedeemBatch> {
  const r = await batchRows(db, sql`b.id = ${id}`, 1, 0);
  if (!r.rows[0]) throw notFound('兑换码批次不存在');
  return toBatch(r.rows[0]);
}

export async function listBatches(
  db: Kysely<DB>,
  q: { current: number; pageSize: number },
): Promise<{ rows: RedeemBatch[]; total: number }> {
  const [r, count] = await Promise.all([
    batchRows(db, sql`true`, q.pageSize, (q.current - 1) * q.pageSize),
    db
      .selectFrom('ocs_redeem_batches')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: r.rows.map(toBatch), total: Number(count.n) };
}

export async function createBatch(
  db: Kysely<DB>,
  secrets: SecretBox,
  actor: Actor,
  input: CreateInput,
): Promise<RedeemBatch> {
  if (input.expiresAt && Date.parse(input.expiresAt) <= Date.now()) {
    throw badRequest('过期时间必须晚于现在', { expiresAt: ['过期时间必须晚于现在'] });
  }
  const codes = new Set<string>();
  while (codes.size < input.count) codes.add(generateCode());
  return db.transaction().execute(async (trx) => {
    const batch = await trx
      .insertInto('ocs_redeem_batches')
      .values({
        note: input.note,
        value: input.value,
        max_uses: input.maxUses,
        code_count: input.count,
        expires_at: input.expiresAt ? new Date(input.expiresAt) : null,
        created_by: actor.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const all = [...codes];
    for (let i = 0; i < all.length; i += INSERT_CHUNK) {
      await trx
        .insertInto('ocs_redeem_codes')
        .values(
          all
            .slice(i, i + INSERT_CHUNK)
            .map((c) => ({ batch_id: batch.id, code_hash: hashCode(c), code_enc: secrets.encrypt(c) })),
        )
        .execute();
    }
    await recordAudit(trx, actor, {
      action: 'ocs.redeem_batch.create',
      targetType: TARGET,
      targetId: batch.id,
      targetName: input.note || `批次 #${batch.id}`,
      after: {
        value: input.value,
        count: input.count,
        maxUses: input.maxUses,
        expiresAt: input.expiresAt ?? null,
        note: input.note,
      },
    });
    return getBatch(trx, batch.id);
  });
}

/**
 * The batch's codes as CSV, exactly once: the same transaction marks the batch downloaded and erases
 * the encrypted copies, so a second call (or a concurrent one) gets 410.
 */
export async function downloadCodes(
  db: Kysely<DB>,
  secrets: SecretBox,
  actor: Actor,
  id: number,
  tz: string,
): Promise<{ csv: string; filename: string }> {
  return db.transaction().execute(async (trx) => {
    const batch = await trx
      .updateTable('ocs_redeem_batches')
      .set({ downloaded_at: new Date() })
      .where('id', '=', id)
      .where('downloaded_at', 'is', null)
      .returning([
        'id',
        'note',
        'value',
        'max_uses',
        'code_count',
        sql<string | null>`to_char(expires_at at time zone ${tz}, 'YYYY-MM-DD HH24:MI')`.as('expires'),
      ])
      .executeTakeFirst();
    if (!batch) {
      const exists = await trx.selectFrom('ocs_redeem_batches').select('id').where('id', '=', id).executeTakeFirst();
      if (!exists) throw notFound('兑换码批次不存在');
      throw new HttpError(410, 'GONE', DOWNLOADED_MESSAGE);
    }
    // The batch row updated above is locked until commit: a concurrent download waits, then gets 410.
    const rows = await trx
      .selectFrom('ocs_redeem_codes')
      .select(['id', 'code_enc'])
      .where('batch_id', '=', id)
      .where('code_enc', 'is not', null)
      .orderBy('id')
      .execute();
    await trx.updateTable('ocs_redeem_codes').set({ code_enc: null }).where('batch_id', '=', id).execute();
    const csv = toCsv(
      ['兑换码', '面值', '可用次数', '过期时间', '备注'],
      rows.map((r) => [
        formatCode(secrets.decrypt(r.code_enc!)),
        batch.value,
        batch.max_uses,
        batch.expires ?? '永不过期',
        batch.note,
      ]),
    );
    await recordAudit(trx, actor, {
      action: 'ocs.redeem_batch.download',
      targetType: TARGET,
      targetId: id,
      targetName: batch.note || `批次 #${id}`,
      after: { codes: rows.length },
    });
    return { csv, filename: `redeem-batch-${id}.csv` };
  });
}

/** Stops every code of the batch at once; disabling twice changes (and audits) nothing. */
export async function disableBatch(db: Kysely<DB>, actor: Actor, id: number): Promise<RedeemBatch> {
  return db.transaction().execute(async (trx) => {
    const changed = await trx
      .updateTable('ocs_redeem_batches')
      .set({ disabled: true })
      .where('id', '=', id)
      .where('disabled', '=', false)
      .returning(['id', 'note'])
      .executeTakeFirst();
    if (changed) {
      await recordAudit(trx, actor, {
        action: 'ocs.redeem_batch.disable',
        targetType: TARGET,
        targetId: id,
        targetName: changed.note || `批次 #${id}`,
        before: { disabled: false },
        after: { disabled: true },
      });
    }
    return getBatch(trx, id);
  });
}
