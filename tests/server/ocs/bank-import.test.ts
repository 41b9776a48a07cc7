/**
 * Question-bank import through the API: JSON and CSV (Chinese and English headers, option columns,
 * BOM, GBK), the validation report with row numbers, idempotent re-imports, the background job's
 * progress, the audit row, and questions answerable by /api/ocs/query as soon as they land; the list
 * read one element at a time, with its limits (rows in a file, bytes of one element).
 */
import iconv from 'iconv-lite';
import { BANK_MAX_ROWS, BANK_MAX_ROW_BYTES } from '../../../server/modules/ocs/bank/import-parse';
import { createTempFile, readSpool, removeTempFile } from '../../../server/lib/spool';
import { IMPORT_CHUNK, prepareBankFile } from '../../../server/modules/ocs/bank/import-prepare';
import { loggedInClient, startTestApp, type Client, type TestContext } from '../helpers';
import { ask, csv, importFile, upload, userWithToken, waitForJob } from './admin-fixtures';

let ctx: TestContext;
let admin: Client;

beforeAll(async () => {
  ctx = await startTestApp();
  ({ client: admin } = await loggedInClient(ctx, ['admin']));
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  await ctx.db.deleteFrom('ocs_questions').execute();
});

const count = async () =>
  Number(
    (
      await ctx.db
        .selectFrom('ocs_questions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const byTitle = (title: string) =>
  ctx.db.selectFrom('ocs_questions').selectAll().where('title', '=', title).executeTakeFirstOrThrow();

const JSON_BANK = [
  { title: '中华人民共和国的首都是哪座城市？', type: 'single', options: ['上海', '北京', '广州', '深圳'], answer: 'B' },
  // Alias keys, options as one string, answer as texts.
  { 题目: '下列属于哺乳动物的有', 题型: '多选题', 选项: 'A. 鲸\nB. 鲨鱼\nC. 蝙蝠\nD. 企鹅', 答案: ['鲸', '蝙蝠'] },
  { question: '地球绕太阳公转一周约需 365 天。', type: 'judgement', answer: '对' },
  { title: '水的化学式是____。', type: 'completion', answer: 'H2O' },
];

describe('good files', () => {
  it('previews JSON without writing, then imports it in a job and audits it', async () => {
    const res = await upload(admin, JSON.stringify(JSON_BANK), 'bank.json');
    expect(res.statusCode).toBe(200);
    const p = res.json().data;
    expect(p).toMatchObject({ fileName: 'bank.json', total: 4, valid: 4, rejected: 0, existing: 0, issues: [] });
    expect(p.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(p.sample[0]).toEqual({
      row: 1,
      title: '中华人民共和国的首都是哪座城市？',
      type: 'single',
      options: ['上海', '北京', '广州', '深圳'],
      answer: ['北京'],
    });
    expect(p.sample[1]).toMatchObject({
      row: 2,
      type: 'multiple',
      options: ['鲸', '鲨鱼', '蝙蝠', '企鹅'],
      answer: ['鲸', '蝙蝠'],
    });
    expect(p.sample[2]).toMatchObject({ type: 'judgement', answer: ['正确'] });
    expect(await count()).toBe(0);

    const commit = await admin.post(`/api/ocs/admin/bank/imports/${p.id}/commit`, {});
    expect(commit.statusCode).toBe(200);
    expect(commit.json().data).toMatchObject({ id: p.id, total: 4 });
    const seen = await waitForJob(admin, p.id);
    expect(seen[seen.length - 1]).toEqual({
      id: p.id,
      status: 'done',
      total: 4,
      done: 4,
      inserted: 4,
      updated: 0,
      error: null,
    });
    expect(await count()).toBe(4);
    expect(await byTitle('下列属于哺乳动物的有')).toMatchObject({
      source: 'import',
      status: 'verified',
      answer: ['鲸', '蝙蝠'],
    });

    const audit = await ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'ocs.bank.import')
      .where('target_id', '=', p.id)
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({
      target_name: 'bank.json',
      after: { fileName: 'bank.json', status: 'done', valid: 4, inserted: 4, updated: 0, rejected: 0 },
    });
  });

  it('reads a CSV with Chinese headers and option columns A–D, and one with English headers and an options column', async () => {
    const zh = csv([
      ['题目', '题型', 'A', 'B', 'C', 'D', '答案'],
      ['光合作用的主要场所是', '单选', '线粒体', '叶绿体', '核糖体', '高尔基体', 'B'],
      ['下列属于可再生能源的有', '多选题', '太阳能', '煤炭', '风能', '石油', 'AC'],
      ['', '', '', '', '', '', ''], // blank lines are skipped, not reported
      ['光在真空中的传播速度约为每秒 30 万千米。', '判断题', '', '', '', '', '√'],
    ]);
    const { preview, job } = await importFile(admin, zh, '题库.csv');
    expect(preview).toMatchObject({ total: 3, valid: 3, rejected: 0 });
    expect(job).toMatchObject({ status: 'done', inserted: 3 });
    expect(await byTitle('下列属于可再生能源的有')).toMatchObject({
      type: 'multiple',
      options: ['太阳能', '煤炭', '风能', '石油'],
      answer: ['太阳能', '风能'],
    });
    expect(await byTitle('光在真空中的传播速度约为每秒 30 万千米。')).toMatchObject({
      type: 'judgement',
      answer: ['正确'],
    });

    const en = csv([
      ['Question', 'Type', 'Options', 'Answer'],
      ['TCP 三次握手的第二步发送的报文是', 'single', 'SYN|SYN+ACK|ACK|FIN', 'SYN+ACK'],
      ['HTTP 的默认端口是', '', 'A. 21\nB. 80\nC. 443', 'B'],
      ['以下哪些是 JavaScript 的原始类型', 'multiple', 'string#number#object#boolean', 'ABD'],
    ]);
    const r2 = await importFile(admin, en, 'bank.csv');
    expect(r2.preview).toMatchObject({ total: 3, valid: 3 });
    expect(await byTitle('TCP 三次握手的第二步发送的报文是')).toMatchObject({
      options: ['SYN', 'SYN+ACK', 'ACK', 'FIN'],
      answer: ['SYN+ACK'],
    });
    expect(await byTitle('HTTP 的默认端口是')).toMatchObject({
      type: 'any',
      options: ['21', '80', '443'],
      answer: ['80'],
    });
    expect(await byTitle('以下哪些是 JavaScript 的原始类型')).toMatchObject({
      answer: ['string', 'number', 'boolean'],
    });
  });

  const HEADER = ['题目', '题型', '选项', '答案'];
  const ROWS = [
    ['马克思主义中国化的第一个重大理论成果是', '单选题', '毛泽东思想\n邓小平理论\n三个代表', 'A'],
    ['《史记》的作者是____。', '填空题', '', '司马迁'],
  ];

  it('reads a UTF-8 CSV with a BOM', async () => {
    const res = await upload(
      admin,
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(csv([HEADER, ...ROWS]))]),
      'bom.csv',
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ total: 2, valid: 2, rejected: 0 });
    expect(res.json().data.sample[0].title).toBe('马克思主义中国化的第一个重大理论成果是');
  });

  it('detects and decodes a GBK CSV', async () => {
    const { preview, job } = await importFile(admin, iconv.encode(csv([HEADER, ...ROWS]), 'gbk'), 'gbk.csv');
    expect(preview).toMatchObject({ valid: 2, rejected: 0 });
    expect(job.inserted).toBe(2);
    expect(await byTitle('马克思主义中国化的第一个重大理论成果是')).toMatchObject({
      options: ['毛泽东思想', '邓小平理论', '三个代表'],
      answer: ['毛泽东思想'],
    });
    expect(await byTitle('《史记》的作者是____。')).toMatchObject({ type: 'completion', answer: ['司马迁'] });
  });
});

