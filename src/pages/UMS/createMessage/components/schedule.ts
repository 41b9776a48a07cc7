/** The optional 定时发送 time: later than now, at most UMS_MAX_SCHEDULE_DAYS ahead. */
import { UMS_MAX_SCHEDULE_DAYS } from '@/contract';
import dayjs, { type Dayjs } from 'dayjs';

export function disabledScheduleDate(d: Dayjs): boolean {
  return d.isBefore(dayjs(), 'day') || d.isAfter(dayjs().add(UMS_MAX_SCHEDULE_DAYS, 'day'), 'day');
}

export const scheduleRule = {
  validator: async (_: unknown, value: Dayjs | null | undefined) => {
    if (!value) return;
    if (!value.isAfter(dayjs())) throw new Error('定时发送时间必须晚于现在');
    if (value.isAfter(dayjs().add(UMS_MAX_SCHEDULE_DAYS, 'day')))
      throw new Error(`最多提前 ${UMS_MAX_SCHEDULE_DAYS} 天`);
  },
};
