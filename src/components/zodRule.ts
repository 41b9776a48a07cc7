/** An antd Form rule that validates with a contract schema and shows its Chinese message. */
import type { z } from 'zod';

export function zodRule(schema: z.ZodTypeAny) {
  return {
    validator: async (_: unknown, value: unknown) => {
      if (value === undefined || value === '') return; // `required` speaks for empty fields
      const r = schema.safeParse(value);
      if (!r.success) throw new Error(r.error.issues[0]?.message ?? '输入有误');
    },
  };
}