describe('the validation report', () => {
  it('names the row and the problem of every bad row and imports only the good ones', async () => {
    const many = Array.from({ length: 27 }, (_, i) => `选项${i + 1}`);
    const rows = [
      { title: '正常的一题：1+1 等于几', type: 'single', options: ['1', '2'], answer: 'B' }, // 1
      { title: '   ', answer: '正确' }, // 2 empty title
      { title: '答案不在选项中的题', type: 'single', options: ['甲', '乙'], answer: '丙' }, // 3
      { title: '判断题答案写错了', type: 'judgement', answer: '也许' }, // 4
      { title: '选项太多的题', type: 'multiple', options: many, answer: 'A' }, // 5
      { title: '长'.repeat(2001), answer: '正确' }, // 6
      { title: '未知题型的题', type: '连线题', answer: 'x' }, // 7
      { title: 12345, answer: '正确' }, // 8 title not text
      { title: '选项是对象的题', options: { a: 1 }, answer: 'A' }, // 9
      '不是对象', // 10
      { title: '正常的一题：1+1 等于几', type: 'single', options: ['1', '2'], answer: '2' }, // 11 same question as row 1
    ];
    const res = await upload(admin, JSON.stringify(rows), 'bad.json');
    expect(res.statusCode).toBe(200);
    const p = res.json().data;
    expect(p).toMatchObject({ total: 11, valid: 1, rejected: 10 });
    expect(p.issues).toEqual([
      { row: 2, message: '题目为空' },
      { row: 3, message: expect.stringContaining('答案不在选项中') },
      { row: 4, message: expect.stringContaining('判断题答案须为 正确/错误') },
      { row: 5, message: '选项超过 26 个' },
      { row: 6, message: '题目超过 2000 个字符' },
      { row: 7, message: expect.stringContaining('题型「连线题」无法识别') },
      { row: 8, message: '题目必须是文本' },
      { row: 9, message: '选项必须是文本或文本数组' },
      { row: 10, message: expect.stringContaining('应为对象') },
      { row: 11, message: '与第 1 行是同一道题（题目、题型、选项相同），已跳过' },
    ]);
    const { job } = await (async () => {
      await admin.post(`/api/ocs/admin/bank/imports/${p.id}/commit`, {});
      const seen = await waitForJob(admin, p.id);
      return { job: seen[seen.length - 1]! };
    })();
    expect(job).toMatchObject({ status: 'done', total: 1, inserted: 1 });
    expect(await count()).toBe(1);
  });

  it('numbers CSV rows as a spreadsheet does (header is row 1)', async () => {
    const res = await upload(
      admin,
      csv([
        ['题目', '答案'],
        ['好题', '正确'],
        ['', '正确'],
        ['坏答案', ''],
      ]),
      'rows.csv',
    );
    expect(res.json().data.issues).toEqual([
      { row: 3, message: '题目为空' },
      { row: 4, message: '答案为空' },
    ]);
  });

  it('caps the listed issues at 200 but counts every rejected row', async () => {
    const rows = Array.from({ length: 250 }, () => ({ title: '', answer: 'x' }));
    const p = (await upload(admin, JSON.stringify(rows), 'empty.json')).json().data;
    expect(p).toMatchObject({ total: 250, valid: 0, rejected: 250 });
    expect(p.issues).toHaveLength(200);
  });

  it('refuses files it cannot read, with a message', async () => {
    const noAnswer = await upload(
      admin,
      csv([
        ['题目', '题型'],
        ['x', 'single'],
      ]),
      'x.csv',
    );
    expect(noAnswer.statusCode).toBe(400);
    expect(noAnswer.json().errorMessage).toContain('表头缺少必需的列：答案');
    const broken = await upload(admin, '[{"title": "x",', 'x.json');
    expect(broken.statusCode).toBe(400);
    expect(broken.json().errorMessage).toContain('JSON 格式有误');
    const notArray = await upload(admin, '{"title": "x"}', 'x.json');
    expect(notArray.json().errorMessage).toContain('JSON 顶层应为题目数组');
    const binary = await upload(admin, Buffer.from([0x00, 0x01, 0x02, 0xff, 0x00]), 'x.bin');
    expect(binary.statusCode).toBe(400);
    const empty = await upload(admin, Buffer.alloc(0), 'x.csv');
    expect(empty.json().errorMessage).toBe('上传的文件是空的');
  });

  it("accepts files beyond the server's 2 MB default upload limit", async () => {
    const padded = Buffer.concat([Buffer.from(JSON.stringify(JSON_BANK)), Buffer.alloc(3 * 1024 * 1024, ' ')]);
    const res = await upload(admin, padded, 'big.json');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ valid: 4 });
  });

  it('a preview belongs to its uploader and is spent once committed', async () => {
    const p = (await upload(admin, JSON.stringify(JSON_BANK), 'bank.json')).json().data;
    const { client: other } = await loggedInClient(ctx, ['admin']);
    expect((await other.post(`/api/ocs/admin/bank/imports/${p.id}/commit`, {})).statusCode).toBe(404);
    expect(
      (await admin.post('/api/ocs/admin/bank/imports/00000000-0000-4000-8000-000000000000/commit', {})).statusCode,
    ).toBe(404);
    expect((await admin.post(`/api/ocs/admin/bank/imports/${p.id}/commit`, {})).statusCode).toBe(200);
    await waitForJob(admin, p.id);
    // Committing again shows the same job instead of running it twice.
    const again = await admin.post(`/api/ocs/admin/bank/imports/${p.id}/commit`, {});
    expect(again.json().data).toMatchObject({ status: 'done', inserted: 4 });
    expect(await count()).toBe(4);
  });
});

