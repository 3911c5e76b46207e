import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ADMIN_AUDIT_ACTIONS } from "./admin-account-texts";
import { AUDIT_ACTION_LABELS, AUDIT_TARGET_NAMES, auditActionLabel, auditFieldLabel } from "./audit-labels";

const root = join(import.meta.dirname, "..");

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".test.ts"))
    .map((e) => readFileSync(join(e.parentPath, e.name), "utf8"));
}

// `target.verb` literals of the server's files that write the audit trail (the action is typed
// by the map too; this also catches a code built where the type is widened to string).
const labelled = new Set(Object.keys(AUDIT_ACTION_LABELS));
const prefixes = new Set([...Object.keys(AUDIT_TARGET_NAMES), ...[...labelled].map((a) => a.split(".")[0]!), "collect"]);
const written = new Set<string>(Object.values(ADMIN_AUDIT_ACTIONS));
for (const text of sources("server")) {
  if (!/\baudit\b|AuditAction/u.test(text)) continue;
  for (const [, code] of text.matchAll(/["'`]([a-z]+(?:_[a-z]+)*\.[a-z]+(?:_[a-z]+)*)["'`]/gu)) {
    if (prefixes.has(code!.split(".")[0]!)) written.add(code!);
  }
}

describe("the audit trail's Chinese labels", () => {
  it("found the action codes the server writes", () => {
    // A sample that must be there: if the scan stops finding codes, the next test proves nothing.
    for (const code of ["collect.start", "settings.update", "user.disable", "suite.delete", "admin.password"]) expect(written).toContain(code);
  });

  it("label every action code the server writes", () => {
    const missing = [...written].filter((code) => !labelled.has(code));
    expect(missing).toEqual([]);
  });

  it("label no code the server never writes", () => {
    expect([...labelled].filter((code) => !written.has(code))).toEqual([]);
  });

  it("are Chinese, and an unknown code or field shows as written", () => {
    for (const label of Object.values(AUDIT_ACTION_LABELS)) expect(label).toMatch(/\p{Script=Han}/u);
    expect(auditActionLabel("user.disable")).toBe("禁用用户");
    expect(auditActionLabel("some.thing")).toBe("some.thing");
    expect(auditFieldLabel("title")).toBe("标题");
    expect(auditFieldLabel("somethingNew")).toBe("somethingNew");
  });
});
