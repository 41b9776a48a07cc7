/**
 * Answers in the caller's own option texts, byte for byte: a bank imported through
 * the admin API, probed as OCS probes it (the subscription config read, its template filled, the
 * handler applied), with full-width characters, mixed punctuation and every option-label style; single
 * and multiple choice; the AI path and the 10-minute repeat too.
 */
import { fillTemplate, type AnswererWrapper } from '../../../src/contract';
import { optionKey, splitCallerOptions } from '../../../server/modules/ocs/bank/normalize';
import { optionsHash } from '../../../server/modules/ocs/bank/question';
import { buildPerturbationSet, generateQuestions, toOcsOptions } from '../../../bench/ocs/synthetic';
import { startFakeOpenAi, type FakeOpenAi } from '../../fixtures/fake-openai';
import { loggedInClient, FAKES_ON_LOOPBACK, startTestApp, type Client, type TestContext } from '../helpers';
import { importFile, userWithToken } from './admin-fixtures';
import { createModel, createProvider } from './ai-helpers';

let ctx: TestContext;
let fake: FakeOpenAi;
let admin: Client;

const BANK = [
  {
    title: '关于进程调度，下列说法正确的是（第5讲）',
    type: 'single',
    options: ['A. 与CPU无关', 'B. 只在关机时发生', 'C. 由用户手动完成', 'D. 决定了CPU的分配顺序（第5讲）'],
    answer: 'D',
  },
  {
    title: '下列属于“操作系统”功能的有：',
    type: 'multiple',
    options: ['A、进程管理；', 'B、存储管理', 'C、编译源程序', 'D、文件管理（含目录）'],
    answer: 'ABD',
  },
];

beforeAll(async () => {
  [ctx, fake] = await Promise.all([startTestApp(FAKES_ON_LOOPBACK), startFakeOpenAi()]);
  admin = (await loggedInClient(ctx, ['admin'])).client;
  const { job } = await importFile(admin, JSON.stringify(BANK), 'held-out.json');
  expect(job).toMatchObject({ status: 'done', inserted: 2 });
});
afterAll(async () => {
  await fake.close();
  await ctx.close();
});

/** What an OCS client does with a subscription: fill the template, send it, apply the handler. */
async function ocsProbe(token: string, sample: { title: string; type: string; options: string }) {
  const config = await ctx.app.inject({ method: 'GET', url: `/api/ocs/config?token=${token}` });
  const [w] = config.json() as AnswererWrapper[];
  const data = fillTemplate(w!.data!, sample);
  const res = await ctx.app.inject({ method: 'GET', url: new URL(w!.url).pathname, query: data });
  const handler = new Function(w!.handler)() as (r: unknown) => [unknown, unknown];
  return { body: res.json(), handled: handler(res.json()) };
}

test('splitting keeps each option line as the caller wrote it, label and all, beside its matching form', () => {
  expect(splitCallerOptions('A. 北京（首都）\nB、上海；\nC:广州\n(D)深圳\nＥ．香港')).toEqual({
    options: ['北京(首都)', '上海;', '广州', '深圳', '香港'],
    raw: ['A. 北京（首都）', 'B、上海；', 'C:广州', '(D)深圳', 'Ｅ．香港'],
    keys: ['北京首都', '上海', '广州', '深圳', '香港'],
  });
  // No labels: the texts as they are (ends trimmed); a letter that is part of the text stays.
  expect(splitCallerOptions(['A 型血（常见）', 'AB 型血'])).toEqual({
    options: ['A 型血(常见)', 'AB 型血'],
    raw: ['A 型血（常见）', 'AB 型血'],
    keys: ['a型血常见', 'ab型血'],
  });
});

test("each option's key is its optionKey(), and the option set's hash is the same from the keys", () => {
  const questions = [...generateQuestions(300, 8)];
  const lists: Array<string | string[]> = [
    ...questions.map((q) => toOcsOptions(q.options).join('\n')),
    ...buildPerturbationSet(questions, 100, 3).map((p) => p.query.options),
    ['Ａ．全角 选项', '(b) 第二项 ', 'ⓒ 圈字母', '', 'D'],
    'A. 北京（首都）\r\nB、上海；\nC:广州',
  ];
  for (const raw of lists) {
    const { options, keys } = splitCallerOptions(raw);
    expect({ raw, keys }).toEqual({ raw, keys: options.map(optionKey) });
    expect(optionsHash(options, keys)).toBe(optionsHash(options));
  }
});

