/** NJIT metrics: student searches, detail views and reveals of masked fields (by field). */
import { Counter, type Registry } from 'prom-client';
import type { RevealField } from '@contract';

export interface NjitMetrics {
  search(): void;
  view(): void;
  reveal(field: RevealField): void;
}

export function njitMetrics(registry: Registry): NjitMetrics {
  const registers = [registry];
  const searches = new Counter({ name: 'portal_njit_searches_total', help: 'Student searches answered.', registers });
  const views = new Counter({ name: 'portal_njit_views_total', help: 'Student detail views answered.', registers });
  const reveals = new Counter({
    name: 'portal_njit_reveals_total',
    help: 'Masked fields revealed (phone, idCard), each with a stated reason in the audit trail.',
    labelNames: ['field'],
    registers,
  });
  return {
    search: () => searches.inc(),
    view: () => views.inc(),
    reveal: (field) => reveals.inc({ field }),
  };
}
