/**
 * Every package the code imports is declared in package.json: one that only arrives as another
 * package's dependency (domhandler through cheerio) can vanish on that package's next release.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
/** ESM imports, re-exports and dynamic imports; `require("…")` appears only in plugin code the sandbox runs. */
const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"`;]*?\sfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s+["']([^"']+)["']/gm;
const PACKAGE_NAME = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

function packageOf(specifier: string): string | undefined {
  if (/^(\.|\/|node:|@contracts\/|virtual:|#)/.test(specifier)) return undefined;
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
  return PACKAGE_NAME.test(name) && !builtinModules.includes(name) ? name : undefined;
}

describe("package.json", () => {
  it("declares every package the project's code imports", () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>;
    const declared = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})]);
    const files = execFileSync("git", ["ls-files", "*.ts", "*.tsx", "*.js", "*.mjs", "*.mts"], { cwd: ROOT, encoding: "utf8" })
      .split("\n")
      // Source plugins are MusicFree modules: their `require`s are the sandbox's libraries.
      .filter((f) => f && !f.startsWith("plugins/"));
    expect(files.length).toBeGreaterThan(100);
    const undeclared = new Set<string>();
    for (const file of files) {
      const text = readFileSync(path.join(ROOT, file), "utf8");
      for (const m of text.matchAll(IMPORT)) {
        const name = packageOf(m[1] ?? m[2] ?? m[3]);
        if (name && !declared.has(name)) undeclared.add(`${name} (${file})`);
      }
    }
    expect([...undeclared]).toEqual([]);
  });
});
