/**
 * Timestamps arrive as ISO strings in UTC; the portal shows them in its own time zone
 * (PORTAL_TZ, Asia/Shanghai by default) as YYYY-MM-DD HH:mm, whatever the browser's zone.
 */
export const DISPLAY_TZ = 'Asia/Shanghai';

const formatter = new Intl.DateTimeFormat('en-CA', {
  timeZone: DISPLAY_TZ,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** `2025-01-02 08:30`, or `empty` for a missing or unparsable value. */
export function formatTime(iso: string | null | undefined, empty = '-'): string {
  if (!iso) return empty;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return empty;
  const part: Record<string, string> = {};
  for (const p of formatter.formatToParts(date)) part[p.type] = p.value;
  return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}`;
}
