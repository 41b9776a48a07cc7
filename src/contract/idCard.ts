/**
 * The resident ID number (GB 11643-1999): 17 digits, a valid birth date and a check character. Shared by
 * the roster importer (server/modules/njit/record.ts) and the form that corrects a student's record.
 */
const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

/** GB 11643-1999 check character of the first 17 digits. */
export function idCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * ID_WEIGHTS[i];
  return ID_CHECK[sum % 11];
}

/** An 18-character resident ID: 17 digits, a valid birth date and the right check character. */
export function isValidIdCard(id: string): boolean {
  if (!/^\d{17}[\dX]$/.test(id)) return false;
  const y = Number(id.slice(6, 10));
  const m = Number(id.slice(10, 12));
  const d = Number(id.slice(12, 14));
  const date = new Date(Date.UTC(y, m - 1, d));
  if (y < 1900 || date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return false;
  return idCheckChar(id.slice(0, 17)) === id[17];
}
