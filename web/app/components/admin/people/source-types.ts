/** A source as GET /api/pandaadmin/sources answers it (contracts/source-admin.ts). */
export interface SourceRow {
  code: string;
  name: string;
  logo: string | null;
  homepage: string;
  enabled: boolean;
  sort: number;
  adapter: "builtin" | "generic" | "none";
  collectIntervalMinutes: number;
  inUse: boolean;
  config: Record<string, unknown> | null;
}

/** A source's health as GET /api/pandaadmin/sources/health answers it (contracts/source-health.ts). */
export interface SourceHealth {
  code: string;
  state: "closed" | "open" | "half-open";
  successRate: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
  lastError: { kind: string; message: string; at: string } | null;
  calls: number;
  failures: number;
}

export const ADAPTER_TEXT: Record<SourceRow["adapter"], string> = { builtin: "内置", generic: "通用配置", none: "本站" };
export const BREAKER_TEXT: Record<SourceHealth["state"], [string, string]> = {
  closed: ["正常", "green"],
  "half-open": ["试探中", "orange"],
  open: ["已熔断", "red"],
};
