/**
 * A plugin source's canary (ADR 0049): the same checks through the sandbox — its search, its
 * first top list's pages 1 and 2, getMediaSource and a Range read with the headers it asks for —
 * and the same verdicts when its site goes down, blocks with a captcha or changes its markup.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestAdmin } from "../../../testing/admins.js";
import { html, status, startFixtureSite, type FixtureSite } from "../../../testing/fixture-site.js";
import { createTestApp, type TestApp } from "../../../testing/test-app.js";
import { uploadPlugin } from "../../plugins/testing/upload.js";
import { testEngines } from "../../../testing/test-db.js";
import { serveYedian, yedianPlugin } from "../../plugins/testing/yedian.js";
import { CAPTCHA_PAGE } from "./canary.fixtures.js";
import type { DriftAnswer } from "./checks.js";

type Mode = "ok" | "5xx" | "captcha" | "drift";

/** 夜店DJ's search for any keyword (its own fixture answers 夜曲 only), by the site's mode. */
function serveSearch(site: FixtureSite, mode: () => Mode): void {
  site.route("/search", (req, res, match) => {
    const now = mode();
    if (now === "5xx") return status(502, "Bad Gateway")(req, res, match);
    if (now === "captcha") return html(CAPTCHA_PAGE)(req, res, match);
    if (now === "drift") return html(`<html><body><div class="grid"><span>DJ阿华 - 串烧</span></div></body></html>`)(req, res, match);
    const rows = Array.from({ length: 12 }, (_, i) => `<li data-seconds="3725"><img data-src="https://img.example/c/${i + 1}.jpg"><a class="t" href="/play/${i + 1}" title="DJ阿华 - 串烧${i + 1}">x</a></li>`);
    return html(`<html><body><ul class="list">${rows.join("")}</ul></body></html>`)(req, res, match);
  });
}

describe.each(testEngines())("a plugin source's canary on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let site: FixtureSite;
  let headers: Record<string, string>;
  let mode: Mode = "ok";
  const drifts: { source: string; step: string; answer: DriftAnswer }[] = [];

  const run = async () => {
    const res = await app.inject({ method: "POST", url: "/api/pandaadmin/sources/p-yediandj/canary", headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.canary as { state: string; failingStep: string | null; checks: { name: string; state: string; detail: string }[] };
  };

  beforeAll(async () => {
    site = await startFixtureSite();
    serveSearch(site, () => mode);
    serveYedian(site);
    testApp = await createTestApp(engine, {
      plugins: { allowAddresses: [site.host] },
      canary: { onDrift: (source, step, answer) => void drifts.push({ source, step, answer }) },
    });
    app = testApp.app;
    const admin = await createTestAdmin(testApp.database.db, { role: "super" });
    headers = admin.headers;
    const installed = await uploadPlugin(app, headers, yedianPlugin("1.0.0", site.url));
    expect(installed.statusCode, installed.body).toBe(200);
    const enabled = await app.inject({ method: "PATCH", url: `/api/pandaadmin/plugins/${encodeURIComponent("夜店DJ")}`, headers, payload: { enabled: true } });
    expect(enabled.statusCode, enabled.body).toBe(200);
  });

  afterAll(async () => {
    await testApp?.close();
    await site?.close();
  });

  it("ok: search, the first top list's two pages, a signed address, and m4a bytes with its Referer", async () => {
    mode = "ok";
    const canary = await run();
    expect(canary.checks.map((c) => [c.name, c.state])).toEqual([
      ["search-ascii", "ok"],
      ["search-chinese", "ok"],
      ["list-1", "ok"],
      ["list-2", "ok"],
      ["play", "ok"],
      ["media", "ok"],
    ]);
    expect(canary.state).toBe("ok");
    expect(site.hits.some((h) => h.path === "/top/7" && h.query.get("page") === "2")).toBe(true);
    const media = site.hits.filter((h) => h.path.startsWith("/media/")).at(-1)!;
    expect(media.headers.range).toBe("bytes=0-15");
    expect(media.headers.referer).toBe(`${site.url}/`);
  });

  it.each([
    ["5xx", "outage"],
    ["captcha", "blocked"],
    ["drift", "drift"],
    ["ok", "ok"],
  ] as const)("its site answering %s is %s", async (next, state) => {
    mode = next;
    const canary = await run();
    expect(canary.state).toBe(state);
    expect(canary.failingStep).toBe(state === "ok" ? null : "search-ascii");
  });

  it("its drifted answer went to onDrift, seen through the sandbox's requests", () => {
    const kept = drifts.filter((d) => d.source === "p-yediandj");
    expect(kept.map((d) => d.step)).toContain("search-ascii");
    expect(kept.find((d) => d.step === "search-ascii")!.answer.body.toString("utf8")).toContain('class="grid"');
  });
});
