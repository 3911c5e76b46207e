import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adjustableClock, type AdjustableClock } from "../../lib/clock.js";
import { memoryEphemeralStore } from "../../lib/ephemeral-store.js";
import { solveCaptcha } from "../../testing/captcha.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { CAPTCHA_CHARS, CAPTCHA_COOKIE, CAPTCHA_TTL_MS, captchaKey, captchaService } from "./captcha.js";

describe("captcha service", () => {
  const setup = () => {
    const clock = adjustableClock();
    const store = memoryEphemeralStore({ clock });
    return { clock, store, captcha: captchaService(store) };
  };

  it("issues a 4-character answer of unmistakable characters and an SVG of paths", async () => {
    const { store, captcha } = setup();
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const { id, svg } = await captcha.issue();
      const answer = await store.get(captchaKey(id));
      expect(answer).toMatch(/^.{4}$/);
      for (const ch of answer!) {
        expect(CAPTCHA_CHARS).toContain(ch);
        seen.add(ch);
      }
      expect(svg).toMatch(/^<svg [^>]*viewBox="0,0,120,40"/);
      // The text is drawn as paths: it is not in the document, and nothing runs.
      expect(svg).not.toMatch(/<text|<script|on\w+=/i);
      expect(svg).not.toContain(answer);
    }
    for (const confusing of "0O1IL2Z5S") expect(seen.has(confusing)).toBe(false);
    expect(seen.size).toBeGreaterThan(15);
  });

  it("accepts the answer in any letter case with spaces around, once", async () => {
    const { store, captcha } = setup();
    const { id } = await captcha.issue();
    const answer = (await store.get(captchaKey(id)))!;
    expect(await captcha.verify(id, ` ${answer.toLowerCase()} `)).toBe(true);
    expect(await captcha.verify(id, answer)).toBe(false);
  });

  it("a wrong answer uses the captcha up", async () => {
    const { store, captcha } = setup();
    const { id } = await captcha.issue();
    const answer = (await store.get(captchaKey(id)))!;
    expect(await captcha.verify(id, "????")).toBe(false);
    expect(await captcha.verify(id, answer)).toBe(false);
  });

  it("expires after five minutes", async () => {
    const { clock, store, captcha } = setup();
    const { id } = await captcha.issue();
    const answer = (await store.get(captchaKey(id)))!;
    clock.advance(CAPTCHA_TTL_MS + 1000);
    expect(await captcha.verify(id, answer)).toBe(false);
  });

  it("refuses missing ids, malformed ids and empty answers", async () => {
    const { captcha } = setup();
    const { id } = await captcha.issue();
    expect(await captcha.verify(undefined, "ABCD")).toBe(false);
    expect(await captcha.verify("../../etc", "ABCD")).toBe(false);
    expect(await captcha.verify(id, "")).toBe(false);
    expect(await captcha.verify(id, undefined)).toBe(false);
  });
});

describe.each(testEngines())("GET /captcha.html on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let clock: AdjustableClock;

  beforeAll(async () => {
    clock = adjustableClock();
    testApp = await createTestApp(engine, { clock });
    app = testApp.app;
  });
  afterAll(() => testApp?.close());

  it("serves an SVG that is never cached and binds it to the browser with an httpOnly cookie", async () => {
    const res = await app.inject({ url: "/captcha.html?t=1790000000000", remoteAddress: "10.1.0.1" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^image\/svg\+xml/);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["content-security-policy"]).toBe("default-src 'none'");
    expect(res.body).toMatch(/^<svg /);
    const cookie = res.cookies.find((c) => c.name === CAPTCHA_COOKIE)!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/", maxAge: CAPTCHA_TTL_MS / 1000 });
    expect(cookie.secure).toBeFalsy();
    expect(await app.services.ephemeral.get(captchaKey(cookie.value))).toMatch(/^.{4}$/);
  });

  it("a new image replaces the browser's last one", async () => {
    const first = await solveCaptcha(app, { remoteAddress: "10.1.0.2" });
    const res = await app.inject({ url: "/captcha.html?t=2", headers: first.headers, remoteAddress: "10.1.0.2" });
    const next = res.cookies.find((c) => c.name === CAPTCHA_COOKIE)!.value;
    expect(next).not.toBe(first.id);
    expect(await app.services.ephemeral.get(captchaKey(first.id))).toBeUndefined();
    expect(await app.services.captcha.verify(first.id, first.answer)).toBe(false);
  });

  it("marks the cookie Secure over HTTPS behind a trusted proxy", async () => {
    const proxied = await createTestApp(engine, { env: { TRUST_PROXY: "127.0.0.1" } });
    try {
      const res = await proxied.app.inject({ url: "/captcha.html", headers: { "x-forwarded-proto": "https" } });
      expect(res.cookies.find((c) => c.name === CAPTCHA_COOKIE)?.secure).toBe(true);
    } finally {
      await proxied.close();
    }
  });

  it("gives one address 60 images a minute, then 429 with the envelope", async () => {
    const ip = "10.1.0.3";
    for (let i = 0; i < 60; i++) expect((await app.inject({ url: `/captcha.html?t=${i}`, remoteAddress: ip })).statusCode).toBe(200);
    const refused = await app.inject({ url: "/captcha.html?t=61", remoteAddress: ip });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 0, msg: "请求过于频繁，请稍后再试" });
    expect((await app.inject({ url: "/captcha.html", remoteAddress: "10.1.0.4" })).statusCode).toBe(200);
  });
});
