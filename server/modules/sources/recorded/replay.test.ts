/**
 * Saving a sample from a plugin's try and replaying a source's samples through a new version
 * before it is activated (issue 22, ADR 0051): old beside new, a version that breaks the parse
 * shows it, a request no sample answers fails clearly, and nothing reaches the site meanwhile.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestAdmin } from "../../../testing/admins.js";
import { startFixtureSite, text, type FixtureSite } from "../../../testing/fixture-site.js";
import { createTestApp, type TestApp } from "../../../testing/test-app.js";
import { uploadPlugin } from "../../plugins/testing/upload.js";
import { testEngines } from "../../../testing/test-db.js";
import { serveYedian, yedianPlugin } from "../../plugins/testing/yedian.js";
import { matchKey } from "./replay-network.js";

interface Row {
  answer: { id: number; url: string; call: { method: string } | null };
  old: { version: string; count: number; titles: string[]; error: string | null } | null;
  new: { version: string; count: number; titles: string[]; error: string | null };
}

describe("the replay's URL match", () => {
  it("ignores the order of the query and the fragment, not the path or values", () => {
    expect(matchKey("http://a.example/s?page=1&key=%E5%A4%9C#x")).toBe(matchKey("http://A.example/s?key=夜&page=1"));
    expect(matchKey("http://a.example/s?key=1")).not.toBe(matchKey("http://a.example/s?key=2"));
    expect(matchKey("http://a.example/s")).not.toBe(matchKey("http://a.example/t"));
  });
});

describe.each(testEngines())("samples from a try, replayed through plugin versions, on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let site: FixtureSite;
  let admin: Awaited<ReturnType<typeof createTestAdmin>>;
  /** The code the site serves at the plugin's srcUrl. */
  let served = "";
  const platform = encodeURIComponent("夜店DJ");
  const post = (url: string, payload?: object) => app.inject({ method: "POST", url, headers: admin.headers, ...(payload ? { payload } : {}) });
  const replay = async (versionId?: number) => {
    const res = await post(`/api/pandaadmin/plugins/${platform}/replay`, versionId ? { versionId } : {});
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.rows as Row[];
  };
  const stage = async (code: string) => {
    served = code;
    const res = await post(`/api/pandaadmin/plugins/${platform}/stage`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { versionId: number; version: string; current: string };
  };

  beforeAll(async () => {
    site = await startFixtureSite();
    site.route("/plugin.js", (req, res, m) => text(served, "application/javascript; charset=utf-8")(req, res, m));
    serveYedian(site);
    testApp = await createTestApp(engine, { plugins: { allowAddresses: [site.host] } });
    app = testApp.app;
    admin = await createTestAdmin(testApp.database.db, { role: "super" });
    const installed = await uploadPlugin(app, admin.headers, yedianPlugin("1.0.0", site.url));
    expect(installed.statusCode).toBe(200);
  });
  afterAll(async () => {
    await testApp?.close();
    await site?.close();
  });

  it("a try lists the answers its requests got; one saved is a sample of the plugin's source", async () => {
    const res = await post(`/api/pandaadmin/plugins/${platform}/try`, { keyword: "夜曲" });
    const data = res.json().data;
    expect(data.ok).toBe(true);
    expect(data.answers.map((a: { call: string; status: number }) => [a.call, a.status])).toEqual([["search", 200], ["getMediaSource", 200]]);
    expect(data.answers[0].url).toMatch(/\/search\?key=/u);
    expect(data.answers[1].url).toMatch(/\/play\/1$/u);
    // Held, not yet kept.
    expect(await app.services.recorded.list("p-yediandj")).toEqual([]);
    for (const answer of data.answers) {
      const saved = await post(`/api/pandaadmin/recorded/trial/${answer.id}`);
      expect(saved.statusCode).toBe(200);
      expect(saved.json().data).toMatchObject({ source: "p-yediandj", reason: "试用时保存", url: answer.url });
    }
    const kept = await app.services.recorded.list("p-yediandj");
    expect(kept.map((k) => k.call?.method)).toEqual(["getMediaSource", "search"]);
    expect(kept[1]!.call!.args).toEqual(["夜曲", 1, "music"]);
    // Saved once only.
    expect((await post(`/api/pandaadmin/recorded/trial/${data.answers[0].id}`)).statusCode).toBe(410);
  });

  it("replays a staged version that breaks the parse beside the one in use, without touching the site", async () => {
    const staged = await stage(yedianPlugin("1.1.0", site.url).replaceAll("ul.list li", "ul.songs li"));
    expect(staged).toMatchObject({ version: "1.1.0", current: "1.0.0" });
    // Staged, not in use.
    const listed = (await app.inject({ url: "/api/pandaadmin/plugins", headers: admin.headers })).json().data.plugins[0];
    expect(listed.version).toBe("1.0.0");
    const before = site.hits.length;
    const rows = await replay(staged.versionId);
    expect(site.hits.length).toBe(before);
    const search = rows.find((r) => r.answer.call?.method === "search")!;
    expect(search.old).toMatchObject({ version: "1.0.0", count: 20, error: null });
    expect(search.old!.titles.slice(0, 2)).toEqual(["夜曲串烧1", "夜曲2"]);
    expect(search.new).toMatchObject({ version: "1.1.0", count: 0, titles: [], error: null });
    const media = rows.find((r) => r.answer.call?.method === "getMediaSource")!;
    expect(media.old!.titles[0]).toMatch(/\/media\/1\.m4a\?sign=[0-9a-f]{32}$/u);
    expect(media.new.titles).toEqual(media.old!.titles);
  });

  it("a version that asks for an address no sample answers fails with a clear error", async () => {
    const staged = await stage(yedianPlugin("1.2.0", site.url).replace('base() + "/search"', 'base() + "/search2"'));
    const rows = await replay(staged.versionId);
    const search = rows.find((r) => r.answer.call?.method === "search")!;
    expect(search.old!.count).toBe(20);
    expect(search.new.error).toMatch(/回放: 没有这个地址的样本 .*\/search2\?key=/u);
  });

  it("a good update replays to the same items; activated, it is the new beside the one before", async () => {
    const staged = await stage(yedianPlugin("1.3.0", site.url, "新"));
    const rows = await replay(staged.versionId);
    const search = rows.find((r) => r.answer.call?.method === "search")!;
    expect(search.new).toMatchObject({ version: "1.3.0", count: 20, error: null });
    expect(search.new.titles[0]).toBe("新夜曲串烧1");

    const activated = await post(`/api/pandaadmin/plugins/${platform}/activate`, { versionId: staged.versionId });
    expect(activated.json().data).toMatchObject({ version: "1.3.0", previousVersion: "1.0.0" });
    const after = (await replay()).find((r) => r.answer.call?.method === "search")!;
    expect([after.old!.version, after.new.version]).toEqual(["1.0.0", "1.3.0"]);
    // The replay of the source asks the plugin that serves it.
    const bySource = await post("/api/pandaadmin/recorded/replay?source=p-yediandj");
    expect(bySource.json().data.rows).toHaveLength(2);
  });

  it("refuses an unknown version, an older one, and a platform that is not installed, in Chinese", async () => {
    const unknown = await post(`/api/pandaadmin/plugins/${platform}/replay`, { versionId: 999_999 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().msg).toBe("该插件没有这个版本");
    const missing = await post(`/api/pandaadmin/plugins/${encodeURIComponent("无此插件")}/replay`, {});
    expect(missing.statusCode).toBe(404);
    for (const [path, body] of [["activate", { versionId: "x" }], ["activate", {}], ["replay", { versionId: -1 }], ["replay", { versionId: 1.5 }]] as const) {
      const bad = await post(`/api/pandaadmin/plugins/${platform}/${path}`, body);
      expect(bad.statusCode, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(bad.json().msg).toBe("该插件没有这个版本");
    }
    served = yedianPlugin("0.9.0", site.url);
    const older = await post(`/api/pandaadmin/plugins/${platform}/stage`);
    expect(older.statusCode).toBe(400);
  });
});
