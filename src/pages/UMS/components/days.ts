/**
 * Calendar days of the portal's time zone (DISPLAY_TZ, Asia/Shanghai: UTC+8 all year, no DST)
 * turned into the instants the API compares `createdAt` with.
 */
const OFFSET = '+08:00';

export const dayStart = (day: string) => new Date(`${day}T00:00:00${OFFSET}`).toISOString();
export const dayEnd = (day: string) => new Date(`${day}T23:59:59.999${OFFSET}`).toISOString();
