/** The small SQL helpers: which operator a "contains, ignoring case" search uses. */
import { containsOperator } from '../../server/lib/sql';

describe('containsOperator', () => {
  it('uses like for a text without cased letters, ilike for one with any', () => {
    for (const t of ['告警', '2024', '第 3 题：', '——', ''])
      expect({ t, op: containsOperator(t) }).toEqual({ t, op: 'like' });
    for (const t of ['ocs', 'OCS 告警', 'ß', 'Ä', 'Σ', 'ｆｕｌｌ'])
      expect({ t, op: containsOperator(t) }).toEqual({ t, op: 'ilike' });
  });
});
