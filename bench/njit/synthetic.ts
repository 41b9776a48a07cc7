/**
 * Realistic but entirely synthetic students for the bench, the demo seed and tests: Chinese names,
 * colleges, majors and classes; phones and ID numbers valid in format (ID numbers with a correct
 * GB 11643 check character) but made up. Deterministic for a given seed. No real personal data.
 */
import { mulberry32 } from '../lib/random';
import Papa from 'papaparse';
import { idCheckChar } from '../../server/modules/njit/record';

export interface SyntheticStudent {
  学号: string;
  姓名: string;
  性别: '男' | '女';
  学院: string;
  专业: string;
  班级: string;
  年级: number;
  状态: '在读' | '休学' | '毕业' | '退学';
  手机号: string;
  身份证号: string;
  宿舍: string;
}

const SURNAMES =
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤';
const COMPOUND_SURNAMES = ['欧阳', '司马', '上官', '诸葛', '东方'];
const GIVEN_MALE = '伟强磊军洋勇杰涛明超刚平辉鹏华飞鑫波斌宇浩凯健俊帆帅旭宁龙林晨阳博文轩然睿哲峰磊诚毅';
const GIVEN_FEMALE = '芳娜敏静丽艳娟霞秀玲桂英慧莹雪琳晶颖倩婷佳欣怡悦梦瑶雨涵萱思琪嘉妍彤蕾露薇茜';

/** Colleges of an imagined institute of technology, with majors and their class-name prefixes. */
export const COLLEGES: { name: string; majors: [string, string][] }[] = [
  {
    name: '计算机工程学院',
    majors: [
      ['计算机科学与技术', '计科'],
      ['软件工程', '软件'],
      ['网络工程', '网络'],
      ['数据科学与大数据技术', '数据'],
    ],
  },
  {
    name: '电力工程学院',
    majors: [
      ['电气工程及其自动化', '电气'],
      ['智能电网信息工程', '智电'],
      ['储能科学与工程', '储能'],
    ],
  },
  {
    name: '机械工程学院',
    majors: [
      ['机械设计制造及其自动化', '机械'],
      ['机器人工程', '机器人'],
      ['工业设计', '工设'],
    ],
  },
  {
    name: '自动化学院',
    majors: [
      ['自动化', '自动化'],
      ['测控技术与仪器', '测控'],
      ['轨道交通信号与控制', '轨交'],
    ],
  },
  {
    name: '通信工程学院',
    majors: [
      ['通信工程', '通信'],
      ['电子信息工程', '电信'],
      ['物联网工程', '物联网'],
    ],
  },
  {
    name: '材料科学与工程学院',
    majors: [
      ['材料成型及控制工程', '材控'],
      ['新能源材料与器件', '新能源'],
    ],
  },
  {
    name: '建筑工程学院',
    majors: [
      ['土木工程', '土木'],
      ['建筑学', '建筑'],
      ['工程管理', '工管'],
    ],
  },
  {
    name: '环境工程学院',
    majors: [
      ['环境工程', '环境'],
      ['给排水科学与工程', '给排水'],
    ],
  },
  {
    name: '经济与管理学院',
    majors: [
      ['会计学', '会计'],
      ['财务管理', '财管'],
      ['市场营销', '营销'],
      ['物流管理', '物流'],
    ],
  },
  {
    name: '外国语学院',
    majors: [
      ['英语', '英语'],
      ['日语', '日语'],
      ['德语', '德语'],
    ],
  },
  {
    name: '艺术与设计学院',
    majors: [
      ['视觉传达设计', '视传'],
      ['环境设计', '环设'],
      ['数字媒体艺术', '数媒'],
    ],
  },
  {
    name: '数理学院',
    majors: [
      ['数学与应用数学', '数学'],
      ['应用物理学', '应物'],
    ],
  },
];