describe('the JSON list, read one element at a time', () => {
  const question = (i: number) => ({
    title: `流式读取第 ${i} 题：${i} 加 1 等于几`,
    type: 'completion',
    answer: String(i + 1),
  });

  it('reads the list from a top-level object field (questions, data, items or list), as before', async () => {
    for (const field of ['questions', 'data', 'items', 'list']) {
      const text = JSON.stringify({ meta: { source: '导出', tags: ['a', { b: 1 }] }, [field]: JSON_BANK, total: 4 });
      const res = await upload(admin, text, `${field}.json`);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ total: 4, valid: 4, rejected: 0 });
    }
    // A list field outranks one written before it (questions, data, items, list); a field that is not a list is no list.
    const ranked = await prepareBankFile(
      'ranked.json',
      Buffer.from(JSON.stringify({ list: [question(1), question(2)], questions: [question(3)], data: '不是列表' })),
    );
    expect(ranked).toMatchObject({ total: 1, valid: 1, sample: [{ row: 1, title: question(3).title }] });
    // The same field twice: the last one, as JSON.parse keeps it.
    const twice = await prepareBankFile(
      'twice.json',
      Buffer.from(`{"questions": [${JSON.stringify(question(1))}], "questions": [${JSON.stringify(question(2))}]}`),
    );
    expect(twice.sample.map((q) => q.title)).toEqual([question(2).title]);
    const noList = await upload(admin, JSON.stringify({ questions: { a: question(1) } }), 'x.json');
    expect(noList.statusCode).toBe(400);
    expect(noList.json().errorMessage).toContain('JSON 顶层应为题目数组');
    const scalar = await upload(admin, '"题库"', 'x.json');
    expect(scalar.json().errorMessage).toContain('JSON 顶层应为题目数组');
    const trailing = await upload(admin, `${JSON.stringify(JSON_BANK)} x`, 'x.json');
    expect(trailing.statusCode).toBe(400);
    expect(trailing.json().errorMessage).toContain('JSON 格式有误');
    const blank = await upload(admin, '   \n', 'x.json');
    expect(blank.json().errorMessage).toContain('JSON 格式有误');
  });

  it(`spools the prepared questions ${IMPORT_CHUNK} at a time and hands back only the report`, async () => {
    const prepared = async (text: string) => {
      const spool = await createTempFile();
      try {
        const p = await prepareBankFile('bank.json', Buffer.from(text), undefined, spool);
        const titles: string[] = [];
        for await (const { json } of readSpool(p.spool!)) {
          titles.push(...(JSON.parse(json) as { title: string }[]).map((q) => q.title));
        }
        return { size: JSON.stringify(p).length, chunks: p.spool!.chunks.map((c) => c.rows), titles };
      } finally {
        await removeTempFile(spool);
      }
    };
    const list = (n: number) => Array.from({ length: n }, (_, i) => question(i));
    const small = await prepared(JSON.stringify(list(50)));
    const big = await prepared(JSON.stringify(list(4_500)));
    expect(small.chunks).toEqual([50]);
    expect(big.chunks).toEqual([2_000, 2_000, 500]);
    expect(big.titles).toEqual(list(4_500).map((q) => q.title));
    expect(big.size).toBeLessThan(small.size + 1_000);
    // A list field that replaces an earlier one replaces its spooled rows too.
    const replaced = await prepared(JSON.stringify({ list: list(2_500), questions: [question(9_999)] }));
    expect(replaced).toMatchObject({ chunks: [1], titles: [question(9_999).title] });
  }, 60_000);

  it('reads a GBK JSON file and one with a BOM', async () => {
    const text = JSON.stringify(JSON_BANK);
    const gbk = await upload(admin, iconv.encode(text, 'gbk'), 'gbk.json');
    expect(gbk.json().data).toMatchObject({ total: 4, valid: 4 });
    expect(gbk.json().data.sample[1].title).toBe('下列属于哺乳动物的有');
    const bom = await upload(admin, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]), 'bom.json');
    expect(bom.json().data).toMatchObject({ total: 4, valid: 4 });
  });

  it(`refuses a flood of empty objects beyond ${BANK_MAX_ROWS} rows with 413, staging and writing nothing`, async () => {
    // 1,000,000 × `{}`: 3 MB that JSON.parse would make a million objects of, every one a row to check.
    const flood = Buffer.from(`[${'{},'.repeat(1_000_000 - 1)}{}]`);
    const res = await upload(admin, flood, 'flood.json');
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ success: false, errorCode: 'TOO_MANY_ROWS' });
    expect(res.json().errorMessage).toBe(
      `文件中的题目超过 ${BANK_MAX_ROWS} 道，已拒绝（未导入任何题目）；请拆分后分批上传`,
    );
    expect(await count()).toBe(0);
    // The same in a CSV, and in a list field of an object.
    const rows = (n: number) => Array.from({ length: n }, (_, i) => question(i));
    await expect(
      prepareBankFile('cap.csv', Buffer.from(csv([['题目', '答案'], ...rows(4).map((q) => [q.title, q.answer])])), {
        maxRows: 3,
        maxRowBytes: BANK_MAX_ROW_BYTES,
      }),
    ).rejects.toMatchObject({ statusCode: 413, errorCode: 'TOO_MANY_ROWS' });
    await expect(
      prepareBankFile('cap.json', Buffer.from(JSON.stringify({ data: rows(4) })), {
        maxRows: 3,
        maxRowBytes: BANK_MAX_ROW_BYTES,
      }),
    ).rejects.toMatchObject({ statusCode: 413, errorCode: 'TOO_MANY_ROWS' });
    // Exactly the cap is accepted.
    const atCap = await prepareBankFile('cap.json', Buffer.from(JSON.stringify(rows(3))), {
      maxRows: 3,
      maxRowBytes: BANK_MAX_ROW_BYTES,
    });
    expect(atCap).toMatchObject({ total: 3, valid: 3 });
  }, 60_000);

  it('refuses one element larger than the per-question limit with 413, and nesting no question needs with 400', async () => {
    const huge = await upload(
      admin,
      JSON.stringify([question(1), { title: '长'.repeat(BANK_MAX_ROW_BYTES) }]),
      'huge.json',
    );
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ errorCode: 'ROW_TOO_LARGE' });
    expect(huge.json().errorMessage).toContain('约第 2 项');
    // Nesting no question needs, refused at once.
    const deep = await upload(admin, `[${'['.repeat(2 * BANK_MAX_ROW_BYTES)}`, 'deep.json');
    expect(deep.statusCode).toBe(400);
    expect(deep.json().errorMessage).toBe('JSON 嵌套层数超过 16 层，不是题库文件');
    // A member of the top-level object beside the list.
    const beside = await upload(
      admin,
      JSON.stringify({ meta: 'x'.repeat(BANK_MAX_ROW_BYTES + 1), questions: JSON_BANK }),
      'm.json',
    );
    expect(beside.statusCode).toBe(413);
    expect(await count()).toBe(0);
  });

  it('previews and commits a big bank given as a list field, in chunks', async () => {
    const rows = Array.from({ length: 12_000 }, (_, i) => question(i));
    const { preview, job } = await importFile(admin, JSON.stringify({ questions: rows }), 'big-object.json');
    expect(preview).toMatchObject({ total: 12_000, valid: 12_000, rejected: 0 });
    expect(preview.sample[19]).toMatchObject({ row: 20, title: question(19).title });
    expect(job).toMatchObject({ status: 'done', total: 12_000, done: 12_000, inserted: 12_000 });
    expect(await count()).toBe(12_000);
  }, 120_000);
});

