/**
 * 来源管理 shows a source a plugin serves as 插件 (with the plugin's name), whether the plugin is on
 * or off: its own `p-…` source, and a built-in it replaces while it is on (off, the built-in serves
 * again; its own row, left, has no adapter). Such a source cannot be given a generic configuration: 400 with a Chinese message,
 * nothing changed.
 */
import { readFileSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestAdmin } from "../../testing/admins.js";
import { startFixtureSite, type FixtureSite } from "../../testing/fixture-site.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { uploadPlugin } from "../plugins/testing/upload.js";
import { testEngines } from "../../testing/test-db.js";
import { serveYedian, yedianPlugin } from "../plugins/testing/yedian.js";

const djuuConfig = JSON.parse(readFileSync(new URL("./adapters/djuu.generic.json", import.meta.url), "utf8")) as Record<string, unknown>;

describe.each(testEngines())("a plugin's source on the sources screen on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let site: FixtureSite;
  let boss: Awaited<ReturnType<typeof createTestAdmin>>;

  const sources = async () =>
    ((await app.inject({ url: "/api/pandaadmin/sources", headers: boss.headers })).json().data.sources as { code: string; adapter: string; plugin: string | null; inUse: boolean }[]).map(
      (s) => [s.code, s.adapter, s.plugin, s.inUse],
    );
  const patchPlugin = async (body: object) => {
    const res = await app.inject({ method: "PATCH", url: `/api/pandaadmin/plugins/${encodeURIComponent("夜店DJ")}`, headers: boss.headers, payload: body });
    expect(res.statusCode, res.body).toBe(200);
  };

  beforeAll(async () => {
    site = await startFixtureSite();
    serveYedian(site);
    testApp = await createTestApp(engine, { plugins: { allowAddresses: [site.host] } });
    app = testApp.app;
    boss = await createTestAdmin(testApp.database.db, { role: "super" });
    const res = await uploadPlugin(app, boss.headers, yedianPlugin("1.0.0", site.url));
    expect(res.statusCode, res.body).toBe(200);
  });

  afterAll(async () => {
    await testApp?.close();
    await site?.close();
  });

  it("labels the plugin's own source 插件 while the plugin is off and while it is on", async () => {
    expect(await sources()).toContainEqual(["p-yediandj", "plugin", "夜店DJ", false]);
    expect(await sources()).toContainEqual(["local", "none", null, false]);
    await patchPlugin({ enabled: true });
    expect(await sources()).toContainEqual(["p-yediandj", "plugin", "夜店DJ", true]);
    await patchPlugin({ enabled: false });
  });

  it("refuses a generic configuration on the plugin's source, and changes nothing", async () => {
    const res = await app.inject({
      method: "PUT",
      url: "/api/pandaadmin/sources/p-yediandj",
      headers: boss.headers,
      payload: { ...djuuConfig, code: "p-yediandj", name: "抢占" },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe("这个来源由插件提供，请在来源插件中管理");
    expect(await sources()).toContainEqual(["p-yediandj", "plugin", "夜店DJ", false]);
  });

  it("a built-in it replaces is 插件 while the plugin is on, and 内置 again while it is off", async () => {
    await patchPlugin({ replaces: "djuu", enabled: true });
    const on = await sources();
    expect(on.find(([code]) => code === "djuu")).toEqual(["djuu", "plugin", "夜店DJ", expect.any(Boolean)]);
    // Its own source's row stays (items may name it), with nothing serving it.
    expect(on).toContainEqual(["p-yediandj", "none", null, false]);
    await patchPlugin({ enabled: false });
    expect((await sources()).find(([code]) => code === "djuu")).toEqual(["djuu", "builtin", null, expect.any(Boolean)]);
  });
});
