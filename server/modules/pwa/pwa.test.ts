/**
 * The installable site's files (issue 24, ADR 0066): a manifest named by the site settings, the
 * service worker at /sw.js (scope /, never kept by the browser without asking), the offline page
 * that works under the site's strict CSP. The browser side is e2e/pwa.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestAdmin } from "../../testing/admins.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { webManifest } from "./service.js";
import { DEFAULT_SITE_SETTINGS } from "@contracts/site";

describe("the web app manifest", () => {
  it("is named by the site title, with a short name a launcher can show", () => {
    const manifest = webManifest({ ...DEFAULT_SITE_SETTINGS, title: "DJ搜索引擎网", description: "描述" });
    expect(manifest).toMatchObject({ name: "DJ搜索引擎网", short_name: "DJ搜索引擎网", description: "描述", start_url: "/", scope: "/", display: "standalone", theme_color: "#15121f" });
    expect(webManifest({ ...DEFAULT_SITE_SETTINGS, title: "全网最好听的DJ舞曲搜索" }).short_name).toBe("全网最好听的DJ");
    expect(manifest.icons.map((i) => [i.sizes, i.purpose])).toEqual([
      ["192x192", "any"],
      ["512x512", "any"],
      ["512x512", "maskable"],
    ]);
  });
});

describe.each(testEngines())("the installable site's files on %s", (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(() => t?.close());

  it("answers the manifest from the settings, and a new one after they are saved", async () => {
    const first = await t.app.inject("/manifest.webmanifest");
    expect(first.statusCode).toBe(200);
    expect(first.headers["content-type"]).toBe("application/manifest+json; charset=utf-8");
    expect(first.headers["cache-control"]).toBe("no-cache");
    expect(first.json()).toMatchObject({ name: "DJ搜索引擎网", start_url: "/", display: "standalone" });
    // Unchanged: a 304 for the browser's copy.
    expect((await t.app.inject({ url: "/manifest.webmanifest", headers: { "if-none-match": String(first.headers.etag) } })).statusCode).toBe(304);

    const admin = await createTestAdmin(t.database.db, { role: "super" });
    const saved = await t.app.inject({ method: "PUT", url: "/api/pandaadmin/settings", headers: admin.headers, payload: { ...DEFAULT_SITE_SETTINGS, title: "夜店舞曲" } });
    expect(saved.statusCode).toBe(200);
    const after = await t.app.inject({ url: "/manifest.webmanifest", headers: { "if-none-match": String(first.headers.etag) } });
    expect(after.statusCode).toBe(200);
    expect(after.json()).toMatchObject({ name: "夜店舞曲", short_name: "夜店舞曲" });
  });

  it("serves the service worker at the root, always asked again, with its version written in", async () => {
    const res = await t.app.inject("/sw.js");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("no-cache");
    expect(res.headers["service-worker-allowed"]).toBe("/");
    expect(res.body).not.toContain("__VERSION__");
    expect(res.body).toContain(`const VERSION = "${t.app.services.pwa.version}"`);
    expect(t.app.services.pwa.version).toMatch(/^[0-9a-f]{16}$/);
    // The policy of a page's address: the worker may fetch only this site.
    expect(String(res.headers["content-security-policy"])).toContain("connect-src 'self'");
    expect((await t.app.inject({ url: "/sw.js", headers: { "if-none-match": String(res.headers.etag) } })).statusCode).toBe(304);
  });

  it("serves an offline page whose only script is a file of the site (no inline script for the CSP to block)", async () => {
    const page = await t.app.inject("/offline.html");
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.body).toContain("<h1>网络已断开</h1>");
    const scripts = [...page.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map(([, attrs, body]) => [attrs.trim(), body.trim()])).toEqual([['src="/offline.js"', ""]]);
    const csp = String(page.headers["content-security-policy"]);
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    const script = await t.app.inject("/offline.js");
    expect(script.statusCode).toBe(200);
    expect(script.headers["content-type"]).toBe("text/javascript; charset=utf-8");
  });
});
