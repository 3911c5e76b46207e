import { buildSync } from "esbuild";
import { fileURLToPath } from "node:url";

/**
 * The npm libraries MusicFree plugins `require` (issue 21; SOURCES.md), bundled for the sandbox
 * from this checkout's node_modules: the real packages, not look-alikes, so a plugin written for
 * the MusicFree app sees the same behaviour. Each is bundled once per process on first use and
 * evaluated in a plugin's QuickJS context only when that plugin requires it.
 */

export const SANDBOX_LIBRARIES = ["buffer", "crypto-js", "dayjs", "qs", "he", "big-integer"] as const;

const ROOT = fileURLToPath(new URL("../../../..", import.meta.url));
const bundles = new Map<string, string>();

export function isSandboxLibrary(name: string): boolean {
  return (SANDBOX_LIBRARIES as readonly string[]).includes(name);
}

/** CommonJS source that sets `module.exports` to the library; evaluated inside the sandbox. */
export function librarySource(name: string): string {
  const kept = bundles.get(name);
  if (kept) return kept;
  if (!isSandboxLibrary(name)) throw new Error(`not a sandbox library: ${name}`);
  const result = buildSync({
    stdin: { contents: `module.exports = require(${JSON.stringify(name)});`, resolveDir: ROOT, loader: "js" },
    bundle: true,
    write: false,
    format: "cjs",
    platform: "browser",
    target: "es2020",
    minify: true,
    logLevel: "silent",
    // Node's `global` is the sandbox's globalThis.
    define: { global: "globalThis" },
  });
  const source = result.outputFiles[0]!.text;
  bundles.set(name, source);
  return source;
}
