/** The quick-start commands, with the portal's own address and a placeholder token. */
export interface CurlExample {
  title: string;
  command: string;
}

/** An ISO time for tomorrow 09:00 in Asia/Shanghai (01:00 UTC), for the scheduled example. */
function tomorrowNine(now: Date): string {
  const day = new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10);
  return `${day}T01:00:00Z`;
}

export function curlExamples(origin: string, now = new Date()): CurlExample[] {
  const send = `${origin}/api/ums/send`;
  return [
    {
      title: 'GET，参数放在地址里',
      command: `curl "${send}?token=pt_xxx&title=构建完成&content=全部测试通过"`,
    },
    {
      title: 'POST 表单，令牌放在 Authorization 头里',
      command: `curl -X POST ${send} -H "Authorization: Bearer pt_xxx" \\\n     -d title=构建完成 -d content=全部测试通过 -d type=text`,
    },
    {
      title: 'POST JSON，定时发送（sendAt：ISO 时间或毫秒时间戳，最多提前 30 天）',
      command:
        `curl -X POST ${send} -H "Authorization: Bearer pt_xxx" \\\n     -H "Content-Type: application/json" \\\n` +
        `     -d '{"title":"提醒","content":"**明早** 9 点例会","sendAt":"${tomorrowNine(now)}"}'`,
    },
    {
      title: '查询一条消息的状态和每次投递记录',
      command: `curl "${origin}/api/ums/messages/42?token=pt_xxx"`,
    },
    {
      title: 'Server酱兼容：把脚本里的 https://sctapi.ftqq.com 换成本站地址，SendKey 换成令牌',
      command: `curl "${origin}/pt_xxx.send?title=构建完成&desp=**全部**测试通过"`,
    },
    {
      title: 'PushPlus 兼容：把脚本里的 http://www.pushplus.plus 换成本站地址，token 换成令牌',
      command: `curl "${origin}/send?token=pt_xxx&title=日报&content=完成3项&template=txt"`,
    },
  ];
}
