/**
 * The OCS script on a quiz page, as its published source behaves (tests/fixtures/ocs-script.ts): the
 * subscription URL a user copies from configGen is imported, each question is asked over HTTP the way
 * the script asks it (GET and POST configs), the reply goes through the config's handler and the
 * script's resolver, and what it clicks or types is compared with the right answer, in both matching
 * modes, for every question type, every label style the course sites use, and options holding each
 * of the script's separators, HTML shown as text, and full-width text. An answer the script cannot
 * use is neither given nor charged.
 */
import type { AddressInfo } from 'node:net';
import { askBank, importSubscription, resolve, type MatchMode, type ScriptType } from '../../fixtures/ocs-script';
import { loggedInClient, startTestApp, type Client, type TestContext } from '../helpers';
import { importFile, userWithToken } from './admin-fixtures';

let ctx: TestContext;
let admin: Client;
let base: string;

/** How course sites label options: ASCII, full-width, bracketed, or not at all. */
const LABELS: Record<string, (i: number, text: string) => string> = {
  'A.': (i, t) => `${'ABCDEFG'[i]}. ${t}`,
  'A、': (i, t) => `${'ABCDEFG'[i]}、${t}`,
  'A:': (i, t) => `${'ABCDEFG'[i]}:${t}`,
  'Ａ．': (i, t) => `${'ＡＢＣＤＥＦＧ'[i]}．${t}`,
  '（A）': (i, t) => `（${'ABCDEFG'[i]}）${t}`,
  'A)': (i, t) => `${'ABCDEFG'[i]}) ${t}`,
  none: (_i, t) => t,
};

interface Case {
  name: string;
  type: ScriptType;
  /** The question as the bank file has it (entities and all). */
  bank: { title: string; options?: string[]; answer: string | string[] };
  /** The question as the page shows it (the script sends what it shows). */
  page: { title: string; options: string[] };
  /** The options the script must click (indices into page.options), or the texts it must type. */
  want: number[] | string[];
  /**
   * Label styles with which the script itself cannot click the right option whatever the answer says
   * (its label removal needs a word after the label: `A. √` stays `a√`): answered with nothing, free.
   */
  unclickable?: string[];
}

const CASES: Case[] = [
  {
    name: 'single, options with ; (the wrong click)',
    type: 'single',
    bank: {
      title: '下列声明两个整型变量的语句是',
      options: ['int a; int b;', 'int a b;', 'integer a b;', 'float a; float b;'],
      answer: 'A',
    },
    page: {
      title: '下列声明两个整型变量的语句是',
      options: ['int a; int b;', 'int a b;', 'integer a b;', 'float a; float b;'],
    },
    want: [0],
  },
  {
    name: 'single, options told apart by punctuation only',
    type: 'single',
    bank: {
      title: '逗号表达式的写法是',
      options: ['int a; int b;', 'int a, int b;', 'int a b;', 'int ab;'],
      answer: 'int a, int b;',
    },
    page: { title: '逗号表达式的写法是', options: ['int a, int b;', 'int a b;', 'int a; int b;', 'int ab;'] },
    want: [0],
  },
  {
    name: 'multiple, options with # (nothing picked, yet charged)',
    type: 'multiple',
    bank: { title: '下列属于 .NET 平台语言的有', options: ['C#', 'F#', 'Java', 'Go'], answer: ['F#', 'C#'] },
    page: { title: '下列属于 .NET 平台语言的有', options: ['Go', 'C#', 'Java', 'F#'] },
    want: [1, 3],
  },
  {
    name: 'single, options with ===',
    type: 'single',
    bank: {
      title: 'JavaScript 中严格相等的运算符写法是',
      options: ['a === b', 'a == b', 'a = b', 'a => b'],
      answer: 'A',
    },
    page: { title: 'JavaScript 中严格相等的运算符写法是', options: ['a == b', 'a === b', 'a => b', 'a = b'] },
    want: [1],
  },
  {
    name: 'single, options with --- and ###',
    type: 'single',
    bank: {
      title: 'Markdown 中表示分隔线的写法是',
      options: ['---', '### 标题', '**粗体**', '> 引用'],
      answer: '---',
    },
    page: { title: 'Markdown 中表示分隔线的写法是', options: ['### 标题', '---', '> 引用', '**粗体**'] },
    want: [1],
  },
  {
    name: 'multiple, options with | and ；',
    type: 'multiple',
    bank: {
      title: '下列写法中表示“或”的有',
      options: ['a | b', 'a || b', 'a & b', '甲；乙二者取其一'],
      answer: ['a | b', 'a || b', '甲；乙二者取其一'],
    },
    page: { title: '下列写法中表示“或”的有', options: ['a & b', 'a | b', '甲；乙二者取其一', 'a || b'] },
    want: [1, 2, 3],
  },
  {
    name: 'single, HTML shown as text (bank escaped, options decoded once)',
    type: 'single',
    bank: {
      title: '在HTML中，&lt;br&gt;标签的作用是（　　）',
      options: ['&lt;p&gt;', '&lt;br&gt;', '&lt;div&gt;', '&lt;span&gt;'],
      answer: '&lt;br&gt;',
    },
    page: { title: '在HTML中，<br>标签的作用是（　　）', options: ['<p>', '<br>', '<div>', '<span>'] },
    want: [1],
  },
  {
    name: 'single, the page full-width where the bank is half-width',
    type: 'single',
    bank: { title: '中华人民共和国的首都是', options: ['上海', '北京', '广州', '深圳'], answer: '北京' },
    page: { title: '中华人民共和国的首都是', options: ['上海', '北京', '广州', '深圳'] },
    want: [1],
  },
  {
    name: 'single, full-width text on both sides',
    type: 'single',
    bank: { title: '面向对象语言的是', options: ['Ｃ语言', 'Ｊａｖａ', '汇编', '机器码'], answer: 'Java' },
    page: { title: '面向对象语言的是', options: ['汇编', 'Ｊａｖａ', 'Ｃ语言', '机器码'] },
    want: [1],
  },
  {
    name: 'judgement, 对/错',
    type: 'judgement',
    bank: { title: '光在真空中的传播速度约为每秒 30 万千米', answer: '对' },
    page: { title: '光在真空中的传播速度约为每秒 30 万千米', options: ['对', '错'] },
    want: [0],
  },
  {
    name: 'judgement, √/× on the page, 错误 in the bank',
    type: 'judgement',
    bank: { title: '太阳从西边升起', answer: '错误' },
    page: { title: '太阳从西边升起', options: ['√', '×'] },
    want: [1],
    unclickable: ['A.', 'A、', 'A:', '（A）', 'A)'],
  },
  {
    name: 'judgement, 是/否',
    type: 'judgement',
    bank: { title: '长江是中国最长的河流', answer: '√' },
    page: { title: '长江是中国最长的河流', options: ['否', '是'] },
    want: [1],
  },
  {
    name: 'completion, two blanks holding ; and #',
    type: 'completion',
    bank: { title: 'C 语言中空循环写作____，微软的语言是____', answer: ['for(;;);', 'C#'] },
    page: { title: 'C 语言中空循环写作____，微软的语言是____', options: ['', ''] },
    want: ['for(;;);', 'C#'],
  },
  {
    name: 'completion, an entity in the bank',
    type: 'completion',
    bank: { title: '“小于或等于”的运算符是____', answer: '&lt;=' },
    page: { title: '“小于或等于”的运算符是____', options: [''] },
    want: ['<='],
  },
];

