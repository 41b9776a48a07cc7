/**
 * Message templates: named per user (at most 50), a title and content with {{variables}}, filled from
 * `vars` when a message is sent with `template` (by name or id). A variable without a value is refused
 * by name: nothing half-filled is ever queued. The filling itself is the contract's fillMessageTemplate, the
 * one the UI's live preview uses.
 */
import { sql, type Kysely } from 'kysely';
import {
  fillMessageTemplate,
  messageTemplateVariables,
  UMS_MAX_TEMPLATES,
  type Template,
  type TemplateBody,
  type TemplatePatchBody,
} from '../../../src/contract';
import type { DB } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../errors';

type Row = {
  id: number;
  name: string;
  title: string;
  content: string;
  type: string;
  created_at: Date;
  updated_at: Date;
};

function toTemplate(r: Row): Template {
  return {
    id: r.id,
    name: r.name,
    title: r.title,
    content: r.content,
    type: r.type as Template['type'],
    variables: messageTemplateVariables(r.title, r.content),
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

const COLUMNS = ['id', 'name', 'title', 'content', 'type', 'created_at', 'updated_at'] as const;
const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === '23505';
const nameTaken = (name: string) => conflict(`已有名为「${name}」的模板`, { name: ['模板名称已存在'] });

export async function listTemplates(db: Kysely<DB>, userId: number): Promise<Template[]> {
  const rows = await db
    .selectFrom('ums_templates')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  return rows.map(toTemplate);
}

export async function createTemplate(db: Kysely<DB>, userId: number, body: TemplateBody): Promise<Template> {
  try {
    return await db.transaction().execute(async (trx) => {
      await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
      const { n } = await trx
        .selectFrom('ums_templates')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      if (Number(n) >= UMS_MAX_TEMPLATES) throw conflict(`最多保存 ${UMS_MAX_TEMPLATES} 个模板`);
      const row = await trx
        .insertInto('ums_templates')
        .values({
          user_id: userId,
          name: body.name,
          title: body.title ?? '',
          content: body.content,
          type: body.type ?? 'markdown',
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      return toTemplate(row);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(body.name);
    throw err;
  }
}

export async function updateTemplate(
  db: Kysely<DB>,
  userId: number,
  id: number,
  body: TemplatePatchBody,
): Promise<Template> {
  const set: Record<string, unknown> = { updated_at: sql`now()` };
  for (const key of ['name', 'title', 'content', 'type'] as const) if (body[key] !== undefined) set[key] = body[key];
  try {
    const row = await db
      .updateTable('ums_templates')
      .set(set)
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .returning(COLUMNS)
      .executeTakeFirst();
    if (!row) throw notFound('模板不存在');
    return toTemplate(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(body.name ?? '');
    throw err;
  }
}

export async function deleteTemplate(db: Kysely<DB>, userId: number, id: number): Promise<void> {
  const res = await db
    .deleteFrom('ums_templates')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (Number(res.numDeletedRows) === 0) throw notFound('模板不存在');
}

/** A template (by name, or by id) filled with `vars`: its title, content and type; 400 if anything is missing. */
export async function renderTemplate(
  db: Kysely<DB>,
  userId: number,
  ref: string,
  vars: Record<string, string>,
): Promise<{ title: string; content: string; type: 'text' | 'markdown' }> {
  const row = await db
    .selectFrom('ums_templates')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .where((eb) =>
      /^\d{1,9}$/.test(ref) ? eb.or([eb('id', '=', Number(ref)), eb('name', '=', ref)]) : eb('name', '=', ref),
    )
    .orderBy(sql`name = ${ref}`, 'desc')
    .executeTakeFirst();
  if (!row) throw badRequest(`没有名为「${ref}」的模板`, { template: ['模板不存在'] });
  const title = fillMessageTemplate(row.title, vars);
  const content = fillMessageTemplate(row.content, vars);
  const missing = [...new Set([...title.missing, ...content.missing])];
  if (missing.length) {
    throw badRequest(`模板「${row.name}」缺少变量：${missing.join('、')}`, {
      vars: [`缺少变量：${missing.join('、')}`],
    });
  }
  return { title: title.text, content: content.text, type: row.type as 'text' | 'markdown' };
}
