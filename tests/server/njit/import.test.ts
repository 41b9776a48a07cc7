/**
 * Roster import through the API: preview and validation report, commit in one transaction,
 * upsert by student number, CSV (UTF-8, BOM, GBK) and XLSX, refusals with clear messages.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import JSZip from 'jszip';
import { sql } from 'kysely';
import { loggedInClient, startTestApp, type Client, type TestContext } from '../helpers';
import { createTempFile, readSpool, removeTempFile } from '../../../server/lib/spool';
import { prepareRoster, ROSTER_CHUNK } from '../../../server/modules/njit/prepare';
import { csv, HEADER, importFile, PEOPLE, synthetic, upload, xlsx } from './fixtures';

let ctx: TestContext;
let admin: Client;
let adminName: string;

beforeAll(async () => {
  ctx = await startTestApp();
  ({ client: admin, username: adminName } = await loggedInClient(ctx, ['njit', 'admin']));
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  await ctx.db.deleteFrom('njit_students').execute();
});

const count = async () =>
  Number(
    (
      await ctx.db
        .selectFrom('njit_students')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('good files', () => {
  it('previews a CSV, writes nothing until commit, then inserts every row and records the import', async () => {
    const res = await upload(admin, csv(PEOPLE));
    expect(res.statusCode).toBe(200);
    const preview = res.json().data;
    expect(preview).toMatchObject({
      format: 'csv',
      encoding: 'utf-8',
      totalRows: 5,
      validRows: 5,
      rejectedRows: 0,
      toInsert: 5,
      toUpdate: 0,
      issueCount: 0,
    });
    expect(preview.columns).toMatchObject({ 学号: '学号', 姓名: '姓名', 手机号: '手机号' });
    // The preview never shows full sensitive values.
    expect(preview.sample[0]).toMatchObject({
      row: 2,
      studentNo: '202101010001',
      name: '张三',
      phone: '138****1234',
      idCard: '3201**********123X',
    });
    expect(await count()).toBe(0);

    const commit = await admin.post(`/api/njit/imports/${preview.importId}/commit`, {});
    expect(commit.statusCode).toBe(200);
    expect(commit.json().data).toMatchObject({
      userName: adminName,
      fileName: 'students.csv',
      totalRows: 5,
      inserted: 5,
      updated: 0,
      rejected: 0,
    });
    expect(await count()).toBe(5);
    const row = await ctx.db
      .selectFrom('njit_students')
      .selectAll()
      .where('student_no', '=', '202101010001')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      name: '张三',
      name_pinyin: 'zhangsan',
      name_initials: 'zs',
      grade: 2021,
      status: '在读',
      phone: '13812341234',
    });

    // The one-time id is spent.
    const again = await admin.post(`/api/njit/imports/${preview.importId}/commit`, {});
    expect(again.statusCode).toBe(404);

    const history = await admin.get('/api/njit/imports');
    expect(history.json().data[0]).toMatchObject({ fileName: 'students.csv', inserted: 5, userName: adminName });
  });

  it('imports an XLSX file with the same result', async () => {
    const { preview, summary } = await importFile(admin, await xlsx(PEOPLE), '名单.xlsx');
    expect(preview).toMatchObject({ format: 'xlsx', encoding: null, validRows: 5 });
    expect(summary).toMatchObject({ inserted: 5, fileName: '名单.xlsx' });
    const row = await ctx.db
      .selectFrom('njit_students')
      .selectAll()
      .where('student_no', '=', '202101020003')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: '李四', id_card: '320104200304041242', dormitory: '西区2栋201' });
  });

  it('reads an .xlsx whose sheet comes before the workbook in the zip, and leaves no temporary file behind', async () => {
    // A streaming writer (as large exports are made) puts the sheet first; the streaming reader
    // spools such a sheet to a temporary file until it has read the workbook's index.
    const streamed = async (header: string[]) => {
      const file = path.join(os.tmpdir(), `njit-streamed-${process.pid}-${Date.now()}.xlsx`);
      const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: false });
      const sheet = writer.addWorksheet('学生名单');
      sheet.addRow(header).commit();
      for (const r of PEOPLE) sheet.addRow(r).commit();
      sheet.commit();
      await writer.commit();
      try {
        return fs.readFileSync(file);
      } finally {
        fs.rmSync(file);
      }
    };
    const spooled = () => fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith(`tmp-${process.pid}-`)).length;
    const before = spooled();
    const { preview, summary } = await importFile(admin, await streamed(HEADER), '导出.xlsx');
    expect(preview).toMatchObject({ format: 'xlsx', validRows: 5, rejectedRows: 0 });
    expect(summary).toMatchObject({ inserted: 5 });
    // A refused file is read to its end as well.
    const refused = await upload(admin, await streamed(['编号', '名称']), '导出.xlsx');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errorMessage).toMatch(/表头缺少必需的列：学号、姓名/);
    expect(spooled()).toBe(before);
  });

  it('recognises English headers in any column order', async () => {
    const content = csv([['Li Lei', '20230001', '13600000000']], ['name', 'Student No', 'Phone']);
    const { summary } = await importFile(admin, content);
    expect(summary.inserted).toBe(1);
    const row = await ctx.db.selectFrom('njit_students').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ student_no: '20230001', name: 'Li Lei', status: '在读', phone: '13600000000' });
  });

  it('reads a UTF-8 CSV with a BOM (Excel "CSV UTF-8")', async () => {
    const res = await upload(admin, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(csv(PEOPLE))]));
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ encoding: 'utf-8', validRows: 5, issueCount: 0 });
    expect(res.json().data.sample[0].studentNo).toBe('202101010001');
  });

  it('detects and decodes a GBK-encoded CSV (Excel on Chinese Windows)', async () => {
    const { preview } = await importFile(admin, iconv.encode(csv(PEOPLE), 'gbk'));
    expect(preview).toMatchObject({ encoding: 'gbk', validRows: 5, issueCount: 0 });
    const row = await ctx.db
      .selectFrom('njit_students')
      .selectAll()
      .where('student_no', '=', '202202010004')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: '王五', college: '电力工程学院', major: '电气工程及其自动化' });
  });
});

describe('bad rows', () => {
  const bad = [
    ['', '无学号', '男', '', '', '', '', '', '', '', ''],
    ['202101010001', '张三', '男', '', '', '', '2021', '在读', '12345', '', ''],
    ['202101010009', '钱七', '男', '', '', '', '2021', '在读', '', '320102200301011234', ''],
    ['202101010010', '孙八', '未知', '', '', '', '21', '放假', '', '', ''],
    ['202101010011', '', '男', '', '', '', '2021', '在读', '13812341234', '', ''],
    PEOPLE[2],
    PEOPLE[2],
  ];

  it('refuses a row for a required value, the status or a duplicate; reports row, field and problem; writes nothing', async () => {
    const res = await upload(admin, csv(bad));
    expect(res.statusCode).toBe(200);
    const p = res.json().data;
    expect(p).toMatchObject({ totalRows: 7, validRows: 3, rejectedRows: 4 });
    expect(p.issues).toEqual([
      { row: 2, field: '学号', message: '缺少学号' },
      // A refused row lists its other problems with it, to be fixed in one go.
      { row: 5, field: '状态', message: expect.stringContaining('状态应为') },
      { row: 5, field: '性别', message: '性别应为“男”或“女”' },
      { row: 5, field: '年级', message: '年级应为四位入学年份，如 2023' },
      { row: 6, field: '姓名', message: '缺少姓名' },
      { row: 8, field: '学号', message: '学号在文件中重复（与第 7 行相同）' },
    ]);
    expect(p.issueCount).toBe(6);
    expect(await count()).toBe(0);
  });

  it('imports a row whose optional value is not valid, that value blank, with a warning naming it', async () => {
    const res = await upload(admin, csv(bad));
    const p = res.json().data;
    expect(p.warnings).toEqual([
      { row: 3, field: '手机号', message: '手机号格式不正确（应为 11 位，以 1 开头），该项留空导入' },
      { row: 4, field: '身份证号', message: '身份证号格式或校验位不正确，该项留空导入' },
    ]);
    expect(p.warningCount).toBe(2);
    expect(p.sample.map((s: { row: number; phone: string | null }) => [s.row, s.phone])).toEqual([
      [3, null],
      [4, null],
      [7, '150****2222'],
    ]);
    await admin.post(`/api/njit/imports/${p.importId}/commit`, {});
    const rows = await ctx.db
      .selectFrom('njit_students')
      .select(['student_no', 'name', 'phone', 'id_card', 'gender', 'grade'])
      .orderBy('student_no')
      .execute();
    expect(rows).toEqual([
      { student_no: '202101010001', name: '张三', phone: null, id_card: null, gender: '男', grade: 2021 },
      { student_no: '202101010009', name: '钱七', phone: null, id_card: null, gender: '男', grade: 2021 },
      {
        student_no: '202101020003',
        name: '李四',
        phone: '15011112222',
        id_card: '320104200304041242',
        gender: '女',
        grade: 2021,
      },
    ]);
  });

  it('a real-looking roster whose phones and ID numbers are often wrong loses only those values', async () => {
    // 21 rows as an office exports them: landlines, short numbers, ID numbers with a wrong check
    // character, 15-digit old IDs. Only the two rows with a missing name or a duplicate number are refused.
    const rows = synthetic(21, 11).map((r, i) => {
      const row = [...r];
      row[8] = ['025-8611' + String(1000 + i), '1381234', '', '+86 138 1234 5678'][i % 4]!;
      row[9] = i % 3 === 0 ? `${row[9]!.slice(0, 17)}${row[9]!.endsWith('1') ? '2' : '1'}` : '320102850101123';
      return row;
    });
    rows[5]![1] = '';
    rows[9]![0] = rows[8]![0]!;
    const { preview, summary } = await importFile(admin, csv(rows));
    expect(preview).toMatchObject({ totalRows: 21, validRows: 19, rejectedRows: 2 });
    expect(summary).toMatchObject({ inserted: 19, rejected: 2 });
    // +86 138 1234 5678 is a valid mobile number once written plainly.
    const kept = await ctx.db.selectFrom('njit_students').select('phone').where('phone', 'is not', null).execute();
    expect(kept.every((k) => k.phone === '13812345678')).toBe(true);
    expect(preview.warningCount).toBeGreaterThanOrEqual(19);
  });

  it('commits only the valid rows and counts the rejected ones', async () => {
    const { summary } = await importFile(admin, csv(bad));
    expect(summary).toMatchObject({ totalRows: 7, inserted: 3, updated: 0, rejected: 4 });
    expect(await count()).toBe(3);
  });

  it('a commit that fails in the database changes nothing', async () => {
    await importFile(admin, csv(PEOPLE.slice(0, 2)));
    const res = await upload(
      admin,
      csv([...PEOPLE.slice(0, 2).map((r) => [...r.slice(0, 1), '改名', ...r.slice(2)]), PEOPLE[2]]),
    );
    const id = res.json().data.importId;
    // Corrupt the last staged row so the upsert violates the status check after the first rows went in.
    await sql`update njit_import_staging_chunks set rows = jsonb_set(rows, '{2,status}', '"放假"') where import_id = ${id}`.execute(
      ctx.db,
    );
    const commit = await admin.post(`/api/njit/imports/${id}/commit`, {});
    expect(commit.statusCode).toBe(500);
    expect(await count()).toBe(2);
    const names = await ctx.db.selectFrom('njit_students').select('name').orderBy('student_no').execute();
    expect(names.map((n) => n.name)).toEqual(['张三', '张三丰']);
    expect((await admin.get('/api/njit/imports')).json().data[0].totalRows).toBe(2);
  });
});

describe('templates', () => {
  it('a CSV template: the header the importer reads (UTF-8 with BOM); filled in, it imports', async () => {
    const res = await admin.get('/api/njit/imports/template?format=csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('学生名单模板.csv')}`);
    expect(res.body).toBe(`\uFEFF${HEADER.join(',')}\r\n`);
    const { preview, summary } = await importFile(admin, res.body + csv(PEOPLE).split('\r\n').slice(1).join('\r\n'));
    expect(Object.values(preview.columns)).toEqual(HEADER);
    expect(summary).toMatchObject({ inserted: 5, rejected: 0 });
  });

  it('an Excel template: the header on the sheet the importer reads, a sheet explaining each column; filled in, it imports', async () => {
    const res = await admin.request({ method: 'GET', url: '/api/njit/imports/template?format=xlsx' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const [sheet, help] = wb.worksheets;
    expect((sheet!.getRow(1).values as unknown[]).slice(1)).toEqual(HEADER);
    expect(help!.name).toBe('填写说明');
    const rules = HEADER.map((_, i) => (help!.getRow(i + 2).values as unknown[]).slice(1, 3));
    expect(rules.filter(([, need]) => need === '必填').map(([label]) => label)).toEqual(['学号', '姓名']);
    for (const r of PEOPLE) sheet!.addRow(r);
    const filled = Buffer.from(await wb.xlsx.writeBuffer());
    const { preview, summary } = await importFile(admin, filled, 'filled.xlsx');
    expect(Object.values(preview.columns)).toEqual(HEADER);
    expect(summary).toMatchObject({ inserted: 5, rejected: 0 });
    // The ID column is text: an ID number typed into it keeps its digits and its X.
    expect(sheet!.getColumn(10).numFmt).toBe('@');
  });

  it('refuses another format with a 400 naming the field', async () => {
    for (const q of ['format=pdf', '', 'format=', 'format=csv%00']) {
      const res = await admin.get(`/api/njit/imports/template?${q}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().data).toHaveProperty('format');
    }
  });
});

describe('re-import', () => {
  it('updates existing students by student number without duplicates', async () => {
    await importFile(admin, csv(PEOPLE));
    const changed = PEOPLE.map((r) => [...r]);
    changed[0][7] = '休学';
    changed[0][10] = '北区9栋909';
    const extra = ['202303030006', '周七', '女', '经济与管理学院', '会计学', '会计231', '2023', '在读', '', '', ''];
    const res = await upload(admin, csv([...changed, extra]));
    expect(res.json().data).toMatchObject({ toInsert: 1, toUpdate: 5 });
    const commit = await admin.post(`/api/njit/imports/${res.json().data.importId}/commit`, {});
    expect(commit.json().data).toMatchObject({ inserted: 1, updated: 5 });
    expect(await count()).toBe(6);
    const row = await ctx.db
      .selectFrom('njit_students')
      .selectAll()
      .where('student_no', '=', '202101010001')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: '休学', dormitory: '北区9栋909' });
  });
});

describe('a huge file', () => {
  it(`stages the rows ${ROSTER_CHUNK} at a time and counts the students already stored chunk by chunk`, async () => {
    const rows = synthetic(4_500, 12);
    // Stored already: 100 of the first chunk's students and 200 of the second's.
    await importFile(admin, csv([...rows.slice(0, 100), ...rows.slice(2_100, 2_300)]), 'first.csv');
    const res = await upload(admin, csv(rows), 'big.csv');
    const { importId, toInsert, toUpdate } = res.json().data;
    expect({ toInsert, toUpdate }).toEqual({ toInsert: 4_200, toUpdate: 300 });
    const { rows: chunks } = await sql<{ seq: number; n: number }>`
      select seq, jsonb_array_length(rows) as n from njit_import_staging_chunks
      where import_id = ${importId} order by seq`.execute(ctx.db);
    expect(chunks).toEqual([
      { seq: 0, n: 2_000 },
      { seq: 1, n: 2_000 },
      { seq: 2, n: 500 },
    ]);
    const commit = await admin.post(`/api/njit/imports/${importId}/commit`, {});
    expect(commit.json().data).toMatchObject({ inserted: 4_200, updated: 300 });
    expect(await count()).toBe(4_500);
    // Committed: the staged chunks are gone with their import.
    const left = await ctx.db.selectFrom('njit_import_staging_chunks').select('seq').execute();
    expect(left).toEqual([]);
  }, 120_000);

  it('what the preparation hands back is the report, as large for 4,500 rows as for 50: the rows are in the spool', async () => {
    const prepared = async (n: number) => {
      const spool = await createTempFile();
      try {
        const p = await prepareRoster('roster.csv', Buffer.from(csv(synthetic(n, 13))), spool);
        const titles: string[] = [];
        for await (const { json } of readSpool(p.spool!)) {
          titles.push(...(JSON.parse(json) as { student_no: string }[]).map((r) => r.student_no));
        }
        return { size: JSON.stringify(p).length, chunks: p.spool!.chunks.map((c) => c.rows), numbers: titles };
      } finally {
        await removeTempFile(spool);
      }
    };
    const small = await prepared(50);
    const big = await prepared(4_500);
    expect(small.chunks).toEqual([50]);
    expect(big.chunks).toEqual([2_000, 2_000, 500]);
    expect(big.numbers).toEqual(synthetic(4_500, 13).map((r) => r[0]));
    expect(big.size).toBeLessThan(small.size + 1_000);
  }, 60_000);

  it('imports 20,000 rows in one commit', async () => {
    const rows = synthetic(20_000, 11);
    const { preview, summary } = await importFile(admin, csv(rows), 'big.csv');
    expect(preview).toMatchObject({ totalRows: 20_000, validRows: 20_000, issueCount: 0 });
    expect(preview.sample).toHaveLength(20);
    expect(summary).toMatchObject({ inserted: 20_000, updated: 0 });
    expect(await count()).toBe(20_000);
  }, 120_000);
});

describe('refusals', () => {
  it('refuses a file that is not a spreadsheet with a clear 400', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
    const res = await upload(admin, png, 'photo.png');
    expect(res.statusCode).toBe(400);
    expect(res.json().errorMessage).toMatch(/请上传 CSV/);

    const letter = await upload(admin, 'hello world\nthis is a letter\n', 'notes.txt');
    expect(letter.statusCode).toBe(400);
    expect(letter.json().errorMessage).toMatch(/请上传 CSV/);

    const text = await upload(admin, 'city,population\nNanjing,9000000\n', 'cities.csv');
    expect(text.statusCode).toBe(400);
    expect(text.json().errorMessage).toMatch(/表头缺少必需的列：学号、姓名/);

    const fakeXlsx = await upload(admin, Buffer.from('PK\u0003\u0004garbage'), 'broken.xlsx');
    expect(fakeXlsx.statusCode).toBe(400);
    expect(fakeXlsx.json().errorMessage).toMatch(/Excel/);

    const xls = await upload(admin, Buffer.from('d0cf11e0a1b11ae1', 'hex'), 'old.xls');
    expect(xls.statusCode).toBe(400);
    expect(xls.json().errorMessage).toMatch(/xls/);

    const empty = await upload(admin, Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    expect(await count()).toBe(0);
  });

  it('refuses a file over 20 MB with 413', async () => {
    const res = await upload(admin, Buffer.alloc(20 * 1024 * 1024 + 10, 0x41));
    expect(res.statusCode).toBe(413);
    expect(res.json().errorMessage).toMatch(/20 MB/);
  });

  it("refuses an .xlsx zip bomb before parsing it, without the server's memory following it", async () => {
    // A real workbook whose sheet is padded with 120 MB of spaces: about 120 KB on the wire.
    const zip = await JSZip.loadAsync(await xlsx(PEOPLE));
    const sheet = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
    const padding = Buffer.alloc(120 * 1024 * 1024, 0x20);
    zip.file(
      'xl/worksheets/sheet1.xml',
      Buffer.concat([Buffer.from(sheet.replace('</worksheet>', '')), padding, Buffer.from('</worksheet>')]),
    );
    const bomb = await zip.generateAsync({
      type: 'nodebuffer',
      compression: 'DEFLATE',
      compressionOptions: { level: 9 },
    });
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    const res = await upload(admin, bomb, 'bomb.xlsx');
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({
      errorCode: 'ARCHIVE_TOO_LARGE',
      errorMessage: expect.stringMatching(/解压后过大/),
    });
    // The check streams: nowhere near the 120 MB the sheet inflates to is ever held.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(100 * 1024 * 1024);
    expect(await count()).toBe(0);
  });

  it('refuses a JSON body on the upload route', async () => {
    const res = await admin.post('/api/njit/imports', { file: 'x' });
    expect(res.statusCode).toBe(400);
  });

  it("commit needs the uploader's own, unexpired import id", async () => {
    const res = await upload(admin, csv(PEOPLE));
    const id = res.json().data.importId;
    const { client: other } = await loggedInClient(ctx, ['njit', 'admin']);
    expect((await other.post(`/api/njit/imports/${id}/commit`, {})).statusCode).toBe(404);
    await ctx.db
      .updateTable('njit_import_staging')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', id)
      .execute();
    const expired = await admin.post(`/api/njit/imports/${id}/commit`, {});
    expect(expired.statusCode).toBe(404);
    expect(expired.json().errorMessage).toMatch(/过期/);
    expect(await count()).toBe(0);
  });

  it('keeps one pending preview per uploader: a new upload replaces the old one', async () => {
    const first = (await upload(admin, csv(PEOPLE))).json().data.importId;
    const second = (await upload(admin, csv(PEOPLE.slice(0, 1)))).json().data.importId;
    expect((await admin.post(`/api/njit/imports/${first}/commit`, {})).statusCode).toBe(404);
    expect((await admin.post(`/api/njit/imports/${second}/commit`, {})).json().data.inserted).toBe(1);
  });
});
