/** ProTable value enums of the bank's type, source and status, from the contract's labels. */
import { BANK_SOURCE_LABELS, BANK_STATUS_LABELS, OCS_TYPE_LABELS } from '@/contract';

const toEnum = (labels: Record<string, string>) =>
  Object.fromEntries(Object.entries(labels).map(([k, text]) => [k, { text }]));

export const TYPE_ENUM = toEnum(OCS_TYPE_LABELS);
export const SOURCE_ENUM = toEnum(BANK_SOURCE_LABELS);
export const STATUS_ENUM = {
  verified: { text: BANK_STATUS_LABELS.verified, status: 'Success' },
  unverified: { text: BANK_STATUS_LABELS.unverified, status: 'Warning' },
  wrong: { text: BANK_STATUS_LABELS.wrong, status: 'Error' },
};
