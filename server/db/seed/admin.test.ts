import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { verify } from "@node-rs/argon2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admins } from "../schema/index.js";
import { captureLogger, createTestDatabase, testEngines } from "../../testing/test-db.js";
import type { DatabaseHandle } from "../types.js";
import { ensureAdminAccount, INITIAL_PASSWORD_FILE } from "./admin.js";

describe.each(testEngines())("admin account on %s", (engine) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase(engine);
  });
  afterAll(async () => handle?.close());

  it("is created once, with its password logged once in a warn line, never again", async () => {
    const logger = captureLogger();
    // Two instances starting together, then a restart.
    const results = await Promise.all([ensureAdminAccount(handle, logger), ensureAdminAccount(handle, logger)]);
    const restart = await ensureAdminAccount(handle, logger);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(restart.created).toBe(false);

    expect(logger.lines).toHaveLength(1);
    const [line] = logger.lines;
    expect(line.level).toBe("warn");
    const match = /Username: (\S+)\s+Password: (\S+)/.exec(line.msg ?? "");
    expect(match).not.toBeNull();
    const [, username, password] = match!;
    expect(username).toBe("admin");
    expect(password.length).toBeGreaterThanOrEqual(20);

    const rows = await handle.db.select().from(admins);
    expect(rows).toHaveLength(1);
    expect(rows[0].passwordHash).toMatch(/^\$argon2id\$/);
    expect(rows[0].passwordHash).not.toContain(password);
    expect(await verify(rows[0].passwordHash, password)).toBe(true);
    // It must change that password before anything else (issue 25).
    expect(rows[0].mustChangePassword).toBe(true);
  });

  it("with a JSON log, writes the password to a 0600 file in DATA_DIR and keeps it out of the log (issue 25)", async () => {
    const fresh = await createTestDatabase(engine);
    const dataDir = await mkdtemp(path.join(tmpdir(), "first-admin-"));
    try {
      const logger = captureLogger();
      expect(await ensureAdminAccount(fresh, logger, { to: "file", dataDir })).toEqual({ created: true });
      const file = path.join(dataDir, INITIAL_PASSWORD_FILE);
      const password = (await readFile(file, "utf8")).trim();
      expect(password.length).toBeGreaterThanOrEqual(20);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect(logger.lines).toHaveLength(1);
      expect(logger.lines[0].level).toBe("warn");
      expect(logger.lines[0].msg).toContain(file);
      expect(JSON.stringify(logger.lines)).not.toContain(password);
      const [row] = await fresh.db.select().from(admins);
      expect(await verify(row.passwordHash, password)).toBe(true);
      expect(row.mustChangePassword).toBe(true);
    } finally {
      await fresh.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
