import type { SourceCanaryAnswer } from "@contracts/source-health";
import type { CanaryRow } from "./repo.js";

/** A kept canary row as the API shows it (dates as ISO text). */
export function canaryView(row: CanaryRow | undefined): SourceCanaryAnswer | null {
  if (!row) return null;
  return {
    at: row.at.toISOString(),
    state: row.state,
    since: row.since.toISOString(),
    lastOkAt: row.lastOkAt?.toISOString() ?? null,
    failingStep: row.failingStep,
    checks: row.checks,
  };
}

/** Each source's health with its last canary (the health API and the dashboard). */
export async function withCanaries<T extends { code: string }>(list: T[], canaries: { latest(): Promise<Map<string, CanaryRow>> }): Promise<(T & { canary: SourceCanaryAnswer | null })[]> {
  const latest = await canaries.latest();
  return list.map((h) => ({ ...h, canary: canaryView(latest.get(h.code)) }));
}
