/**
 * The wiring does not depend on the order its lines are written in (ADR 0058): no code in it
 * names a `const` (or `let`) declared further down, not even inside a closure (which the compiler
 * lets through, and which fails only if the closure runs early). A cycle goes through `late`.
 *
 * Read from the text (TypeScript 7 has no compiler API to ask): comments, strings, imports, type
 * declarations, object keys and member names are set aside; a name reused in two functions of a
 * file would be reported too (none is).
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const here = fileURLToPath(new URL(".", import.meta.url));
const FILES = [
  "../services.ts",
  ...readdirSync(here).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts")),
  "../modules/plugins/wiring.ts",
].map((f) => fileURLToPath(new URL(f, import.meta.url)));

/** The code with comments, strings and import lines blanked (positions kept). */
function codeOnly(text: string): string {
  const blank = (m: string) => m.replace(/[^\n]/g, " ");
  return text
    .replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|`(?:\\.|[^`\\])*`|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g, blank)
    .replace(/^import [^;]*;/gm, blank)
    .replace(/^export (?:interface|type) [\s\S]*?^}\n|^export type [^\n]*\n/gm, blank);
}

/** `line name` for every use of a block-scoped variable above its declaration. */
export function usesBeforeDeclaration(text: string): string[] {
  const code = codeOnly(text);
  const declared: { name: string; at: number }[] = [];
  for (const m of code.matchAll(/\b(?:const|let)\s+(?:([A-Za-z_$][\w$]*)|\{([^}]*)\})\s*(?::[^=]+)?=/g)) {
    const names = m[1] ? [m[1]] : m[2]!.split(",").map((part) => part.replace(/^\s*\.\.\./, "").split(":").pop()!.split("=")[0]!.trim());
    for (const name of names.filter(Boolean)) declared.push({ name, at: m.index });
  }
  const found: string[] = [];
  for (const { name, at } of declared) {
    // Not `.name` (a member), not `name:` (a key; `?:` and `::` do not occur here), not `name?:`.
    const use = new RegExp(`(?<![\\w$.])${name.replace(/\$/g, "\\$")}(?![\\w$])(?!\\s*\\??:)`, "g");
    for (const u of code.slice(0, at).matchAll(use)) found.push(`${code.slice(0, u.index).split("\n").length} ${name}`);
  }
  return found;
}

describe("the wiring", () => {
  it("uses nothing before it is declared: the order of its lines is the order of the dependencies", () => {
    expect(FILES.length).toBeGreaterThan(5);
    const found = FILES.flatMap((file) => usesBeforeDeclaration(readFileSync(file, "utf8")).map((f) => `${file.slice(file.lastIndexOf("/server/") + 1)}:${f}`));
    expect(found).toEqual([]);
  });

  it("the check finds a closure reaching a const declared later (what services.ts once did with `resync`)", () => {
    const text = [
      "export function wire({ caches: given }: { caches: number }) {",
      "  // caches is declared below",
      "  const resync = () => caches.clearAll();",
      "  const relay = relayOf({ onResync: resync, caches: given });",
      "  const { caches, bus: sent } = build(relay);",
      "  return { resync, caches, sent };",
      "}",
    ].join("\n");
    expect(usesBeforeDeclaration(text)).toEqual(["3 caches"]);
  });
});
