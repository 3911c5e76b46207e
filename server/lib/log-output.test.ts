import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ensureAdminAccount } from "../db/seed/admin.js";
import { createTestDatabase } from "../testing/test-db.js";
import { createLogger, formatLogLine, logFormatFor } from "./log-output.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Runs a script that logs through the server's JSON logger to a piped stdout; its lines and exit code. */
function logInChild(script: string): Promise<{ lines: string[]; code: number | null }> {
  const code = `import { createLogger } from "./server/lib/log-output.ts"; const logger = createLogger({ level: "info", format: "json" }); ${script}`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], { cwd: ROOT, stdio: ["ignore", "pipe", "ignore"] });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  return new Promise((resolve) => child.on("close", (exit) => resolve({ lines: out.split("\n").filter((l) => l !== ""), code: exit })));
}

/** A stand-in stdout that keeps what is written. */
function terminal(isTTY: boolean) {
  const written: string[] = [];
  return { out: { isTTY, write: (text: string) => written.push(text) }, written };
}

describe("log output (ADR 0044)", () => {
  it("is JSON when piped, readable on a terminal, as LOG_FORMAT says when set", () => {
    expect(logFormatFor(undefined, { isTTY: true })).toBe("pretty");
    expect(logFormatFor(undefined, { isTTY: false })).toBe("json");
    expect(logFormatFor(undefined, {})).toBe("json");
    expect(logFormatFor("json", { isTTY: true })).toBe("json");
    expect(logFormatFor("pretty", { isTTY: false })).toBe("pretty");
  });

  it("JSON: one object per line, the request id and the fields kept", () => {
    const { out, written } = terminal(false);
    const logger = createLogger({ level: "info", format: "json", out });
    logger.child({ reqId: "req-0123456789" }).info({ source: "djuu" }, "search provider failed");
    logger.debug("not at info");
    expect(written).toHaveLength(1);
    expect(written[0]!.endsWith("\n")).toBe(true);
    expect(JSON.parse(written[0]!)).toMatchObject({ level: 30, reqId: "req-0123456789", source: "djuu", msg: "search provider failed" });
  });

  it("JSON to stdout: nothing is lost when the process exits or crashes right after logging", async () => {
    const exits = await logInChild(`for (let i = 0; i < 5000; i++) logger.info({ i }, "line"); process.exit(3);`);
    expect(exits.code).toBe(3);
    expect(exits.lines).toHaveLength(5000);
    expect(JSON.parse(exits.lines[4999]!)).toMatchObject({ i: 4999, msg: "line" });
    const crashes = await logInChild(`for (let i = 0; i < 5000; i++) logger.info({ i }, "line"); setTimeout(() => { throw new Error("crash"); }, 0);`);
    expect(crashes.code).toBe(1);
    expect(crashes.lines).toHaveLength(5000);
  }, 30_000);

  it("pretty: time, level, the request id's start, the message, the request and its answer", () => {
    const time = new Date(2026, 10, 23, 9, 5, 7, 42).getTime();
    const incoming = formatLogLine(JSON.stringify({ level: 30, time, reqId: "9f1c2e4a-1111-2222-3333-444455556666", req: { method: "GET", url: "/sort/club?page=2" }, msg: "incoming request" }));
    expect(incoming).toBe("09:05:07.042 INFO  [9f1c2e4a] incoming request GET /sort/club?page=2\n");
    const done = formatLogLine(JSON.stringify({ level: 30, time, reqId: "9f1c2e4a-1111", req: { method: "GET", url: "/x" }, res: { statusCode: 404 }, responseTime: 3.14159, msg: "request completed" }));
    expect(done).toBe("09:05:07.042 INFO  [9f1c2e4a] request completed GET /x 404 3.1 ms\n");
    const other = formatLogLine(JSON.stringify({ level: 40, time, pid: 1, hostname: "h", msg: "kept answer refresh failed", key: "home", note: "two words" }));
    expect(other).toBe('09:05:07.042 WARN  kept answer refresh failed key=home note="two words"\n');
  });

  it("pretty: an error's stack follows its line, indented; colours only when asked", () => {
    const line = JSON.stringify({ level: 50, time: 0, msg: "request failed", err: { type: "Error", message: "boom", stack: "Error: boom\n    at x (y.ts:1:1)" } });
    const text = formatLogLine(line);
    expect(text).toContain("ERROR request failed\n    Error: boom\n        at x (y.ts:1:1)\n");
    expect(text).not.toContain("\u001b[");
    expect(formatLogLine(line, { color: true })).toContain("\u001b[31mERROR\u001b[0m");
    expect(formatLogLine("not json at all")).toBe("not json at all\n");
  });

  it("the first-start admin password stands out on a terminal, and is one JSON line when piped", async () => {
    const pretty = terminal(true);
    const json = terminal(false);
    for (const [sink, format] of [[pretty, "pretty"], [json, "json"]] as const) {
      const database = await createTestDatabase("pglite");
      try {
        await ensureAdminAccount(database, createLogger({ level: "info", format, out: sink.out }));
      } finally {
        await database.close();
      }
    }
    const text = pretty.written.join("").replace(/\u001b\[[0-9;]*m/g, "");
    const password = /│ Password: (\S{24}) +│/.exec(text)?.[1];
    expect(password).toBeDefined();
    // A box of its own: a blank line, a rule above and below, the password on a line of its own.
    expect(text).toMatch(/WARN\n┌─+┐\n│ Admin account created\. Username: admin +│\n│ Password: \S{24} +│\n│ \(shown only this once; sign in at \/panda\/login and change it before anything else\) +│\n└─+┘\n\n$/);
    expect(pretty.written.join("")).toContain("\u001b[1;33m");

    const lines = json.written.join("").trim().split("\n");
    const adminLine = lines.map((l) => JSON.parse(l)).find((l) => l.banner === true);
    expect(adminLine).toMatchObject({ level: 40, username: "admin" });
    expect(adminLine.msg).toMatch(/^Admin account created\. Username: admin  Password: \S{24}  \(shown only this once/);
  });
});
