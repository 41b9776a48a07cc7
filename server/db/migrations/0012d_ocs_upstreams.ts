/**
 * OCS: upstream banks, AnswererWrapper-compatible question banks asked on a miss before the
 * AI. The request is described as OCS configs describe it (URL, method, parameter template with
 * ${title}/${type}/${options}, headers) and the answer is picked from the JSON reply with a JSONPath
 * instead of running a handler. A secret the template names as ${secret} is stored encrypted. Each has a
 * timeout, a price per answer, a daily call budget (shared by every instance: counted here), a circuit
 * breaker's threshold and cool-down, and its running figures for the administrators' page.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ocs_upstreams')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull().check(sql`method in ('get', 'post')`))
    .addColumn('body_type', 'text', (c) =>
      c
        .notNull()
        .defaultTo('json')
        .check(sql`body_type in ('json', 'form')`),
    )
    .addColumn('headers', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('answer_path', 'text', (c) => c.notNull())
    .addColumn('secret_enc', 'text')
    .addColumn('secret_masked', 'text')
    .addColumn('timeout_ms', 'integer', (c) => c.notNull().defaultTo(5000))
    .addColumn('price', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`price >= 0`),
    )
    .addColumn('daily_budget', 'integer', (c) => c.check(sql`daily_budget > 0`))
    .addColumn('breaker_threshold', 'integer', (c) => c.notNull().defaultTo(5))
    .addColumn('breaker_cooldown_ms', 'integer', (c) => c.notNull().defaultTo(30_000))
    .addColumn('calls', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('answered', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('not_found', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('failures', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('latency_ms_total', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_latency_ms', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', 'timestamptz')
    .addColumn('last_ok_at', 'timestamptz')
    .addColumn('budget_day', 'date')
    .addColumn('budget_used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ocs_upstreams').ifExists().execute();
}
