/**
 * Two apps in one process (as the tests make them) share no state (ADR 0058): what one keeps,
 * taps or remembers is its own. The one exception, by design: the memos of pure computations
 * (pinyin of a run, the China day of a minute), whose answers are the same for every app.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnswerListener } from "./modules/sources/fetch/answer-tap.js";
import { djuuSource, type FixtureSource } from "./modules/sources/source-search.fixtures.js";
import { createTestApp, type TestApp } from "./testing/test-app.js";

describe("two apps in one process", () => {
  let sites: FixtureSource[] = [];
  let built: TestApp[] = [];
  let a: FastifyInstance;
  let b: FastifyInstance;

  beforeAll(async () => {
    // Each app with its own fixture site for the same source code, djuu.
    sites = await Promise.all([djuuSource(), djuuSource()]);
    built = await Promise.all(sites.map((site) => createTestApp("pglite", { sourceAdapters: [site.entry] })));
    [a, b] = built.map((t) => t.app) as [FastifyInstance, FastifyInstance];
  });

  afterAll(async () => {
    await Promise.all(built.map((t) => t.close()));
    await Promise.all(sites.map((s) => s.close()));
  });

  const entries = (stats: { name: string; entries: number }[], name: string) => stats.find((s) => s.name === name)?.entries;

  it("a kept answer filled in one is not in the other (each has its own registry)", async () => {
    expect(a.services.caches).not.toBe(b.services.caches);
    const res = await a.inject({ url: "/api/forntend/gettopnav" });
    expect(res.statusCode).toBe(200);
    expect(entries(a.services.caches.stats(), "navigation")).toBe(1);
    expect(entries(b.services.caches.stats(), "navigation")).toBe(0);
    // A resync of one drops its own kept answers only.
    a.services.caches.clearAll();
    await b.services.navigation.topNav();
    expect(entries(b.services.caches.stats(), "navigation")).toBe(1);
  });

  it("a canary's tap on a source sees that app's answers only, though both sources have one code", async () => {
    const seen = { a: 0, b: 0 };
    const tap = (app: FastifyInstance, listener: AnswerListener) => app.services.sourceDirectory.get("djuu")!.tapAnswers!(listener);
    const untaps = [tap(a, () => seen.a++), tap(b, () => seen.b++)];
    try {
      const search = (app: FastifyInstance) => app.services.sourceDirectory.get("djuu")!.adapter.search({ keyword: "remix", page: 1, type: "mp3" });
      await search(b);
      expect(seen).toMatchObject({ a: 0 });
      expect(seen.b).toBeGreaterThan(0);
      const before = seen.b;
      await search(a);
      expect(seen.a).toBeGreaterThan(0);
      expect(seen.b).toBe(before);
    } finally {
      untaps.forEach((untap) => untap());
    }
  });

  it("what lives in memory for a visitor (captcha answers, throttles) is one app's", async () => {
    await a.services.ephemeral.set("captcha:two-apps", "1234", 60_000);
    expect(await a.services.ephemeral.get("captcha:two-apps")).toBe("1234");
    expect(await b.services.ephemeral.get("captcha:two-apps")).toBeUndefined();
    expect(await a.services.ephemeral.increment("login-failures:two-apps", 60_000)).toBe(1);
    expect(await b.services.ephemeral.increment("login-failures:two-apps", 60_000)).toBe(1);
  });

  it("the services, health boards, plugin runtimes and buses are each app's own", () => {
    for (const name of ["bus", "writes", "sourceDirectory", "sourceHealth", "plugins", "search", "sessions", "views", "counters"] as const) {
      expect(a.services[name], name).not.toBe(b.services[name]);
    }
    a.services.sourceHealth.track("djuu", "DJUU").failed(0, { kind: "network", message: "down" });
    const failures = (app: FastifyInstance) => app.services.sourceHealth.list().find((s) => s.code === "djuu")?.failures ?? 0;
    expect(failures(a)).toBeGreaterThan(0);
    expect(failures(b)).toBe(0);
  });

  it("the memos of pure computations are the process's, listed in each registry for their counters", () => {
    for (const name of ["pinyin", "china-day"]) {
      expect(a.services.caches.get(name), name).toBeDefined();
      expect(a.services.caches.get(name)).toBe(b.services.caches.get(name));
    }
  });
});
