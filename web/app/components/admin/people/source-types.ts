import type { SourceAdminAnswer } from "@contracts/source-admin";
import type { SourceHealthAnswer } from "@contracts/source-health";

/** A source as GET /api/pandaadmin/sources answers it (types only: no zod reaches the browser). */
export type SourceRow = SourceAdminAnswer;
/** A source's health as GET /api/pandaadmin/sources/health answers it. */
export type SourceHealth = SourceHealthAnswer;

export const ADAPTER_TEXT: Record<SourceRow["adapter"], string> = { builtin: "内置", generic: "通用配置", plugin: "插件", none: "本站" };
export const BREAKER_TEXT: Record<SourceHealth["state"], [string, string]> = {
  closed: ["正常", "green"],
  "half-open": ["试探中", "orange"],
  open: ["已熔断", "red"],
};
