/** Headers and parameter templates edited as lines of `名称=值`. */
export function toLines(record: Record<string, string>): string {
  return Object.entries(record)
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');
}

/** The record, or a Chinese message naming the first bad line. */
export function fromLines(text: string | undefined): Record<string, string> | string {
  const out: Record<string, string> = {};
  const lines = (text ?? '').split('\n').map((l) => l.trim());
  for (const [i, line] of lines.entries()) {
    if (!line) continue;
    const at = line.indexOf('=');
    if (at <= 0) return `第 ${i + 1} 行应为“名称=值”`;
    out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}
