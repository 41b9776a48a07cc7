/** Role checkboxes for the admin forms, from the contract's role set. */
import { ROLE_LABELS } from '@/components/roles';
import { ROLES } from '@/contract';

export const ROLE_OPTIONS = ROLES.map((r) => ({ value: r, label: `${ROLE_LABELS[r]}（${r}）` }));
