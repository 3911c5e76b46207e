import type { ChildProcess } from "node:child_process";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { hashPassword } from "../server/modules/accounts/passwords";
import { openPgliteDatabase } from "../server/db/open";
import { users } from "../server/db/schema/index";
import type { DatabaseHandle } from "../server/db/types";
import { ensureServerBuild } from "./server-build";
import { freePort, spawnServer } from "./site";


/**
 * The real server (server/main.ts, production build of the web app) as a child process that a
 * test may SIGKILL at a chosen moment: it waits for log lines rather than only /healthz, since
 * the moments that matter (the first-start seed) come before the server listens.
 */
export interface KillableSite {
  url: string;
  process: ChildProcess;
  output(): string;
  /** Resolves with the first JSON log line whose msg matches (seen before or after the call). */
  waitForLog(msg: RegExp, timeoutMs?: number): Promise<Record<string, unknown>>;
  healthy(timeoutMs?: number): Promise<void>;
  kill(): Promise<NodeJS.Signals | null>;
  stop(): Promise<number | null>;
}

export async function startKillableSite(dataDir: string, env: Record<string, string> = {}): Promise<KillableSite> {
  await ensureServerBuild();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawnServer(dataDir, port, { COLLECT_INTERVAL_MS: "0", ...env });
  let output = "";
  const lines: Record<string, unknown>[] = [];
  const waiters: { msg: RegExp; resolve: (line: Record<string, unknown>) => void }[] = [];
  let buffer = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    output += chunk;
    buffer += chunk.toString();
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const text = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      let line: Record<string, unknown>;
      try {
        line = JSON.parse(text) as Record<string, unknown>;
      } catch {
        continue;
      }
      lines.push(line);
      for (const w of waiters.filter((w) => w.msg.test(String(line.msg)))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  // After the exit, its last output (the reason it gave) is read only once its pipes close.
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const exitReport = async () => {
    const { code, signal } = await exited;
    await Promise.race([closed, new Promise((r) => setTimeout(r, 2_000))]);
    return `server exited (${code ?? signal}):\n${output}`;
  };

  return {
    url,
    process: child,
    output: () => output,
    waitForLog: (msg, timeoutMs = 120_000) => {
      const seen = lines.find((l) => msg.test(String(l.msg)));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no log line ${msg} in ${timeoutMs} ms:\n${output}`)), timeoutMs);
        waiters.push({ msg, resolve: (line) => (clearTimeout(timer), resolve(line)) });
        void exited.then(({ code, signal }) => reject(new Error(`server exited (${code ?? signal}) before ${msg}:\n${output}`)));
      });
    },
    healthy: async (timeoutMs = 180_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (child.exitCode !== null || child.signalCode !== null) throw new Error(await exitReport());
        const res = await fetch(`${url}/healthz`).catch(() => null);
        if (res?.ok) return;
        if (Date.now() > deadline) throw new Error(`server not healthy in time:\n${output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    kill: async () => {
      child.kill("SIGKILL");
      return (await exited).signal;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return (await exited).code;
    },
  };
}

/** Opens a copy of a (stopped or killed) site's database, so the test never recovers the original itself. */
export async function openCopyOf(dataDir: string): Promise<{ database: DatabaseHandle; dispose(): Promise<void> }> {
  const copy = await mkdtemp(path.join(tmpdir(), "djcrash-copy-"));
  await cp(path.join(dataDir, "db"), path.join(copy, "db"), { recursive: true });
  const database = await openPgliteDatabase(path.join(copy, "db"));
  return {
    database,
    dispose: async () => {
      await database.close();
      await rm(copy, { recursive: true, force: true });
    },
  };
}

/** Members made directly in a stopped site's database (registration has its captcha); they log in through the API. */
export async function addMembers(dataDir: string, count: number, password: string): Promise<string[]> {
  const database = await openPgliteDatabase(path.join(dataDir, "db"));
  try {
    const passwordHash = await hashPassword(password);
    const names = Array.from({ length: count }, (_, i) => `crash${i}x${process.pid}`);
    await database.db.insert(users).values(names.map((username) => ({ username, email: `${username}@example.test`, passwordHash, nickname: username, status: 1 })));
    return names;
  } finally {
    await database.close();
  }
}

export async function login(url: string, account: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/user/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ account, password }) });
  const body = (await res.json()) as { code: number; data: { token: string } };
  if (body.code !== 1) throw new Error(`login of ${account} failed: ${JSON.stringify(body)}`);
  return body.data.token;
}
