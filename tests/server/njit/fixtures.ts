/** Shared helpers of the njit server tests: roster files and upload/commit through the real API. */
import ExcelJS from 'exceljs';
import { syntheticStudents, type SyntheticStudent } from '../../../bench/njit/synthetic';
import { multipart, type Client } from '../helpers';

export const HEADER = ['学号', '姓名', '性别', '学院', '专业', '班级', '年级', '状态', '手机号', '身份证号', '宿舍'];

/** Fixed people the search tests look for. ID numbers carry a valid GB 11643 check character. */
export const PEOPLE: string[][] = [
  [
    '202101010001',
    '张三',
    '男',
    '计算机工程学院',
    '软件工程',
    '软件211',
    '2021',
    '在读',
    '13812341234',
    '32010220030101123X',
    '东区1栋101',
  ],
  [
    '202101010002',
    '张三丰',
    '男',
    '计算机工程学院',
    '软件工程',
    '软件211',
    '2021',
    '休学',
    '13900001111',
    '320102200302021237',
    '东区1栋102',
  ],
  [
    '202101020003',
    '李四',
    '女',
    '计算机工程学院',
    '网络工程',
    '网络211',
    '2021',
    '在读',
    '15011112222',
    '320104200304041242',
    '西区2栋201',
  ],
  [
    '202202010004',
    '王五',
    '女',
    '电力工程学院',
    '电气工程及其自动化',
    '电气221',
    '2022',
    '在读',
    '18622223333',
    '',
    '南区3栋301',
  ],
  [
    '202202010005',
    '赵六',
    '男',
    '电力工程学院',
    '电气工程及其自动化',
    '电气221',
    '2022',
    '毕业',
    '',
    '320102200405051236',
    '',
  ],
];

export function csv(rows: (string | number)[][], header = HEADER): string {
  const cell = (v: string | number) => (/[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
  return [header, ...rows].map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}

export function studentsRows(students: SyntheticStudent[]): string[][] {
  return students.map((s) => HEADER.map((h) => String(s[h as keyof SyntheticStudent])));
}

export function synthetic(count: number, seed = 7): string[][] {
  return studentsRows(syntheticStudents(count, { seed }));
}

export async function xlsx(rows: (string | number)[][], header = HEADER): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('学生名单');
  ws.addRow(header);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export function upload(client: Client, content: Buffer | string, filename = 'students.csv') {
  const body = multipart('file', filename, Buffer.isBuffer(content) ? content : Buffer.from(content));
  return client.request({ method: 'POST', url: '/api/njit/imports', payload: body.payload, headers: body.headers });
}

/** Upload then commit; fails the test on any non-200. */
export async function importFile(client: Client, content: Buffer | string, filename = 'students.csv') {
  const res = await upload(client, content, filename);
  if (res.statusCode !== 200) throw new Error(`upload failed ${res.statusCode}: ${res.body}`);
  const preview = res.json().data;
  const commit = await client.post(`/api/njit/imports/${preview.importId}/commit`, {});
  if (commit.statusCode !== 200) throw new Error(`commit failed ${commit.statusCode}: ${commit.body}`);
  return { preview, summary: commit.json().data };
}
