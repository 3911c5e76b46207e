import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DataDirInUseError, lockDataDir } from "./pglite-lock.js";

describe("PGlite data directory lock", () => {
  let base: string;
  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), "djsearch-lock-"));
  });
  afterAll(async () => rm(base, { recursive: true, force: true }));

  it("refuses a second holder in the same process and frees the directory on release", async () => {
    const dir = path.join(base, "a");
    const release = await lockDataDir(dir);
    await expect(lockDataDir(dir)).rejects.toBeInstanceOf(DataDirInUseError);
    await release();
    expect(existsSync(`${dir}.lock`)).toBe(false);
    await (await lockDataDir(dir))();
  });

  it("refuses while another live process holds it, and says what to do", async () => {
    const dir = path.join(base, "b");
    const owner = { pid: process.ppid, host: hostname(), processStart: 1, since: "2026-01-01T00:00:00Z" };
    await writeFile(`${dir}.lock`, JSON.stringify(owner));
    const error = await lockDataDir(dir).catch((e: Error) => e);
    expect(error).toBeInstanceOf(DataDirInUseError);
    expect((error as Error).message).toContain(`process ${process.ppid}`);
    expect((error as Error).message).toContain("DATABASE_URL");
  });

  it("takes over a stale lock whose process is gone", async () => {
    const dir = path.join(base, "c");
    const owner = { pid: 2 ** 22 + 12345, host: hostname(), processStart: 1, since: "2026-01-01T00:00:00Z" };
    await writeFile(`${dir}.lock`, JSON.stringify(owner));
    const release = await lockDataDir(dir);
    await release();
  });
});