describe('idempotence and progress', () => {
  it('importing the same file twice inserts nothing the second time and updates instead', async () => {
    const first = await importFile(admin, JSON.stringify(JSON_BANK), 'bank.json');
    expect(first.job).toMatchObject({ inserted: 4, updated: 0 });
    const second = await importFile(admin, JSON.stringify(JSON_BANK), 'bank.json');
    expect(second.preview).toMatchObject({ valid: 4, existing: 4 });
    expect(second.job).toMatchObject({ status: 'done', inserted: 0, updated: 4 });
    expect(await count()).toBe(4);
  });

  it('a large file is written in chunks and the job reports progress up to done', async () => {
    const rows = Array.from({ length: 4500 }, (_, i) => ({
      title: `合成题目第 ${i} 号：${i * 7919} 的末位数字是`,
      type: 'completion',
      answer: String((i * 7919) % 10),
    }));
    const { preview, seen } = await importFile(admin, JSON.stringify(rows), 'big.json');
    expect(preview).toMatchObject({ total: 4500, valid: 4500 });
    const last = seen[seen.length - 1]!;
    expect(last).toMatchObject({ status: 'done', total: 4500, done: 4500, inserted: 4500 });
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.done).toBeGreaterThanOrEqual(seen[i - 1]!.done);
    for (const s of seen) expect(s.done % 2000 === 0 || s.done === 4500).toBe(true);
    expect(await count()).toBe(4500);
  }, 60_000);
});

