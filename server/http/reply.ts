/** The success envelopes every JSON answer uses (failures are written by plugins/errors.ts). */

export function success<T>(data: T): { success: true; data: T } {
  return { success: true, data };
}

/** An answer without data: `{ success: true }`. */
export const SUCCESS = { success: true } as const;

/** A ProTable page: the rows, the total and the page asked for. */
export function paged<T>(
  result: { rows: T[]; total: number },
  query: { current: number; pageSize: number },
): { success: true; data: T[]; total: number; current: number; pageSize: number } {
  return { success: true, data: result.rows, total: result.total, current: query.current, pageSize: query.pageSize };
}
