/**
 * Deterministic synthetic OCS question bank and the perturbed queries used to measure matching.
 *
 * `generateQuestions` streams Chinese course-quiz questions built from templates × vocabularies. Every
 * title is distinct by construction (see `generateQuestions`), so a bank of 1,000,000 needs no set of
 * seen titles and runs in flat memory. `perturb` turns a bank question into what an OCS caller might
 * send: the same question reformatted (expected to hit) or a near miss that is guaranteed absent from
 * any generated bank, because it carries vocabulary the bank never uses (`RESERVED`).
 */
import { mulberry32 } from '../lib/random';

export { mulberry32 };

export type QuestionType = 'single' | 'multiple' | 'judgement' | 'completion';

export interface SyntheticQuestion {
  title: string;
  type: QuestionType;
  /** Option texts without letter prefixes; empty for judgement and completion. */
  options: string[];
  /** single: [one option], multiple: ≥2 options, judgement: ['正确'] | ['错误'], completion: the blanks. */
  answer: string[];
}

// ---------------------------------------------------------------------------------------------
// Randomness: one small seeded generator so that a seed fully determines a bank.

function mixSeed(seed: number, salt: number): number {
  let h = (seed ^ Math.imul(salt, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

const int = (rnd: () => number, n: number) => Math.floor(rnd() * n);
const pick = <T>(rnd: () => number, list: readonly T[]): T => list[int(rnd, list.length)]!;

function shuffleInPlace<T>(list: T[], rnd: () => number): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = int(rnd, i + 1);
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
}

// ---------------------------------------------------------------------------------------------
// Vocabulary. Words must contain no digits (digit runs in titles come only from number slots), no
// 「不」 and no 「错误」 (so that a negated title can never be a bank title).

/** A subject with `reserved: true` is never used by the bank; unrelated questions are built from it. */
const SUBJECT_TABLE: Array<[name: string, terms: string, reserved?: boolean]> = [
  [
    '微观经济学',
    '边际效用 机会成本 需求价格弹性 消费者剩余 生产者剩余 无差异曲线 预算约束线 规模经济 完全竞争市场 垄断竞争 寡头垄断 纳什均衡 帕累托最优 外部性 公共物品 价格歧视 边际成本 沉没成本',
  ],
  [
    '宏观经济学',
    '国内生产总值 通货膨胀 菲利普斯曲线 货币乘数 财政政策 货币政策 流动性陷阱 自然失业率 总需求曲线 挤出效应 投资乘数 国际收支 汇率制度 经济周期 滞胀 边际消费倾向',
  ],
  [
    '会计学',
    '权责发生制 资产负债表 利润表 现金流量表 会计分录 借贷记账法 固定资产折旧 存货计价 应收账款 长期股权投资 所有者权益 坏账准备 会计恒等式 试算平衡 递延所得税 无形资产',
  ],
  [
    '管理学',
    '科学管理理论 霍桑实验 需要层次理论 双因素理论 期望理论 目标管理 SWOT分析 矩阵式组织结构 领导权变理论 决策树 管理幅度 激励机制 波特五力模型 企业文化 人力资源规划',
  ],
  [
    '马克思主义基本原理',
    '剩余价值 唯物辩证法 矛盾的普遍性 量变与质变 否定之否定规律 认识的本质 生产力 生产关系 经济基础 上层建筑 商品的二因素 劳动二重性 社会意识 价值规律 资本积累 资本有机构成',
  ],
  [
    '中国近现代史纲要',
    '鸦片战争 洋务运动 戊戌变法 辛亥革命 新文化运动 五四运动 国民革命 井冈山会师 长征 抗日民族统一战线 皖南事变 双十协定 三大战役 土地改革 抗美援朝',
  ],
  [
    '思想道德与法治',
    '理想信念 社会主义核心价值观 爱国主义 法治思维 宪法权威 公民基本权利 职业道德 家庭美德 社会公德 人生观 诚信原则 法律权利 法律义务 个人品德 集体主义',
  ],
  [
    '民法学',
    '民事法律行为 诉讼时效 无因管理 善意取得 物权法定 债权让与 抵押权 质权 留置权 要约邀请 违约责任 侵权责任 监护制度 法人人格 表见代理 格式条款',
  ],
  [
    '刑法学',
    '犯罪构成 正当防卫 紧急避险 犯罪未遂 犯罪中止 共同犯罪 累犯 自首 立功 缓刑 假释 数罪并罚 罪刑法定原则 故意犯罪 过失犯罪 单位犯罪',
  ],
  [
    '高等数学',
    '函数极限 导数 全微分 定积分 泰勒公式 拉格朗日中值定理 洛必达法则 偏导数 二重积分 幂级数 傅里叶级数 常微分方程 方向导数 曲率 反常积分 格林公式',
  ],
  [
    '线性代数',
    '行列式 矩阵的秩 逆矩阵 特征值 特征向量 线性相关性 向量空间 正交矩阵 二次型 相似矩阵 初等变换 齐次线性方程组 克拉默法则 矩阵的迹 施密特正交化',
  ],
  [
    '概率论与数理统计',
    '条件概率 全概率公式 贝叶斯公式 随机变量 数学期望 方差 协方差 正态分布 泊松分布 二项分布 中心极限定理 大数定律 置信区间 假设检验 极大似然估计',
  ],
  [
    '大学物理',
    '牛顿第二定律 动量守恒定律 角动量 简谐振动 多普勒效应 热力学第一定律 卡诺循环 电场强度 高斯定理 安培环路定理 电磁感应 光的干涉 光的衍射 狭义相对论 光电效应 偏振光',
  ],
  [
    '计算机网络',
    'TCP协议 UDP协议 三次握手 拥塞控制 滑动窗口 路由选择 子网掩码 域名系统 HTTP协议 ARP协议 以太网 虚拟局域网 网络地址转换 数字签名 对称加密 分组交换',
  ],
  [
    '数据结构',
    '线性表 顺序栈 循环队列 线索二叉树 哈夫曼树 平衡二叉树 B树 红黑树 哈希表 图的遍历 最小生成树 最短路径 拓扑排序 快速排序 堆排序 归并排序 折半查找',
  ],
  [
    '操作系统',
    '进程调度 线程同步 死锁 信号量 虚拟内存 页面置换算法 分页存储管理 临界区 文件系统 中断处理 设备驱动程序 内存碎片 银行家算法 多道程序设计 进程控制块',
  ],
  [
    '数据库原理',
    '关系模型 主键约束 外键约束 第三范式 事务隔离级别 并发控制 两段锁协议 索引 视图 存储过程 触发器 E-R图 关系代数 函数依赖 数据库恢复',
  ],
  [
    'C语言程序设计',
    '指针变量 一维数组 结构体 函数递归 局部变量 全局变量 宏定义 文件操作 动态内存分配 位运算 字符串处理 循环结构 条件编译 头文件 共用体',
  ],
  [
    '软件工程',
    '瀑布模型 敏捷开发 需求分析 黑盒测试 白盒测试 单元测试 模块耦合度 模块内聚度 UML类图 用例图 软件重构 版本控制 持续集成 螺旋模型 软件配置管理',
  ],
  [
    '中国古代文学',
    '诗经 楚辞 汉乐府 建安风骨 盛唐气象 宋词 元杂剧 明清小说 古文运动 婉约派 豪放派 竹林七贤 山水田园诗 边塞诗 唐传奇',
  ],
  [
    '生物学',
    '光合作用 细胞呼吸 有丝分裂 减数分裂 基因突变 自然选择 DNA复制 遗传信息的转录 生态系统 食物链 种群密度 群落演替 内环境稳态 协助扩散 细胞凋亡',
  ],
  [
    '市场营销',
    '市场细分 目标市场 市场定位 产品生命周期 品牌资产 渠道冲突 促销组合 关系营销 营销组合 消费者购买行为 撇脂定价 渗透定价 病毒式营销 服务质量差距模型',
  ],
  [
    '财务管理',
    '货币时间价值 净现值 内含报酬率 资本成本 财务杠杆 经营杠杆 资本结构 股利政策 营运资金管理 现金预算 投资回收期 风险报酬 杜邦分析 经济订货批量',
  ],
  [
    '化学',
    '氧化还原反应 化学平衡 电离平衡 盐类水解 原电池 电解池 同分异构体 共价键 离子键 元素周期律 酯化反应 催化剂 摩尔质量 勒夏特列原理',
    true,
  ],
  [
    '教育学',
    '最近发展区 建构主义 启发式教学 因材施教 形成性评价 终结性评价 班级授课制 课程标准 教育目的 发现学习 有意义学习 先行组织者 掌握学习',
    true,
  ],
  [
    '心理学',
    '经典条件反射 操作性条件反射 认知失调 从众效应 晕轮效应 首因效应 近因效应 短时记忆 遗忘曲线 皮格马利翁效应 自我效能感 习得性无助 心理防御机制',
    true,
  ],
  [
    '自然地理学',
    '季风气候 地中海气候 板块构造学说 喀斯特地貌 洋流 城市热岛效应 厄尔尼诺现象 冲积扇 等高线 大气环流 水循环 地球公转 冻土',
    true,
  ],
];

const SURNAMES = [
  ...'王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范石廖贾夏韦付方白邹孟熊秦邱尹薛闫段雷侯史陶黎贺顾毛郝龚邵钱严覃武戴莫孔汤',
];
// Two characters each, so surname + given name always splits one way.
const GIVEN_NAMES = (
  '建国 志强 秀英 桂英 明辉 海燕 晓明 丽娟 俊杰 文静 子轩 雨桐 浩然 欣怡 宇航 思远 嘉怡 天佑 梓涵 一鸣 ' +
  '婷婷 伟东 春华 秋实 国平 玉兰 振华 立新 晓燕 永强 红梅 家豪 雅琴 博文 若曦 晨阳 佳琪 德胜 淑芬 少华 ' +
  '锦程 鹏飞 世杰 慧敏 静怡 宏伟 思琪 泽宇 梦洁 子墨 安琪 雪松 向东 卫红 丽华 建军 文博 欣然 昊天 诗涵 ' +
  '俊豪 美玲 志刚 海涛 玉梅 金凤 秀兰 晓峰 凤英 子豪 若兰 明远 怀瑾 书恒 雨萱 景行 清扬 知秋 亦凡 沐阳'
).split(' ');
const PLACES = (
  '北京 上海 天津 重庆 广州 深圳 杭州 南京 苏州 成都 武汉 西安 长沙 郑州 济南 青岛 大连 沈阳 长春 哈尔滨 ' +
  '石家庄 太原 呼和浩特 合肥 福州 厦门 南昌 南宁 昆明 贵阳 兰州 西宁 银川 乌鲁木齐 拉萨 海口 三亚 宁波 温州 无锡 ' +
  '常州 徐州 扬州 镇江 南通 嘉兴 湖州 绍兴 金华 台州 泉州 漳州 赣州 九江 洛阳 开封 襄阳 宜昌 岳阳 常德 ' +
  '株洲 湘潭 桂林 柳州 北海 大理 丽江 曲靖 绵阳 宜宾 泸州 乐山 南充 宝鸡 咸阳 天水 酒泉 包头 ' +
  '鄂尔多斯 大同 秦皇岛 唐山 保定 邯郸 烟台 威海 潍坊 淄博 临沂 芜湖 安庆 黄山 景德镇 鞍山 齐齐哈尔 ' +
  '牡丹江 大庆 佛山 东莞 珠海 汕头 湛江 惠州 江门 肇庆 梅州 韶关 清远 盐城 连云港 舟山'
).split(' ');

/** Every seventh item of a list (and every n ≡ 3 mod 7) is reserved: never used by the bank. */
const isReservedIndex = (i: number) => i % 7 === 3;
/** Numbers in titles follow the same rule, so changing one to a reserved value leaves the bank. */
export const isReservedNumber = (n: number) => n % 7 === 3;

interface Term {
  text: string;
  subject: number;
  reserved: boolean;
}
const SUBJECTS = SUBJECT_TABLE.map(([name, , reserved]) => ({ name, reserved: !!reserved }));
const TERMS: Term[] = SUBJECT_TABLE.flatMap(([, list, reserved], subject) =>
  list.split(' ').map((text, i) => ({ text, subject, reserved: !!reserved || isReservedIndex(i) })),
);
const TERM_ID = new Map(TERMS.map((t, i) => [t.text, i]));

function numbers(lo: number, hi: number, reserved: boolean): number[] {
  const out: number[] = [];
  for (let n = lo; n <= hi; n++) if (isReservedNumber(n) === reserved) out.push(n);
  return out;
}

/** One side of the partition: the bank's vocabulary or the reserved one. */
interface Pool {
  terms: number[];
  termsBySubject: Map<number, number[]>;
  subjects: number[];
  givenNames: string[];
  places: string[];
  numbers: Record<NumberSlot, number[]>;
}
type NumberSlot = 'Y' | 'M' | 'N' | 'C' | 'R' | 'K';
const NUMBER_RANGES: Record<NumberSlot, [number, number]> = {
  Y: [1950, 2024], // year
  M: [1, 12], // month
  N: [100, 99999], // amount, respondents
  C: [12, 999], // class size, days, page
  R: [5, 98], // percentage
  K: [1, 20], // chapter
};

function makePool(reserved: boolean): Pool {
  const terms = TERMS.flatMap((t, i) =>
    // The unrelated questions use whole reserved subjects; near misses swap in a reserved term of the
    // source's own subject.
    (reserved ? SUBJECTS[t.subject]!.reserved : !t.reserved) ? [i] : [],
  );
  const termsBySubject = new Map<number, number[]>();
  for (const id of terms) {
    const s = TERMS[id]!.subject;
    termsBySubject.set(s, [...(termsBySubject.get(s) ?? []), id]);
  }
  const nums = {} as Record<NumberSlot, number[]>;
  for (const k of Object.keys(NUMBER_RANGES) as NumberSlot[]) nums[k] = numbers(...NUMBER_RANGES[k], reserved);
  return {
    terms,
    termsBySubject,
    subjects: [...termsBySubject.keys()],
    givenNames: GIVEN_NAMES.filter((_, i) => isReservedIndex(i) === reserved),
    places: PLACES.filter((_, i) => isReservedIndex(i) === reserved),
    numbers: nums,
  };
}
const BANK = makePool(false);
const RESERVED_POOL = makePool(true);

/** Vocabulary the bank never uses; any title containing one of these is not in any generated bank. */
export const RESERVED = {
  subjects: SUBJECTS.filter((s) => s.reserved).map((s) => s.name),
  terms: TERMS.filter((t) => t.reserved).map((t) => t.text),
  givenNames: RESERVED_POOL.givenNames,
  places: RESERVED_POOL.places,
  isNumber: isReservedNumber,
} as const;

/** The bank's side of the vocabulary, for hygiene checks. */
export const BANK_VOCABULARY = {
  subjects: BANK.subjects.map((s) => SUBJECTS[s]!.name),
  terms: BANK.terms.map((id) => TERMS[id]!.text),
  surnames: SURNAMES,
  givenNames: BANK.givenNames,
  places: BANK.places,
} as const;

// ---------------------------------------------------------------------------------------------
// Templates. `{X}` is a slot; slots that take part in the unique combination are T (key term), P
// (person), L (place) and the number slots. S is T's subject, T2 another term of that subject.
// `{_X}` is a completion blank whose answer is of kind X.

type TupleSlot = 'T' | 'P' | 'L' | NumberSlot;
type OptionKind = 'stmt' | 'term' | 'termSame' | 'person' | 'place' | 'year' | 'subject';
type BlankKind = '_P' | '_T2' | '_S' | '_L' | '_CALC';
type Part = string | { slot: TupleSlot | 'S' | 'T2' } | { blank: BlankKind };

interface Template {
  id: number;
  type: QuestionType;
  text: string;
  parts: Part[];
  tuple: TupleSlot[];
  options?: OptionKind;
}

const TEMPLATE_TABLE: Array<[QuestionType, string, OptionKind?]> = [
  ['single', '{P}在{Y}年的{S}讲义中讨论了{T}，下列说法正确的是（ ）', 'stmt'],
  ['single', '关于{T}，{L}某高校的{P}老师在课堂上提出了几种观点，其中正确的是', 'stmt'],
  ['single', '下列学者中，{Y}年前后在{L}系统提出{T}的是（ ）', 'person'],
  ['single', '{P}在{L}开展关于{T}的调研，下列哪个选项是该调研最主要的理论依据？', 'term'],
  ['single', '某班{C}名学生参加{S}测验，关于{T}的题目得分率为{R}%，下列分析正确的是（ ）', 'stmt'],
  ['single', '以下哪一个城市是{P}首次公开介绍{T}研究成果的地点？', 'place'],
  ['single', '{P}于{Y}年提出的关于{T}的论述，主要属于下列哪个学科？', 'subject'],
  ['single', '{P}编写的{Y}年版{S}教材中，与{T}关系最密切的概念是（ ）', 'term'],
  ['single', '某企业在{L}的分公司{Y}年利润为{N}万元，若用{T}进行分析，下列说法正确的是', 'stmt'],
  ['single', '下列关于{T}的表述，符合{P}观点的是（ ）', 'stmt'],
  ['single', '{P}认为{T}是{S}的核心内容，以下对其含义的理解正确的是', 'stmt'],
  ['single', '{T}最早是在哪一年出现的？已知{P}在{L}发表的相关论文引用了这一概念', 'year'],
  ['single', '根据{P}的研究，{T}在{L}的实际应用中，其主要作用是（ ）', 'stmt'],
  ['single', '在{S}课程的第{K}章中，{P}用{T}可以解释下列哪种现象？', 'stmt'],
  [
    'single',
    '材料：{Y}年{M}月，{L}某研究团队围绕{T}开展了为期{C}天的调查，共收集有效问卷{N}份，{P}据此撰写了研究报告。问题：根据材料，下列说法正确的是（ ）',
    'stmt',
  ],
  ['single', '{P}在解释{T}时使用了“{T2}”这一概念，这说明两者之间的关系是（ ）', 'stmt'],
  ['multiple', '{P}在{Y}年总结了{T}的若干特点，下列说法正确的有（ ）', 'stmt'],
  ['multiple', '以下哪些概念与{T}属于同一学科？{P}在{L}的讲座中曾逐一介绍', 'termSame'],
  ['multiple', '下列学者中，{Y}年曾在{L}参与{T}相关研究的是哪些人？', 'person'],
  ['multiple', '某班{C}名学生学习{T}后，{P}老师总结了常见误区，以下说法正确的有', 'stmt'],
  ['multiple', '{P}认为，理解{T}需要掌握下列哪些前置知识？', 'termSame'],
  ['multiple', '关于{T}在{L}的应用，下列表述正确的有哪些？（{Y}年案例）', 'stmt'],
  [
    'multiple',
    '阅读材料：{L}某公司{Y}年营业收入为{N}万元，管理层在年度会议上要求结合{T}分析经营情况，{P}负责撰写报告。下列说法中正确的有（ ）',
    'stmt',
  ],
  ['multiple', '{P}的课堂笔记中列出了与{T}直接相关的内容，下列属于{S}研究范畴的有（ ）', 'termSame'],
  ['multiple', '在{S}第{K}章的学习中，关于{T}的下列说法，正确的有哪几项？（{P}）', 'stmt'],
  ['multiple', '{Y}年{M}月，{P}在{L}就{T}发表演讲，下列观点中属于其演讲内容的有', 'stmt'],
  ['judgement', '{P}认为，{T}是{S}中最基础的概念之一。'],
  ['judgement', '{Y}年以后，{T}在{L}等地的实践中得到了广泛应用，这是其理论价值的体现。'],
  ['judgement', '{T}的研究对象与{T2}完全相同，因此{P}认为两者可以相互替代。'],
  ['judgement', '在{S}中，{T}属于基本范畴，{P}对此进行了系统论述。'],
  ['judgement', '某次{S}考试共有{C}名学生参加，其中关于{T}的题目正确率为{R}%，说明学生能够较好地掌握该知识点。'],
  ['judgement', '{P}是在{Y}年{M}月于{L}召开的学术会议上首次系统阐述{T}内涵的。'],
  ['judgement', '{T}可以用来解释{L}地区{Y}年出现的相关现象。'],
  ['judgement', '理解{T}是学习{T2}的前提，{P}在教材中明确指出了这一点。'],
  ['completion', '{T}是{S}中的重要概念，它最早由{_P}在{Y}年前后于{L}提出。'],
  ['completion', '{P}在《{S}》教材中指出，{T}的核心思想是{_T2}。'],
  ['completion', '在{L}举办的{S}研讨会上，{P}认为{T}可以与{_T2}进行比较。'],
  ['completion', '某班共有{C}名学生，学习{T}后测验的及格率为{R}%，则及格人数约是{_CALC}人。'],
  ['completion', '{Y}年，{P}将{T}引入{_S}领域，并在{_L}得到了验证，这是该理论发展的重要一步。'],
  ['completion', '{T}和{_T2}是{S}的基础内容，这一观点由{P}在第{K}章中提出。'],
];

const TUPLE_SLOTS = new Set<string>(['T', 'P', 'L', 'Y', 'M', 'N', 'C', 'R', 'K']);

function parseTemplate([type, text, options]: (typeof TEMPLATE_TABLE)[number], id: number): Template {
  const parts: Part[] = [];
  const tuple: TupleSlot[] = [];
  let last = 0;
  for (const m of text.matchAll(/\{(_?[A-Z0-9]+)\}/g)) {
    if (m.index! > last) parts.push(text.slice(last, m.index));
    const name = m[1]!;
    if (name.startsWith('_')) parts.push({ blank: name as BlankKind });
    else {
      parts.push({ slot: name as TupleSlot | 'S' | 'T2' });
      if (TUPLE_SLOTS.has(name) && !tuple.includes(name as TupleSlot)) tuple.push(name as TupleSlot);
    }
    last = m.index! + m[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return { id, type, text, parts, tuple, options };
}

const TEMPLATES = TEMPLATE_TABLE.map(parseTemplate);
const TEMPLATES_BY_TYPE: Record<QuestionType, Template[]> = {
  single: TEMPLATES.filter((t) => t.type === 'single'),
  multiple: TEMPLATES.filter((t) => t.type === 'multiple'),
  judgement: TEMPLATES.filter((t) => t.type === 'judgement'),
  completion: TEMPLATES.filter((t) => t.type === 'completion'),
};
/** 40 / 25 / 20 / 15 per block of 20, shuffled per block. */
const TYPE_BLOCK: QuestionType[] = [
  ...Array<QuestionType>(8).fill('single'),
  ...Array<QuestionType>(5).fill('multiple'),
  ...Array<QuestionType>(4).fill('judgement'),
  ...Array<QuestionType>(3).fill('completion'),
];

// Statements used as options of 'stmt' questions (never titles, so they may say 「不」).
const STATEMENTS = [
  '{T}是{S}中的核心概念之一',
  '{T}与{T2}之间不存在任何联系',
  '{T}只适用于短期分析',
  '{T}最早由{P}系统提出',
  '{T}的研究对象与{T2}完全相同',
  '{T}强调理论与实践相结合',
  '{T}可以完全替代{T2}',
  '{T}是理解{T2}的基础',
  '{T}在实际应用中需要结合具体条件',
  '{T}的结论在任何情况下都成立',
  '{T}属于{S}的基本范畴',
  '{T2}是{T}的一种特殊形式',
  '{T}与{T2}的区别主要在于适用范围',
  '{T}的提出推动了{S}的发展',
  '学习{T}时应当联系{T2}',
  '{T}在{L}的实践中取得了显著成效',
  '{T}的适用条件需要逐一检验',
  '{T}已被{Y}年以后的研究所否定',
];

// ---------------------------------------------------------------------------------------------
// The unique combination. Each tuple slot kind gets a distinct prime radix p ≤ its vocabulary size;
// a template's k-th question takes slot value perm[(k + offset) mod p] in every slot. The radices are
// pairwise coprime, so by the Chinese remainder theorem k ↦ (k mod p₁, k mod p₂, …) is injective for
// k < p₁·p₂·…: no two questions of one template share a slot combination, while every slot still varies
// from one question to the next. Templates differ in their literal text, and slot words are
// separated by literals, so distinct (template, combination) pairs render distinct titles.

function isPrime(n: number): boolean {
  if (n < 2) return false;
  for (let d = 2; d * d <= n; d++) if (n % d === 0) return false;
  return true;
}

function slotSize(slot: TupleSlot): number {
  if (slot === 'T') return BANK.terms.length;
  if (slot === 'P') return SURNAMES.length * BANK.givenNames.length;
  if (slot === 'L') return BANK.places.length;
  return BANK.numbers[slot].length;
}

const RADIX: Record<TupleSlot, number> = (() => {
  const used = new Set<number>();
  const out = {} as Record<TupleSlot, number>;
  for (const slot of ['T', 'P', 'L', 'Y', 'M', 'N', 'C', 'R', 'K'] as TupleSlot[]) {
    let p = slotSize(slot);
    while (p > 2 && (!isPrime(p) || used.has(p))) p--;
    used.add(p);
    out[slot] = p;
  }
  return out;
})();

/** How many distinct questions a template can produce. */
const CAPACITY = TEMPLATES.map((t) => t.tuple.reduce((acc, s) => Math.min(Number.MAX_SAFE_INTEGER, acc * RADIX[s]), 1));
const capacity = (t: Template) => CAPACITY[t.id]!;

/** Per-seed permutation and offset of each slot's vocabulary, so seeds give different banks. */
interface Plan {
  perm: Record<TupleSlot, Uint32Array>;
  offset: Record<TupleSlot, number>;
}

function makePlan(seed: number): Plan {
  const rnd = mulberry32(mixSeed(seed, 0x91a4));
  const perm = {} as Plan['perm'];
  const offset = {} as Plan['offset'];
  for (const slot of Object.keys(RADIX) as TupleSlot[]) {
    const a = new Uint32Array(slotSize(slot));
    for (let i = 0; i < a.length; i++) a[i] = i;
    for (let i = a.length - 1; i > 0; i--) {
      const j = int(rnd, i + 1);
      const x = a[i]!;
      a[i] = a[j]!;
      a[j] = x;
    }
    perm[slot] = a;
    offset[slot] = int(rnd, RADIX[slot]);
  }
  return { perm, offset };
}

interface Values {
  T: number;
  P: string;
  L: string;
  Y: number;
  M: number;
  N: number;
  C: number;
  R: number;
  K: number;
}

function personAt(pool: Pool, i: number): string {
  return SURNAMES[i % SURNAMES.length]! + pool.givenNames[Math.floor(i / SURNAMES.length)]!;
}

function slotValue(pool: Pool, slot: TupleSlot, i: number): number | string {
  if (slot === 'T') return pool.terms[i]!;
  if (slot === 'P') return personAt(pool, i);
  if (slot === 'L') return pool.places[i]!;
  return pool.numbers[slot][i]!;
}

function randomValues(pool: Pool, rnd: () => number): Values {
  const v = {} as Record<TupleSlot, number | string>;
  v.T = pick(rnd, pool.terms);
  v.P = personAt(pool, int(rnd, SURNAMES.length * pool.givenNames.length));
  v.L = pick(rnd, pool.places);
  for (const k of Object.keys(NUMBER_RANGES) as NumberSlot[]) v[k] = pick(rnd, pool.numbers[k]);
  return v as unknown as Values;
}

function decodeValues(t: Template, k: number, plan: Plan, rnd: () => number): Values {
  // Slots outside the tuple (not in the title) are free: options may mention them.
  const v = randomValues(BANK, rnd) as unknown as Record<TupleSlot, number | string>;
  for (const slot of t.tuple) {
    const d = (k + plan.offset[slot] + t.id * 7919) % RADIX[slot];
    v[slot] = slotValue(BANK, slot, plan.perm[slot][d]!);
  }
  return v as unknown as Values;
}

// ---------------------------------------------------------------------------------------------
// Rendering a question from slot values.

function otherTerm(pool: Pool, term: number, rnd: () => number): number {
  const same = pool.termsBySubject.get(TERMS[term]!.subject) ?? pool.terms;
  for (let i = 0; i < 8; i++) {
    const t = pick(rnd, same);
    if (t !== term) return t;
  }
  return same.find((t) => t !== term) ?? term;
}

// Statements split once into literal text and slot names: filling them is the generator's hot path.
const STATEMENT_PARTS = STATEMENTS.map((text) => text.split(/\{(T2|[A-Z])\}/));

/** A statement with T and S from `v` and fresh T2, P, L, Y. Odd parts are slot names. */
function fillStatement(i: number, v: Values, pool: Pool, rnd: () => number): string {
  const parts = STATEMENT_PARTS[i]!;
  let out = parts[0]!;
  for (let p = 1; p < parts.length; p += 2) {
    const s = parts[p];
    if (s === 'T') out += TERMS[v.T]!.text;
    else if (s === 'T2') out += TERMS[otherTerm(pool, v.T, rnd)]!.text;
    else if (s === 'S') out += SUBJECTS[TERMS[v.T]!.subject]!.name;
    else if (s === 'P') out += personAt(pool, int(rnd, SURNAMES.length * pool.givenNames.length));
    else if (s === 'L') out += pick(rnd, pool.places);
    else out += String(pick(rnd, pool.numbers.Y));
    out += parts[p + 1]!;
  }
  return out;
}

/** `n` distinct indices below `size`, in random order (partial Fisher–Yates on a scratch array). */
const scratch = new Uint16Array(64);
function sampleIndices(size: number, n: number, rnd: () => number): number[] {
  for (let i = 0; i < size; i++) scratch[i] = i;
  const out: number[] = [];
  for (let i = 0; i < Math.min(n, size); i++) {
    const j = i + int(rnd, size - i);
    const x = scratch[j]!;
    scratch[j] = scratch[i]!;
    scratch[i] = x;
    out.push(x);
  }
  return out;
}

// Terms of every other subject, per pool and subject, built on first use.
const otherSubjectTerms = new Map<Pool, Map<number, number[]>>();
function termsOutside(pool: Pool, subject: number): number[] {
  let bySubject = otherSubjectTerms.get(pool);
  if (!bySubject) otherSubjectTerms.set(pool, (bySubject = new Map()));
  let list = bySubject.get(subject);
  if (!list) bySubject.set(subject, (list = pool.terms.filter((t) => TERMS[t]!.subject !== subject)));
  return list;
}

function distinct(n: number, make: () => string): string[] {
  const seen = new Set<string>();
  for (let guard = 0; seen.size < n && guard < n * 20; guard++) seen.add(make());
  return [...seen];
}

/** Option texts plus which of them are correct. */
function makeOptions(
  kind: OptionKind,
  type: QuestionType,
  v: Values,
  pool: Pool,
  rnd: () => number,
): { options: string[]; correct: number[] } {
  const r = rnd();
  const n = r < 0.8 ? 4 : r < 0.95 ? 5 : 6;
  const nCorrect = type === 'single' ? 1 : 2 + int(rnd, n - 1);
  const subject = TERMS[v.T]!.subject;
  let options: string[];
  // For termSame/subject the correct options are generated first, so `correct` is the first few.
  let firstCorrect = false;
  switch (kind) {
    case 'stmt': {
      // Distinct statements have distinct literal text, so their fillings differ too.
      options = sampleIndices(STATEMENTS.length, n, rnd).map((i) => fillStatement(i, v, pool, rnd));
      break;
    }
    case 'term':
    case 'termSame': {
      const same = pool.termsBySubject.get(subject) ?? [];
      const correct = sampleIndices(same.length, nCorrect + 1, rnd)
        .map((i) => same[i]!)
        .filter((t) => t !== v.T)
        .slice(0, nCorrect);
      const other = termsOutside(pool, subject);
      const rest = distinct(n - correct.length, () => TERMS[pick(rnd, other)]!.text);
      options = [...correct.map((t) => TERMS[t]!.text), ...rest];
      firstCorrect = true;
      break;
    }
    case 'subject': {
      const others = BANK.subjects.filter((s) => s !== subject);
      options = [subject, ...sampleIndices(others.length, n - 1, rnd).map((i) => others[i]!)].map(
        (s) => SUBJECTS[s]!.name,
      );
      firstCorrect = true;
      break;
    }
    case 'person':
      options = distinct(n, () => personAt(pool, int(rnd, SURNAMES.length * pool.givenNames.length)));
      break;
    case 'place':
      options = distinct(n, () => pick(rnd, pool.places));
      break;
    case 'year': {
      const base = v.Y;
      options = distinct(n, () => `${base + int(rnd, 31) - 15}年`);
      break;
    }
  }
  const count = Math.min(nCorrect, options.length);
  let correct: number[];
  if (firstCorrect) {
    correct = Array.from({ length: count }, (_, i) => i);
    // Present the options in random order, keeping track of which are correct.
    const idx = shuffleInPlace(
      options.map((_, i) => i),
      rnd,
    );
    options = idx.map((i) => options[i]!);
    correct = idx.flatMap((i, pos) => (i < count ? [pos] : []));
  } else {
    correct = shuffleInPlace(
      options.map((_, i) => i),
      rnd,
    )
      .slice(0, count)
      .sort((a, b) => a - b);
  }
  return { options, correct };
}

const BLANKS = ['______', '____', '（ ）', '________'];

function render(t: Template, v: Values, pool: Pool, rnd: () => number): SyntheticQuestion {
  let title = '';
  const blanks: string[] = [];
  const blankStyle = pick(rnd, BLANKS);
  let t2: number | undefined;
  for (const part of t.parts) {
    if (typeof part === 'string') title += part;
    else if ('blank' in part) {
      title += blankStyle;
      const b = part.blank;
      if (b === '_P') blanks.push(personAt(pool, int(rnd, SURNAMES.length * pool.givenNames.length)));
      else if (b === '_T2') blanks.push(TERMS[otherTerm(pool, v.T, rnd)]!.text);
      else if (b === '_S') blanks.push(SUBJECTS[TERMS[v.T]!.subject]!.name);
      else if (b === '_L') blanks.push(pick(rnd, pool.places));
      else blanks.push(String(Math.round((v.C * v.R) / 100)));
    } else if (part.slot === 'T') title += TERMS[v.T]!.text;
    else if (part.slot === 'S') title += SUBJECTS[TERMS[v.T]!.subject]!.name;
    else if (part.slot === 'T2') title += TERMS[(t2 ??= otherTerm(pool, v.T, rnd))]!.text;
    else title += String(v[part.slot]);
  }
  if (t.type === 'judgement') return { title, type: t.type, options: [], answer: [rnd() < 0.5 ? '正确' : '错误'] };
  if (t.type === 'completion') return { title, type: t.type, options: [], answer: blanks };
  const { options, correct } = makeOptions(t.options!, t.type, v, pool, rnd);
  return { title, type: t.type, options, answer: correct.map((i) => options[i]!) };
}

/**
 * Streams `count` questions. Types come in blocks of 20 (8 single, 5 multiple, 4 judgement,
 * 3 completion, shuffled); the j-th question of a type uses template j mod n and combination
 * k = ⌊j / n⌋ of that template, which is unique (see the comment above `isPrime`). Throws rather
 * than repeat a title if `count` exceeds the capacity, which is far above 10⁷.
 */
export function* generateQuestions(count: number, seed = 1): Generator<SyntheticQuestion> {
  const plan = makePlan(seed);
  const rnd = mulberry32(mixSeed(seed, 0x5eed));
  const next: Record<QuestionType, number> = { single: 0, multiple: 0, judgement: 0, completion: 0 };
  let block: QuestionType[] = [];
  for (let i = 0; i < count; i++) {
    if (i % TYPE_BLOCK.length === 0) block = shuffleInPlace(TYPE_BLOCK.slice(), rnd);
    const type = block[i % TYPE_BLOCK.length]!;
    const j = next[type]++;
    const list = TEMPLATES_BY_TYPE[type];
    const t = list[j % list.length]!;
    const k = Math.floor(j / list.length);
    if (k >= capacity(t)) throw new RangeError(`template ${t.id} has only ${capacity(t)} distinct questions`);
    yield render(t, decodeValues(t, k, plan, rnd), BANK, rnd);
  }
}

/** The largest count `generateQuestions` accepts without running out of distinct titles. */
export function maxQuestions(): number {
  let max = Number.MAX_SAFE_INTEGER;
  for (const type of Object.keys(TEMPLATES_BY_TYPE) as QuestionType[]) {
    const list = TEMPLATES_BY_TYPE[type];
    const perType = Math.min(...list.map(capacity)) * list.length;
    const share = TYPE_BLOCK.filter((t) => t === type).length;
    max = Math.min(max, Math.floor(perType / share) * TYPE_BLOCK.length);
  }
  return max;
}

/** A question built only from reserved vocabulary: absent from every generated bank. */
export function unrelatedQuestion(type: QuestionType, rnd: () => number): SyntheticQuestion {
  const t = pick(rnd, TEMPLATES_BY_TYPE[type]);
  return render(t, randomValues(RESERVED_POOL, rnd), RESERVED_POOL, rnd);
}

// ---------------------------------------------------------------------------------------------
// Perturbations: what an OCS caller sends for a question.

export type PerturbationKind =
  | 'width'
  | 'punctuation'
  | 'spaces'
  | 'shuffle'
  | 'prefix'
  | 'html'
  | 'score'
  | 'truncate'
  | 'typo'
  | 'near_entity'
  | 'near_number'
  | 'near_negation'
  | 'unrelated';

export const PERTURBATION_KINDS: readonly PerturbationKind[] = [
  'width',
  'punctuation',
  'spaces',
  'shuffle',
  'prefix',
  'html',
  'score',
  'truncate',
  'typo',
  'near_entity',
  'near_number',
  'near_negation',
  'unrelated',
];

export interface PerturbedQuery {
  title: string;
  type: string;
  options: string[];
  expect: 'hit' | 'miss';
}

export type OptionPrefixStyle = 'dot' | 'dun' | 'colon' | 'paren';
const PREFIX_STYLES: OptionPrefixStyle[] = ['dot', 'dun', 'colon', 'paren'];

/** Letters options the way pages show them: `A. x`, `A、x`, `A:x` or `(A)x`. */
export function toOcsOptions(options: string[], style: OptionPrefixStyle = 'dot'): string[] {
  return options.map((text, i) => {
    const l = String.fromCharCode(65 + i);
    if (style === 'dot') return `${l}. ${text}`;
    if (style === 'dun') return `${l}、${text}`;
    if (style === 'colon') return `${l}:${text}`;
    return `(${l})${text}`;
  });
}

const CN_TO_ASCII: Record<string, string> = {
  '，': ',',
  '。': '.',
  '？': '?',
  '：': ':',
  '；': ';',
  '！': '!',
  '（': '(',
  '）': ')',
};
const ASCII_TO_CN: Record<string, string> = Object.fromEntries(Object.entries(CN_TO_ASCII).map(([a, b]) => [b, a]));
// Only the Chinese punctuation that has a full-width form (NFKC maps it back to ASCII).
const WIDTH_CN = new Set(['，', '？', '：', '；', '！', '（', '）']);

function toFullWidth(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    out += c > 0x20 && c < 0x7f ? String.fromCharCode(c + 0xfee0) : ch;
  }
  return out;
}

function widthTitle(s: string, rnd: () => number): string {
  let out = '';
  for (const ch of s) out += WIDTH_CN.has(ch) && rnd() < 0.5 ? CN_TO_ASCII[ch]! : toFullWidth(ch);
  if (out !== s) return out;
  const i = [...s].findIndex((ch) => WIDTH_CN.has(ch));
  return i < 0 ? out : s.slice(0, i) + CN_TO_ASCII[s[i]!]! + s.slice(i + 1);
}

function flipPunctuation(s: string, rnd: () => number, p: number): string {
  let out = '';
  for (const ch of s) out += rnd() < p ? (CN_TO_ASCII[ch] ?? ASCII_TO_CN[ch] ?? ch) : ch;
  return out;
}

const END_MARKS = ['？', '?', '。', '.'];

function punctuationTitle(s: string, rnd: () => number): string {
  const flipped = flipPunctuation(s, rnd, 0.6);
  // Decide on the original ending, so the result always differs from the source at the end.
  const last = s.slice(-1);
  if (END_MARKS.includes(last) || last === '！' || last === '!') {
    if (rnd() < 0.5) return flipped.slice(0, -1);
    return (
      flipped.slice(0, -1) +
      pick(
        rnd,
        END_MARKS.filter((m) => m !== last),
      )
    );
  }
  return flipped + pick(rnd, END_MARKS);
}

const WHITESPACE = [' ', '  ', '\t', '\n', '\u00a0', '\u3000', ' \n '];

function insertWhitespace(s: string, times: number, rnd: () => number): string {
  const chars = [...s];
  for (let i = 0; i < times; i++) chars.splice(1 + int(rnd, Math.max(1, chars.length - 1)), 0, pick(rnd, WHITESPACE));
  return chars.join('');
}

const TYPE_MARK: Record<QuestionType, string> = {
  single: '单选题',
  multiple: '多选题',
  judgement: '判断题',
  completion: '填空题',
};

function prefixTitle(s: string, type: QuestionType, rnd: () => number): string {
  const n = 1 + int(rnd, 60);
  const mark = TYPE_MARK[type];
  // `1.2019年…` would read as a decimal, so a number prefix before a digit gets a space, as pages do.
  const sp = /^\d/.test(s) ? ' ' : '';
  const forms = [
    `${n}.${sp}`,
    `${n}. `,
    `${n}、`,
    `（${n}）`,
    `(${n})`,
    `第${n}题 `,
    `第${n}题：`,
    `【${mark}】`,
    `[${mark}]`,
    `(${mark}) `,
    `${n}.【${mark}】`,
    `【${mark}】${n}、`,
  ];
  return pick(rnd, forms) + s;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/ /g, '&nbsp;');
}

function htmlTitle(s: string, rnd: () => number): string {
  let body = escapeHtml(s);
  if (rnd() < 0.4 && s.length > 4) {
    // Rich-text editors split a title into spans; cut on a character boundary outside an entity.
    const cut = 1 + int(rnd, s.length - 2);
    body = `${escapeHtml(s.slice(0, cut))}<span style="color: rgb(51, 51, 51);">${escapeHtml(s.slice(cut))}</span>`;
  }
  if (rnd() < 0.3) body += pick(rnd, ['<br>', '<br/>', '&nbsp;']);
  const wrap = pick(rnd, [
    (b: string) => `<p>${b}</p>`,
    (b: string) => `<p><span style="font-family: 宋体, SimSun; font-size: 14px;">${b}</span></p>`,
    (b: string) => `<div class="mark_name colorDeep">${b}</div>`,
    (b: string) => `<span style="font-size:16px">${b}</span><br>`,
  ]);
  return wrap(body);
}

function scoreTitle(s: string, rnd: () => number): string {
  const pts = pick(rnd, [1, 2, 3, 5, 10]);
  return (
    s + pick(rnd, [`（${pts}分）`, `(${pts}.0分)`, `（${pts}.0分）`, '（ ）', '(  )', ` (${pts}分)`, `【${pts}分】`])
  );
}

/** Function-word swaps that keep the meaning. The first of a pair never contains the second. */
const SYNONYMS: Array<[string, string]> = [
  ['正确的是（ ）', '正确的是'],
  ['下列', '以下'],
  ['哪一个', '哪个'],
  ['哪几项', '哪些'],
  ['哪一年', '哪年'],
  ['大约是', '约是'],
  ['最主要', '主要'],
  ['说法', '表述'],
  ['关于', '有关'],
  ['认为', '指出'],
  ['提出', '提到'],
  ['说明', '表明'],
  ['教材', '课本'],
  ['广泛', '普遍'],
  ['系统', '全面'],
  ['重要', '关键'],
];

// Longest first, so a term containing another term is found whole.
const TERM_RE = new RegExp(
  [...TERMS]
    .map((t) => t.text)
    .sort((a, b) => b.length - a.length)
    .map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|'),
  'g',
);

function termSpans(s: string): Array<{ start: number; end: number; term: number }> {
  return [...s.matchAll(TERM_RE)].map((m) => ({
    start: m.index!,
    end: m.index! + m[0].length,
    term: TERM_ID.get(m[0])!,
  }));
}

/** Occurrences of `word` in `s` that do not overlap a vocabulary term. */
function freeOccurrences(s: string, word: string): number[] {
  const spans = termSpans(s);
  const out: number[] = [];
  for (let i = s.indexOf(word); i >= 0; i = s.indexOf(word, i + 1)) {
    if (!spans.some((t) => i < t.end && i + word.length > t.start)) out.push(i);
  }
  return out;
}

function typoCandidates(s: string): Array<{ at: number; from: string; to: string }> {
  const out: Array<{ at: number; from: string; to: string }> = [];
  for (const [a, b] of SYNONYMS) {
    const long = freeOccurrences(s, a);
    if (long.length) {
      for (const at of long) out.push({ at, from: a, to: b });
      continue;
    }
    // Only if the longer form is absent, so 「约是」 inside 「大约是」 does not become 「大大约是」.
    for (const at of freeOccurrences(s, b)) out.push({ at, from: b, to: a });
  }
  return out;
}

function replaceAt(s: string, at: number, from: string, to: string): string {
  return s.slice(0, at) + to + s.slice(at + from.length);
}

function nearEntity(s: string, rnd: () => number): string {
  const spans = termSpans(s).filter((t) => !TERMS[t.term]!.reserved);
  const reservedTerms = TERMS.filter((t) => t.reserved);
  if (!spans.length) return pick(rnd, reservedTerms).text + '：' + s;
  const span = spans[0]!;
  const subject = TERMS[span.term]!.subject;
  const sameSubject = reservedTerms.filter((t) => t.subject === subject);
  const replacement = pick(rnd, sameSubject.length ? sameSubject : reservedTerms).text;
  return s.slice(0, span.start) + replacement + s.slice(span.end);
}

function nearNumber(s: string, rnd: () => number): string | null {
  const runs = [...s.matchAll(/\d+/g)];
  if (!runs.length) return null;
  const m = pick(rnd, runs);
  const n = Number(m[0]);
  // A reserved value of the same length and magnitude: one exists within ±6 unless n is at the edge.
  const candidates: number[] = [];
  for (let d = -6; d <= 6; d++) {
    const c = n + d;
    if (d !== 0 && c > 0 && isReservedNumber(c) && String(c).length === m[0].length) candidates.push(c);
  }
  const to = candidates.length ? pick(rnd, candidates) : n * 7 + 3;
  return s.slice(0, m.index) + String(to) + s.slice(m.index! + m[0].length);
}

/** Negations, strongest cue first. The bank never says 「不」 or 「错误」 in a title. */
const NEGATIONS: Array<[string, string[]]> = [
  ['正确的是', ['不正确的是', '错误的是']],
  ['正确的有', ['不正确的有', '错误的有']],
  ['属于', ['不属于']],
  ['可以', ['不可以']],
  ['能够', ['不能够']],
  ['需要', ['不需要']],
  ['是', ['不是']],
  ['正确', ['不正确']],
];

function nearNegation(s: string, rnd: () => number): string {
  for (const [word, negs] of NEGATIONS) {
    const at = freeOccurrences(s, word);
    if (at.length) return replaceAt(s, pick(rnd, at), word, pick(rnd, negs));
  }
  return '以下说法不成立：' + s;
}

const UNKNOWN_TYPES = ['unknown', 'line', 'reader'];

/**
 * One query for `q`. Kinds that cannot apply fall back: shuffle without options changes nothing,
 * truncate below 20 characters and typo without a swappable word use punctuation instead, and
 * near_number without a number uses near_entity.
 */
export function perturb(q: SyntheticQuestion, kind: PerturbationKind, rnd: () => number): PerturbedQuery {
  const style = pick(rnd, PREFIX_STYLES);
  let title = q.title;
  let options = q.options.slice();
  let expect: 'hit' | 'miss' = 'hit';
  let ocsOptions: string[] | undefined;
  switch (kind) {
    case 'width':
      title = widthTitle(title, rnd);
      ocsOptions = toOcsOptions(options, style).map(toFullWidth);
      break;
    case 'punctuation':
      title = punctuationTitle(title, rnd);
      options = options.map((o) => flipPunctuation(o, rnd, 0.5));
      break;
    case 'spaces':
      title = insertWhitespace(title, 1 + int(rnd, 3), rnd);
      options = options.map((o) => (rnd() < 0.5 ? insertWhitespace(o, 1, rnd) : o));
      if (rnd() < 0.3) title = ` ${title}\n`;
      break;
    case 'shuffle':
      if (new Set(options).size > 1) {
        const original = options.join('\n');
        while (options.join('\n') === original) shuffleInPlace(options, rnd);
      }
      break;
    case 'prefix':
      title = prefixTitle(title, q.type, rnd);
      break;
    case 'html':
      title = htmlTitle(title, rnd);
      break;
    case 'score':
      title = scoreTitle(title, rnd);
      break;
    case 'truncate':
      title = title.length >= 20 ? title.slice(0, -(1 + int(rnd, 3))) : punctuationTitle(title, rnd);
      break;
    case 'typo': {
      const candidates = typoCandidates(title);
      if (candidates.length) {
        const { at, from, to } = pick(rnd, candidates);
        title = replaceAt(title, at, from, to);
      } else title = punctuationTitle(title, rnd);
      break;
    }
    case 'near_entity':
      title = nearEntity(title, rnd);
      expect = 'miss';
      break;
    case 'near_number':
      title = nearNumber(title, rnd) ?? nearEntity(title, rnd);
      expect = 'miss';
      break;
    case 'near_negation':
      title = nearNegation(title, rnd);
      expect = 'miss';
      break;
    case 'unrelated': {
      const u = unrelatedQuestion(q.type, rnd);
      title = u.title;
      options = u.options;
      expect = 'miss';
      break;
    }
  }
  const type = rnd() < 0.1 ? pick(rnd, UNKNOWN_TYPES) : q.type;
  return { title, type, options: ocsOptions ?? toOcsOptions(options, style), expect };
}

/** Whether `kind` can apply to `q` as such (without its fallback). */
function applies(q: SyntheticQuestion, kind: PerturbationKind): boolean {
  if (kind === 'shuffle') return new Set(q.options).size > 1;
  if (kind === 'truncate') return q.title.length >= 20;
  if (kind === 'near_number') return /\d/.test(q.title);
  if (kind === 'typo') return typoCandidates(q.title).length > 0;
  return true;
}

/**
 * `perKind` queries of every kind, each from a different bank question where the bank has enough
 * questions to which the kind applies.
 */
export function buildPerturbationSet(
  bank: SyntheticQuestion[],
  perKind: number,
  seed = 7,
): Array<{ kind: PerturbationKind; source: SyntheticQuestion; query: PerturbedQuery }> {
  const rnd = mulberry32(mixSeed(seed, 0x9e27));
  const out: Array<{ kind: PerturbationKind; source: SyntheticQuestion; query: PerturbedQuery }> = [];
  for (const kind of PERTURBATION_KINDS) {
    const eligible = bank.filter((q) => applies(q, kind));
    const pool = eligible.length ? eligible : bank;
    if (!pool.length) continue;
    const chosen = new Set<number>();
    for (let i = 0; i < perKind; i++) {
      let idx = int(rnd, pool.length);
      for (let tries = 0; chosen.has(idx) && tries < 20; tries++) idx = int(rnd, pool.length);
      chosen.add(idx);
      const source = pool[idx]!;
      out.push({ kind, source, query: perturb(source, kind, rnd) });
    }
  }
  return out;
}

/**
 * Problems with the vocabulary that would break the guarantees above (a reserved word inside a bank
 * word or template text, a digit, 「不」 or 「错误」 in a title word). Empty when all is well.
 */
export function vocabularyProblems(): string[] {
  const problems: string[] = [];
  const literals = TEMPLATES.flatMap((t) => t.parts.filter((p): p is string => typeof p === 'string'));
  const bankWords = [
    ...BANK_VOCABULARY.terms,
    ...BANK_VOCABULARY.places,
    ...BANK_VOCABULARY.subjects,
    ...BANK_VOCABULARY.givenNames,
    ...BLANKS,
    ...literals,
  ];
  const reservedWords = [...RESERVED.terms, ...RESERVED.places, ...RESERVED.givenNames, ...RESERVED.subjects];
  for (const r of reservedWords) {
    for (const w of bankWords) if (w.includes(r)) problems.push(`reserved 「${r}」 inside bank text 「${w}」`);
  }
  for (const w of [...bankWords, ...reservedWords, ...SURNAMES]) {
    if (/\d|不|错误/.test(w)) problems.push(`「${w}」 contains a digit, 不 or 错误`);
  }
  for (const l of literals) if (termSpans(l).length) problems.push(`template literal 「${l}」 contains a term`);
  for (const t of TEMPLATES) if (!t.tuple.includes('T')) problems.push(`template ${t.id} has no key term`);
  const names = new Set<string>();
  for (const name of [...TERMS.map((t) => t.text), ...PLACES, ...GIVEN_NAMES, ...SUBJECTS.map((s) => s.name)]) {
    if (names.has(name)) problems.push(`duplicate word 「${name}」`);
    names.add(name);
  }
  if (GIVEN_NAMES.some((g) => [...g].length !== 2)) problems.push('given names must have two characters');
  return [...new Set(problems)];
}
