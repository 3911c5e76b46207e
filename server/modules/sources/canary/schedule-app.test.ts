/**
 * The canary schedule in the real app (ADR 0049): CANARY_INTERVAL_MS rounds run by themselves,
 * 0 runs none, and of two instances on one PostgreSQL only the leader lease's holder asks its site.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestAdmin } from "../../../testing/admins.js";
import { startFixtureSite, type FixtureSite } from "../../../testing/fixture-site.js";
import { captureLog } from "../../../testing/log-capture.js";
import { createTestApp, type TestApp } from "../../../testing/test-app.js";
import { createTestDatabase, testEngines } from "../../../testing/test-db.js";
import { applyExternalSources } from "../builtin-switches.js";
import { createSourceAdapters } from "../registry.js";
import { serveCanarySite } from "./canary.fixtures.js";
import type { DatabaseHandle } from "../../../db/types.js";

const INTERVAL_MS = 1_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An instance whose djuu is its own fixture site (so a site's hits tell which instance ran). */
async function instance(engine: "pglite" | "postgres", interval: number, database?: DatabaseHandle) {
  const site = await startFixtureSite();
  serveCanarySite(site);
  const external = createSourceAdapters({
    userAgent: "DJSearchBot/1.0 (+http://test/about)",
    logger: captureLog().logger,
    overrides: { djuu: { baseUrl: site.url, apiBaseUrl: `${site.url}/app/v1`, allowAddresses: [site.host], extraMediaHosts: [site.host], minIntervalMs: 0 } },
  });
  const testApp = await createTestApp(engine, {
    sourceAdapters: external.sources.filter((s) => s.code === "djuu"),
    env: { CANARY_INTERVAL_MS: String(interval) },
    ...(database ? { database } : {}),
  });
  await applyExternalSources(testApp.app.services, ["djuu"], { info: () => undefined });
  return {
    site,
    testApp,
    /** Canary requests this instance's site got (searches for the canary's words). */
    asked: () => site.hits.filter((h) => h.path === "/app/v1/music/search").length,
    close: async () => {
      await testApp.close();
      external.close();
      await site.close();
    },
  };
}

describe.each(testEngines())("the canary schedule in the app on %s", (engine) => {
  it("runs every CANARY_INTERVAL_MS without being asked, and keeps the result", async () => {
    const one = await instance(engine, INTERVAL_MS);
    try {
      await expect.poll(() => one.asked(), { timeout: 5 * INTERVAL_MS, interval: 100 }).toBeGreaterThan(0);
      const headers = (await createTestAdmin(one.testApp.database.db, { role: "super" })).headers;
      await expect
        .poll(async () => (await one.testApp.app.inject({ url: "/api/pandaadmin/sources/health", headers })).json().data.sources[0]?.canary?.state, { timeout: 5 * INTERVAL_MS })
        .toBe("ok");
    } finally {
      await one.close();
    }
  });

  it("CANARY_INTERVAL_MS=0 runs none", async () => {
    const off = await instance(engine, 0);
    try {
      await sleep(2.5 * INTERVAL_MS);
      expect(off.asked()).toBe(0);
      expect(await off.testApp.app.services.canaries.latest()).toEqual(new Map());
    } finally {
      await off.close();
    }
  });
});

describe.skipIf(!testEngines().includes("postgres"))("two instances on one PostgreSQL", () => {
  let database: DatabaseHandle;
  let a: Awaited<ReturnType<typeof instance>>;
  let b: Awaited<ReturnType<typeof instance>>;

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    a = await instance("postgres", INTERVAL_MS, database);
    b = await instance("postgres", INTERVAL_MS, database);
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.close();
  });

  it("only the leader lease's holder runs the canaries", async () => {
    await expect.poll(() => a.asked() + b.asked(), { timeout: 5 * INTERVAL_MS, interval: 100 }).toBeGreaterThan(0);
    // Two more intervals: the other instance ticked too, and asked nothing.
    await sleep(2 * INTERVAL_MS);
    const holder = a.testApp.app.services.leader.held ? a : b;
    const other = holder === a ? b : a;
    expect(holder.asked()).toBeGreaterThan(0);
    expect(other.asked()).toBe(0);
    expect(other.testApp.app.services.leader.held).toBe(false);
  });
});