test.each([
  ['A.', (l: string, t: string) => `${l}. ${t}`],
  ['A、', (l: string, t: string) => `${l}、${t}`],
  ['A:', (l: string, t: string) => `${l}:${t}`],
  ['A：', (l: string, t: string) => `${l}：${t}`],
  ['none', (_l: string, t: string) => t],
  ['Ａ．', (l: string, t: string) => `${String.fromCharCode(l.charCodeAt(0) + 0xfee0)}．${t}`],
  ['（A）', (l: string, t: string) => `（${l}）${t}`],
])('single choice with labels %s: the answer is the caller’s option line, byte for byte', async (_style, label) => {
  const { token } = await userWithToken(ctx, 10);
  const texts = ['与CPU无关', '只在关机时发生', '由用户手动完成', '决定了CPU的分配顺序（第5讲）'];
  const options = texts.map((t, i) => label('ABCD'[i]!, t)).join('\n');
  const { body, handled } = await ocsProbe(token, {
    title: '关于进程调度，下列说法正确的是（第5讲）',
    type: 'single',
    options,
  });
  const line = label('D', '决定了CPU的分配顺序（第5讲）');
  expect(body).toMatchObject({ code: 1, answer: JSON.stringify([line]), source: 'import' });
  expect(Buffer.from(String(handled[1]))).toEqual(Buffer.from(JSON.stringify([line])));
});

test('the caller’s own widths win over the bank’s, in the caller’s order, for multiple choice', async () => {
  const { token } = await userWithToken(ctx, 10);
  // Shuffled, half-width where the bank has full-width and the other way round, mixed labels.
  const options = ['A) 文件管理(含目录)', 'B．编译源程序', 'C、存储管理', 'D.进程管理;'].join('\n');
  const { body } = await ocsProbe(token, { title: '下列属于"操作系统"功能的有', type: 'multiple', options });
  expect(body).toMatchObject({
    code: 1,
    answer: JSON.stringify(['A) 文件管理(含目录)', 'C、存储管理', 'D.进程管理;']),
  });

  const fullWidth = ['Ａ．文件管理（含目录）', 'Ｂ．存储管理', 'Ｃ．编译源程序', 'Ｄ．进程管理；'].join('\n');
  const again = await ocsProbe(token, { title: '下列属于“操作系统”功能的有：', type: 'multiple', options: fullWidth });
  expect(again.body).toMatchObject({
    code: 1,
    answer: JSON.stringify(['Ａ．文件管理（含目录）', 'Ｂ．存储管理', 'Ｄ．进程管理；']),
  });
});

test('the 10-minute repeat answers in this call’s texts too', async () => {
  const { token } = await userWithToken(ctx, 10);
  const ask = (options: string) =>
    ocsProbe(token, { title: '关于进程调度，下列说法正确的是(第5讲)', type: 'single', options }).then((r) => r.body);
  const first = await ask('A.与CPU无关\nB.只在关机时发生\nC.由用户手动完成\nD.决定了CPU的分配顺序(第5讲)');
  expect(first).toMatchObject({ code: 1, cost: 1, answer: JSON.stringify(['D.决定了CPU的分配顺序(第5讲)']) });
  const repeat = await ask('A.与CPU无关\nB.只在关机时发生\nC.由用户手动完成\nD.决定了CPU的分配顺序（第5讲）');
  expect(repeat).toMatchObject({ code: 1, cost: 0, answer: JSON.stringify(['D.决定了CPU的分配顺序（第5讲）']) });
});

test('an AI answer (a letter, or the normalized text) comes back in the caller’s option text', async () => {
  const modelId = await createModel(admin, await createProvider(admin, fake.url), { price: 2 });
  expect(modelId).toBeGreaterThan(0);
  const { token } = await userWithToken(ctx, 10);
  fake.script({ kind: 'answer', text: 'C' });
  const { body } = await ocsProbe(token, {
    title: '进程控制块（PCB）中保存的是？',
    type: 'single',
    options: 'A．程序源代码\nB．编译器\nC．进程的状态信息（含寄存器）\nD．用户密码',
  });
  expect(body).toMatchObject({
    code: 1,
    source: 'ai',
    answer: JSON.stringify(['C．进程的状态信息（含寄存器）']),
    cost: 2,
  });

  fake.script({ kind: 'answer', text: '页表\n段表' });
  const many = await ocsProbe(token, {
    title: '下列属于内存管理数据结构的有（多选）',
    type: 'multiple',
    options: 'A、页表；\nB、段表；\nC、文件控制块（FCB）',
  });
  expect(many.body).toMatchObject({ code: 1, source: 'ai', answer: JSON.stringify(['A、页表；', 'B、段表；']) });
});
