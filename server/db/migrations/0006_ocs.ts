/**
 * OCS: the question bank, the points wallet and its append-only ledger, the query log (which the
 * overview, the 10-minute no-double-charge cache and the daily AI cap read), service settings, AI
 * providers/models and per-user preferences, daily free claims and redeem codes.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ocs_questions')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    // sha256 of the normalized title, hex, first 32 chars: the exact-match key.
    .addColumn('title_hash', 'text', (c) => c.notNull())
    // Generic titles (「下列说法正确的是」) head many different questions: the options tell them apart.
    .addColumn('options_hash', 'text', (c) => c.notNull())
    .addColumn('norm_title', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) =>
      c.notNull().check(sql`type in ('single', 'multiple', 'judgement', 'completion', 'any')`),
    )
    .addColumn('options', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    // Option texts (choices), 正确/错误 (judgement) or the blanks (completion).
    .addColumn('answer', 'jsonb', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('import', 'manual', 'ai')`))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('verified')
        .check(sql`status in ('verified', 'unverified', 'wrong')`),
    )
    .addColumn('hit_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // One row per normalized title, type and option set: imports update instead of duplicating.
  await sql`create unique index ocs_questions_identity_key on ocs_questions (title_hash, type, options_hash)`.execute(
    db,
  );
  // Each instance's in-memory fuzzy index catches up with rows changed since its last look.
  await sql`create index ocs_questions_updated_idx on ocs_questions (updated_at)`.execute(db);
  // No index on hit_count: it would make every counted hit a non-HOT update of a large table.

  await db.schema
    .createTable('ocs_wallets')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('balance', 'bigint', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`balance >= 0`),
    )
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('ocs_ledger')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) =>
      c.notNull().check(sql`kind in ('charge', 'topup', 'free', 'redeem', 'adjust', 'refund')`),
    )
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('balance_after', 'bigint', (c) => c.notNull().check(sql`balance_after >= 0`))
    .addColumn('memo', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('query_id', 'bigint')
    .addColumn('actor_id', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('ocs_ledger_user_idx').on('ocs_ledger').columns(['user_id', 'id']).execute();
  // Append-only: the ledger is the evidence behind every balance.
  await sql`
    create function ocs_ledger_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'ocs_ledger is append-only';
    end $$`.execute(db);
  await sql`create trigger ocs_ledger_no_update before update on ocs_ledger
    for each row execute function ocs_ledger_append_only()`.execute(db);

  await db.schema
    .createTable('ocs_queries')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_id', 'integer')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('title_hash', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    // bank / ai / cache (answered again within 10 minutes, free) / miss / no_balance / error
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('question_id', 'bigint')
    .addColumn('answer', 'text')
    .addColumn('cost', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('model_id', 'integer')
    .addColumn('message', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('ocs_queries_user_idx').on('ocs_queries').columns(['user_id', 'created_at']).execute();
  await db.schema
    .createIndex('ocs_queries_cache_idx')
    .on('ocs_queries')
    .columns(['user_id', 'title_hash', 'created_at'])
    .execute();
  await db.schema.createIndex('ocs_queries_created_idx').on('ocs_queries').column('created_at').execute();

  // Charging an answer: one call whose plans the session caches (as one ad-hoc CTE statement the
  // planning alone cost more than the three writes). Unless the same user had the same question
  // answered in the last 10 minutes (then it is a free cache hit), the wallet is debited only if it
  // holds the price, the query row says what happened and the ledger row points at it, atomically.
  await sql`
    create function ocs_charge(p_user int, p_token int, p_price int, p_key text, p_title text, p_type text,
                               p_outcome text, p_question bigint, p_model int, p_answer text)
    returns table (r_outcome text, r_balance bigint, r_query_id bigint, r_cost int)
    language plpgsql as $$
    declare
      v_balance bigint;
      v_outcome text;
      v_cost int := 0;
      v_qid bigint;
    begin
      if exists (select 1 from ocs_queries q where q.user_id = p_user and q.title_hash = p_key
                 and q.outcome in ('bank', 'ai', 'cache') and q.created_at > now() - interval '10 minutes') then
        v_outcome := 'cache';
      elsif p_price = 0 then
        v_outcome := p_outcome;
      else
        update ocs_wallets w set balance = w.balance - p_price, updated_at = now()
          where w.user_id = p_user and w.balance >= p_price
          returning w.balance into v_balance;
        if found then
          v_outcome := p_outcome;
          v_cost := p_price;
        else
          v_outcome := 'no_balance';
        end if;
      end if;
      insert into ocs_queries (user_id, token_id, title, title_hash, type, outcome, question_id, answer, cost, model_id)
        values (p_user, p_token, left(p_title, 2000), p_key, p_type, v_outcome, p_question,
                case when v_outcome = 'no_balance' then null else p_answer end, v_cost, p_model)
        returning id into v_qid;
      if v_cost > 0 then
        insert into ocs_ledger (user_id, kind, amount, balance_after, memo, query_id)
          values (p_user, 'charge', -v_cost, v_balance, left(p_title, 200), v_qid);
      else
        select w.balance into v_balance from ocs_wallets w where w.user_id = p_user;
      end if;
      return query select v_outcome, coalesce(v_balance, 0::bigint), v_qid, v_cost;
    end $$`.execute(db);

  await db.schema
    .createTable('ocs_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'jsonb', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('ocs_providers')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('base_url', 'text', (c) => c.notNull())
    .addColumn('api_key_enc', 'text', (c) => c.notNull())
    .addColumn('api_key_masked', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('ocs_models')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('provider_id', 'integer', (c) => c.notNull().references('ocs_providers.id').onDelete('cascade'))
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('price', 'integer', (c) => c.notNull().check(sql`price >= 0`))
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('timeout_ms', 'integer', (c) => c.notNull().defaultTo(60_000))
    .addColumn('max_tokens', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('ocs_preferences')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('prompt_template', 'text')
    .addColumn('model_id', 'integer', (c) => c.references('ocs_models.id').onDelete('set null'))
    .addColumn('strategy', 'text', (c) =>
      c
        .notNull()
        .defaultTo('bank_ai')
        .check(sql`strategy in ('bank_ai', 'bank', 'ai')`),
    )
    .addColumn('daily_ai_cap', 'integer', (c) => c.check(sql`daily_ai_cap >= 0`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // The primary key is what makes a second claim on the same day impossible, on any instance.
  await db.schema
    .createTable('ocs_free_claims')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('ocs_free_claims_pkey', ['user_id', 'day'])
    .execute();

  await db.schema
    .createTable('ocs_redeem_batches')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('value', 'integer', (c) => c.notNull().check(sql`value > 0`))
    .addColumn('max_uses', 'integer', (c) => c.notNull().check(sql`max_uses > 0`))
    .addColumn('code_count', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz')
    .addColumn('disabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('downloaded_at', 'timestamptz')
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('ocs_redeem_codes')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('batch_id', 'integer', (c) => c.notNull().references('ocs_redeem_batches.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    // Kept (encrypted) only until the batch's codes are downloaded once.
    .addColumn('code_enc', 'text')
    .addColumn('uses', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`uses >= 0`),
    )
    .execute();
  await db.schema.createIndex('ocs_redeem_codes_batch_idx').on('ocs_redeem_codes').column('batch_id').execute();

  await db.schema
    .createTable('ocs_redemptions')
    .addColumn('code_id', 'integer', (c) => c.notNull().references('ocs_redeem_codes.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('ocs_redemptions_pkey', ['code_id', 'user_id'])
    .execute();

  // Wrong codes, counted per user for the guessing limit (in the database, so it holds across instances).
  await db.schema
    .createTable('ocs_redeem_failures')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('ocs_redeem_failures_user_idx')
    .on('ocs_redeem_failures')
    .columns(['user_id', 'at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'ocs_redeem_failures',
    'ocs_redemptions',
    'ocs_redeem_codes',
    'ocs_redeem_batches',
    'ocs_free_claims',
    'ocs_preferences',
    'ocs_models',
    'ocs_providers',
    'ocs_settings',
    'ocs_queries',
    'ocs_ledger',
    'ocs_wallets',
    'ocs_questions',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
  await sql`drop function if exists ocs_ledger_append_only()`.execute(db);
  await sql`drop function if exists ocs_charge(int, int, int, text, text, text, text, bigint, int, text)`.execute(db);
}
