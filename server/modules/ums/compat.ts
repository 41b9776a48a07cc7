/**
 * The drop-in compatible senders: what ServerChan's and PushPlus's fields mean as a portal message,
 * and their answers. ServerChan: `title` (or the older `text`) and the markdown `desp`; a message with
 * only a title is sent as its own content. PushPlus: `content` read by `template` (html turned into the
 * markdown every channel understands, txt as text, json pretty-printed, markdown as is) and `topic`
 * picking one of the sender's channels by name or id.
 */
import type { Kysely } from 'kysely';
import { parseOr400, badRequest } from '../../errors';
import type { DB } from '../../db/schema';
import { PushPlusInput, ServerChanInput } from '../../../src/contract';
import type { NewMessage } from './messages';

/** A `timestamp` sent again is the same message: it is the idempotency key. */
function timestampKey(timestamp: string | number | undefined): { idempotencyKey?: string } {
  return timestamp === undefined ? {} : { idempotencyKey: `timestamp:${timestamp}` };
}

/** ServerChan: title and desp (markdown). */
export function serverChanMessage(raw: Record<string, unknown>): NewMessage {
  const input = parseOr400(ServerChanInput, raw);
  const title = input.title || input.text || '';
  const desp = input.desp ?? '';
  if (!title && !desp.trim()) throw badRequest('缺少 title', { title: ['缺少 title'] });
  const key = timestampKey(input.timestamp);
  return desp.trim()
    ? { title, content: desp, type: 'markdown', ...key }
    : { title: '', content: title, type: 'text', ...key };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

/**
 * PushPlus's default template is HTML, which robots and e-mail alike should show readably: line
 * breaks, paragraphs, headings, bold, links and list items become markdown; other tags are dropped
 * (their text kept); scripts and styles are dropped whole.
 */
export function htmlToMarkdown(html: string): string {
  const text = html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(
      /<h([1-6])\b[^>]*>([\s\S]*?)<\/h\1\s*>/gi,
      (_m, n: string, t: string) => `\n${'#'.repeat(Number(n))} ${t}\n`,
    )
    .replace(/<(b|strong)\b[^>]*>([\s\S]*?)<\/\1\s*>/gi, '**$2**')
    .replace(/<(i|em)\b[^>]*>([\s\S]*?)<\/\1\s*>/gi, '*$2*')
    .replace(/<a\b[^>]*?href\s*=\s*["']([^"']*)["'][^>]*>([\s\S]*?)<\/a\s*>/gi, '[$2]($1)')
    .replace(/<img\b[^>]*?src\s*=\s*["']([^"']*)["'][^>]*>/gi, '![]($1)')
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(/<\/(p|div|li|ul|ol|tr|table|h[1-6])\s*>/gi, '\n')
    .replace(/<(p|div|ul|ol|tr|table)\b[^>]*>/gi, '\n')
    .replace(/<[^>]+>/g, '');
  return decodeEntities(text)
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** `topic`: one of the sender's channels, by id or by name. */
async function topicChannel(db: Kysely<DB>, userId: number, topic: string): Promise<number> {
  const row = await db
    .selectFrom('ums_channels')
    .select('id')
    .where('user_id', '=', userId)
    .where((eb) => (/^\d{1,9}$/.test(topic) ? eb('id', '=', Number(topic)) : eb('name', '=', topic)))
    .executeTakeFirst();
  if (!row) throw badRequest(`没有名为「${topic}」的渠道`, { topic: ['topic 应为你的某个渠道的名称或编号'] });
  return row.id;
}

/** PushPlus: content by template, title, topic. */
export async function pushPlusMessage(
  db: Kysely<DB>,
  userId: number,
  raw: Record<string, unknown>,
): Promise<NewMessage> {
  const input = parseOr400(PushPlusInput, raw);
  let content = input.content;
  let type: NewMessage['type'] = 'markdown';
  if (input.template === 'html') content = htmlToMarkdown(content) || content;
  else if (input.template === 'txt') type = 'text';
  else if (input.template === 'json') {
    let pretty = content;
    try {
      pretty = JSON.stringify(JSON.parse(content), null, 2);
    } catch {
      // Not JSON after all: shown as it came.
    }
    content = `\`\`\`json\n${pretty}\n\`\`\``;
  }
  const channel = input.topic ? await topicChannel(db, userId, input.topic) : undefined;
  return {
    title: input.title,
    content,
    type,
    ...(channel ? { channel } : {}),
    ...(input.callbackUrl ? { callbackUrl: input.callbackUrl } : {}),
    ...timestampKey(input.timestamp),
  };
}

/** The merged query and body of a compat request: scripts send either, or both. */
export function fieldsOf(query: unknown, body: unknown): Record<string, unknown> {
  const fromBody = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  return { ...((query as Record<string, unknown>) ?? {}), ...fromBody };
}