/** Region codes (province-city-district) used for the first six ID digits. */
const REGIONS = [
  '320102',
  '320104',
  '320105',
  '320106',
  '320111',
  '320113',
  '320115',
  '320205',
  '320411',
  '320582',
  '321002',
  '330106',
  '340104',
  '310115',
  '370102',
  '410105',
  '420106',
  '510107',
];
const PHONE_PREFIXES = [
  '130',
  '131',
  '132',
  '133',
  '135',
  '136',
  '137',
  '138',
  '139',
  '150',
  '151',
  '152',
  '155',
  '157',
  '158',
  '159',
  '166',
  '177',
  '180',
  '181',
  '182',
  '186',
  '187',
  '188',
  '189',
  '191',
  '198',
  '199',
];

export function syntheticStudents(
  count: number,
  opts: { seed?: number; firstGrade?: number; grades?: number } = {},
): SyntheticStudent[] {
  const rand = mulberry32(opts.seed ?? 20240901);
  const pick = <T>(xs: ArrayLike<T>): T => xs[Math.floor(rand() * xs.length)];
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const pad = (n: number, w: number) => String(n).padStart(w, '0');
  const firstGrade = opts.firstGrade ?? 2021;
  const grades = opts.grades ?? 4;
  const serial = new Map<string, number>();
  const out: SyntheticStudent[] = [];

  for (let i = 0; i < count; i++) {
    const male = rand() < 0.55;
    const surname = rand() < 0.01 ? pick(COMPOUND_SURNAMES) : pick(SURNAMES);
    const pool = male ? GIVEN_MALE : GIVEN_FEMALE;
    const given = rand() < 0.3 ? pick(pool) : pick(pool) + pick(pool);
    const ci = Math.floor(rand() * COLLEGES.length);
    const college = COLLEGES[ci];
    const mi = Math.floor(rand() * college.majors.length);
    const [major, abbr] = college.majors[mi];
    const grade = firstGrade + Math.floor(rand() * grades);
    const classNo = int(1, 4);
    // 学号: grade (4) + college (2) + major (2) + class (1) + serial (3+), unique per class.
    const key = `${grade}${pad(ci + 1, 2)}${pad(mi + 1, 2)}${classNo}`;
    const n = (serial.get(key) ?? 0) + 1;
    serial.set(key, n);
    const studentNo = `${key}${pad(n, 3)}`;

    const birthYear = grade - 18 - (rand() < 0.2 ? 1 : 0);
    const birth = new Date(Date.UTC(birthYear, 0, 1) + Math.floor(rand() * 365) * 86_400_000);
    const seq = int(0, 99) * 10 + (male ? pick([1, 3, 5, 7, 9]) : pick([0, 2, 4, 6, 8]));
    const first17 = `${pick(REGIONS)}${birth.getUTCFullYear()}${pad(birth.getUTCMonth() + 1, 2)}${pad(birth.getUTCDate(), 2)}${pad(seq, 3)}`;

    const r = rand();
    const status = grade <= firstGrade && r < 0.3 ? '毕业' : r < 0.93 ? '在读' : r < 0.98 ? '休学' : '退学';
    out.push({
      学号: studentNo,
      姓名: surname + given,
      性别: male ? '男' : '女',
      学院: college.name,
      专业: major,
      班级: `${abbr}${String(grade).slice(2)}${classNo}`,
      年级: grade,
      状态: status,
      手机号: `${pick(PHONE_PREFIXES)}${pad(int(0, 99_999_999), 8)}`,
      身份证号: first17 + idCheckChar(first17),
      宿舍: `${pick(['东区', '西区', '南区', '北区'])}${int(1, 20)}栋${int(1, 6)}${pad(int(1, 30), 2)}`,
    });
  }
  return out;
}

/** The students as a CSV file (UTF-8, Chinese headers), as an import would receive it. */
export function syntheticCsv(students: SyntheticStudent[]): string {
  return Papa.unparse(students);
}
