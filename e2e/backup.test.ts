/**
 * Issue 14: `npm run backup` while the site runs and takes writes, `npm run restore` into a new
 * DATA_DIR, and the restored site has every write acknowledged before the backup began (ADR 0042).
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTROL_SOCKET_FILE } from "../server/modules/backup/control-socket";
import type { BackupManifest } from "../server/modules/backup/backup";
import { addMembers, type KillableSite, login, openCopyOf, startKillableSite } from "./killable-site";
import { type AckedWrite, missingWrites, startWriteStream } from "./write-stream";

const ROOT = path.resolve(import.meta.dirname, "..");
const PASSWORD = "backup-test-1";

/** `npm run backup` / `npm run restore` as a person runs them (the scripts, through tsx). */
function runScript(script: "backup" | "restore", args: string[], dataDir: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", `scripts/${script}.ts`, ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (c) => (output += c));
  child.stderr.on("data", (c) => (output += c));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, output })));
}

const filesUnder = async (dir: string) => (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();

describe("backup of the running embedded site, restore into a new DATA_DIR", () => {
  let work = "";
  let site: KillableSite | undefined;
  const dataDir = () => path.join(work, "site");
  const backupDir = () => path.join(work, "backup");
  const probe = randomBytes(50_000);
  let before: AckedWrite[] = [];

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), "djbackup-"));
    const first = await startKillableSite(dataDir());
    await first.healthy();
    expect(await first.stop()).toBe(0);
    await mkdir(path.join(dataDir(), "uploads", "2026"), { recursive: true });
    await writeFile(path.join(dataDir(), "uploads", "2026", "probe.mp3"), probe);
  }, 300_000);
  afterAll(async () => {
    await site?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it("copies the database and files while members keep writing; restore refuses while the site runs", { timeout: 240_000 }, async () => {
    const names = await addMembers(dataDir(), 5, PASSWORD);
    const copy = await openCopyOf(dataDir());
    const { queryRows } = await import("../server/db/sql");
    const { sql } = await import("drizzle-orm");
    const itemIds = (await queryRows<{ id: number }>(copy.database.db, sql`select id from items order by id`)).map((r) => r.id);
    await copy.dispose();

    site = await startKillableSite(dataDir(), { PGLITE_VACUUM_INTERVAL_MS: "0" });
    await site.healthy();
    // The control socket is the server's alone.
    expect((await stat(path.join(dataDir(), CONTROL_SOCKET_FILE))).mode & 0o777).toBe(0o600);

    const members = await Promise.all(names.map(async (name) => ({ name, token: await login(site!.url, name, PASSWORD) })));
    const stream = startWriteStream(site.url, members, itemIds);
    while (stream.acked.length < 100) await new Promise((r) => setTimeout(r, 20));
    before = [...stream.acked];
    const backup = await runScript("backup", ["--out", backupDir()], dataDir());
    const duringBackup = stream.acked.length - before.length;
    await stream.stop();
    expect(backup.code, backup.output).toBe(0);
    expect(duringBackup).toBeGreaterThan(0); // writes went on while it was taken

    const manifest = JSON.parse(await readFile(path.join(backupDir(), "manifest.json"), "utf8")) as BackupManifest;
    expect(manifest).toMatchObject({ format: 1, engine: "pglite", database: { via: "running-server" } });
    expect(manifest.database!.bytes).toBeGreaterThan(1_000_000);
    expect((await stat(backupDir())).mode & 0o777).toBe(0o700); // password hashes, session tokens
    expect(await readFile(path.join(backupDir(), "uploads", "2026", "probe.mp3"))).toEqual(probe);
    expect(await filesUnder(path.join(backupDir(), "media"))).toEqual(await filesUnder(path.join(dataDir(), "media")));

    const refused = await runScript("restore", ["--from", backupDir()], dataDir());
    expect(refused.code).toBe(1);
    expect(refused.output).toContain("the site is running: stop it before restoring");
    expect(await site.stop()).toBe(0);
    site = undefined;
  });

  it("restores into a new DATA_DIR that starts and holds every write acknowledged before the backup began", { timeout: 240_000 }, async () => {
    const restoredDir = path.join(work, "restored");
    const restored = await runScript("restore", ["--from", backupDir()], restoredDir);
    expect(restored.code, restored.output).toBe(0);
    expect(await readFile(path.join(restoredDir, "uploads", "2026", "probe.mp3"))).toEqual(probe);

    site = await startKillableSite(restoredDir, { PGLITE_VACUUM_INTERVAL_MS: "0" });
    await site.healthy();
    const ready = await site.waitForLog(/^demo catalogue ready$/);
    expect(ready.added).toEqual({ mixes: 0, singles: 0, plays: 0 }); // the restored seed was complete
    const media = await fetch(`${site.url}/uploads/2026/probe.mp3`);
    expect(media.status).toBe(200);
    await media.arrayBuffer();
    expect(await site.stop()).toBe(0);
    site = undefined;

    const check = await openCopyOf(restoredDir);
    try {
      expect(before.length).toBeGreaterThanOrEqual(100);
      expect(await missingWrites(check.database, before)).toEqual([]);
    } finally {
      await check.dispose();
    }
  });

  it("backs up a stopped site from its files, and a restore over an existing DATA_DIR sets the old one aside", { timeout: 120_000 }, async () => {
    const second = path.join(work, "backup-stopped");
    const result = await runScript("backup", ["--out", second], dataDir());
    expect(result.code, result.output).toBe(0);
    const manifest = JSON.parse(await readFile(path.join(second, "manifest.json"), "utf8")) as BackupManifest;
    expect(manifest.database?.via).toBe("stopped-site");
    expect((await runScript("backup", ["--out", second], dataDir())).code).toBe(1); // never over an existing backup

    const again = await runScript("restore", ["--from", second], dataDir());
    expect(again.code, again.output).toBe(0);
    const aside = (await readdir(dataDir())).filter((n) => n.startsWith("before-restore-"));
    expect(aside).toHaveLength(1);
    expect((await readdir(path.join(dataDir(), aside[0]!))).sort()).toEqual(["db", "media", "uploads"]);
  });
});
