import type { FormRule } from "antd";
import type { RuleObject } from "antd/es/form";
import type { z } from "zod";

/**
 * An antd Form rule from a contracts/ zod field: the form shows exactly the message the
 * server would answer with (validation written once, DESIGN.md).
 */
export function zodRule(schema: z.ZodType): FormRule {
  return {
    validator: async (_rule, value) => {
      const result = schema.safeParse(value ?? "");
      if (!result.success) throw new Error(result.error.issues[0]?.message ?? "输入有误");
    },
  };
}

/** "Must equal the field `other`" (password confirmations), with the given message. */
export function sameAs(other: string, message: string): (form: { getFieldValue: (n: string) => unknown }) => RuleObject {
  return ({ getFieldValue }) => ({
    validator: async (_rule, value) => {
      if (value !== getFieldValue(other)) throw new Error(message);
    },
  });
}