beforeAll(async () => {
  ctx = await startTestApp();
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  admin = (await loggedInClient(ctx, ['admin'])).client;
  const file = CASES.map((c) => ({
    title: c.bank.title,
    type: c.type,
    options: c.bank.options,
    answer: c.bank.answer,
  }));
  const { job } = await importFile(admin, JSON.stringify(file), 'real-client.json');
  expect(job).toMatchObject({ status: 'done', inserted: CASES.length });
});
afterAll(async () => {
  await ctx?.close();
});

async function balanceOf(client: Client): Promise<number> {
  return (await client.get('/api/ocs/wallet')).json().data.balance;
}

/** The page's options for the script: choices labelled, blanks as they are. */
const shown = (c: Case, label: string) =>
  c.type === 'completion' ? c.page.options : c.page.options.map((o, i) => LABELS[label]!(i, o));

describe.each(['get', 'post'] as const)('the script with a %s subscription', (method) => {
  test.each(CASES.map((c) => [c.name, c] as const))('%s: every label style, both modes', async (_name, c) => {
    const { client, token } = await userWithToken(ctx, 50);
    const [bank] = await importSubscription(`${base}/api/ocs/config?token=${token}&method=${method}&type=fetch`);
    const labels = c.type === 'completion' ? ['none'] : Object.keys(LABELS);
    let answered = 0;
    for (const label of labels) {
      const options = shown(c, label);
      const { results, reply } = await askBank(bank!, {
        title: c.page.title,
        type: c.type,
        options: options.join('\n'),
      });
      const usable = !c.unclickable?.includes(label);
      expect({ label, reply }).toMatchObject({
        label,
        reply: usable ? { code: 1 } : { code: 0, msg: expect.stringContaining('未扣费') },
      });
      if (usable) answered++;
      for (const mode of ['similar', 'exact'] as MatchMode[]) {
        const did = resolve(c.type, results, options, mode);
        const got = c.type === 'completion' ? did.typed : did.clicks;
        expect({ label, mode, got }).toEqual({ label, mode, got: usable ? c.want : [] });
      }
    }
    // Charged once (the same question again within 10 minutes is free), and only for used answers.
    expect(answered).toBeGreaterThan(0);
    expect(await balanceOf(client)).toBe(49);
  });
});

test('options the script would confuse get no answer and no charge, and say why', async () => {
  const { client, token } = await userWithToken(ctx, 50);
  const [bank] = await importSubscription(`${base}/api/ocs/config?token=${token}`);
  await importFile(
    admin,
    JSON.stringify([
      {
        title: '下列城市中属于直辖市的有（近似选项）',
        type: 'multiple',
        options: ['北京市', '北京', '重庆市', '重庆'],
        answer: ['北京市', '重庆市'],
      },
    ]),
    'confusable.json',
  );
  const options = ['A. 北京市', 'B. 北京', 'C. 重庆市', 'D. 重庆'];
  const { results, reply } = await askBank(bank!, {
    title: '下列城市中属于直辖市的有（近似选项）',
    type: 'multiple',
    options: options.join('\n'),
  });
  // The script would also click 北京 and 重庆 (the answer contains them): not given, not charged.
  expect(reply).toMatchObject({ code: 0, msg: expect.stringContaining('未扣费') });
  expect(resolve('multiple', results, options, 'similar').clicks).toEqual([]);
  expect(await balanceOf(client)).toBe(50);
  // The portal's own ask page shows it to a person.
  const ask = await client.post('/api/ocs/ask', {
    title: '下列城市中属于直辖市的有（近似选项）',
    type: 'multiple',
    options,
  });
  expect(ask.json().data).toMatchObject({ code: 1, answer: JSON.stringify(['A. 北京市', 'C. 重庆市']) });
});