describe('imported questions are answered right away', () => {
  it('by exact and by fuzzy match through /api/ocs/query', async () => {
    await importFile(
      admin,
      csv([
        ['题目', '题型', '选项', '答案'],
        [
          '在社会主义初级阶段我国必须坚持和完善的基本经济制度是',
          '单选题',
          '公有制为主体、多种所有制经济共同发展|私有制为主体|计划经济',
          'A',
        ],
        ['细胞膜的主要成分是', '单选题', '脂质和蛋白质|糖类和核酸|水和无机盐', 'A'],
      ]),
      'fresh.csv',
    );
    const { token } = await userWithToken(ctx, 10);
    const exact = await ask(
      ctx,
      token,
      '1. 细胞膜的主要成分是？',
      'single',
      'A. 水和无机盐\nB. 脂质和蛋白质\nC. 糖类和核酸',
    );
    expect(exact).toMatchObject({
      code: 1,
      question: '细胞膜的主要成分是',
      answer: JSON.stringify(['B. 脂质和蛋白质']),
      source: 'import',
    });
    // A cut-off title: not the same hash, found through the fuzzy index the import fed.
    const fuzzy = await ask(
      ctx,
      token,
      '在社会主义初级阶段我国必须坚持和完善的基本经济制',
      'single',
      'A. 计划经济\nB. 公有制为主体、多种所有制经济共同发展\nC. 私有制为主体',
    );
    expect(fuzzy).toMatchObject({
      code: 1,
      question: '在社会主义初级阶段我国必须坚持和完善的基本经济制度是',
      answer: JSON.stringify(['B. 公有制为主体、多种所有制经济共同发展']),
    });
  });
});
