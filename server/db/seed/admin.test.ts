import { verify } from "@node-rs/argon2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admins } from "../schema/index.js";
import { captureLogger, createTestDatabase, testEngines } from "../../testing/test-db.js";
import type { DatabaseHandle } from "../types.js";
import { ensureAdminAccount } from "./admin.js";

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
  });
});
