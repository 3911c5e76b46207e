/**
 * The security headers every answer carries and the flags of every cookie the site sets
 * (ADR 0003, 0014, 0043): API answers, refusals, non-API answers with the page policy; cookies
 * HttpOnly and SameSite=Lax always (the back office's menu cookie Strict, for /panda only: ADR
 * 0078), Secure when the request came over https (behind a trusted proxy, X-Forwarded-Proto),
 * never when it did not (a browser would drop it on http).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoMediaFixture } from "../db/seed/demo-media.fixture.js";
import { seedDemoCatalogue } from "../db/seed/index.js";
import { createTestAdmin } from "../testing/admins.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";
import { API_CSP } from "./security.js";

let t: TestApp;
let suiteId: number;
/** The proxy in front of the app: the only address whose X-Forwarded-* is believed. */
const PROXY = "127.0.0.1";

beforeAll(async () => {
  t = await createTestApp("pglite", { env: { TRUST_PROXY: PROXY } });
  await seedDemoCatalogue(t.database, { media: demoMediaFixture, suites: 2, singles: 0, plays: 0, writes: t.app.services.writes });
  suiteId = (await t.app.inject({ url: "/api/forntend/getmusicinfo?id=1" })).json().data.id;
});
afterAll(() => t?.close());

type Headers = Record<string, string | string[] | number | undefined>;

/** helmet's headers, as the site configures them. */
function expectHelmetHeaders(headers: Headers, what: string) {
  expect(headers["x-content-type-options"], what).toBe("nosniff");
  expect(headers["x-frame-options"], what).toBe("SAMEORIGIN");
  expect(headers["referrer-policy"], what).toBe("no-referrer");
  // A year, subdomains too: browsers honour it only over https, which is where it applies.
  expect(headers["strict-transport-security"], what).toBe("max-age=31536000; includeSubDomains");
  expect(headers["cross-origin-opener-policy"], what).toBe("same-origin");
  expect(headers["x-permitted-cross-domain-policies"], what).toBe("none");
  expect(headers["x-dns-prefetch-control"], what).toBe("off");
  expect(headers["x-powered-by"], what).toBeUndefined();
}

describe("security headers", () => {
  it("API answers, successes and refusals alike, forbid loading and framing anything from them", async () => {
    const answers = {
      success: await t.app.inject({ url: "/api/forntend/gettopnav" }),
      validation: await t.app.inject({ url: "/api/forntend/getmusicinfo?id=abc" }),
      unauthenticated: await t.app.inject({ url: "/api/user/favorites" }),
      unknown: await t.app.inject({ url: "/api/no/such/route" }),
      badJson: await t.app.inject({ method: "POST", url: "/api/forntend/play/start", headers: { "content-type": "application/json" }, payload: "{" }),
      badType: await t.app.inject({ method: "POST", url: "/api/forntend/play/start", headers: { "content-type": "text/xml" }, payload: "<a/>" }),
    };
    const statuses = Object.fromEntries(Object.entries(answers).map(([k, r]) => [k, r.statusCode]));
    expect(statuses).toEqual({ success: 200, validation: 400, unauthenticated: 401, unknown: 404, badJson: 400, badType: 415 });
    for (const [what, res] of Object.entries(answers)) {
      expectHelmetHeaders(res.headers, what);
      expect(res.headers["content-security-policy"], what).toBe(API_CSP);
      expect(res.headers["content-type"], what).toMatch(/^application\/json/);
    }
  });

  it("other answers get the page policy: scripts only from us, no plugins, no foreign frames (a nonce only where a page is rendered: page-cache.test.ts)", async () => {
    const first = await t.app.inject({ url: "/robots.txt" });
    const second = await t.app.inject({ url: "/robots.txt" });
    expectHelmetHeaders(first.headers, "/robots.txt");
    const csp = String(first.headers["content-security-policy"]);
    for (const directive of ["default-src 'self'", "object-src 'none'", "base-uri 'self'", "frame-ancestors 'self'", "form-action 'self'", "connect-src 'self'"]) {
      expect(csp).toContain(directive);
    }
    // A constant policy, made once: no nonce nor hash where no inline script is sent (ADR 0053).
    expect(csp).toContain("script-src 'self'; ");
    expect(String(second.headers["content-security-policy"])).toBe(csp);
    expect(csp).not.toContain("'unsafe-eval'");
    expect(/script-src[^;]*'unsafe-inline'/.test(csp)).toBe(false);
  });
});

/** One Set-Cookie header by cookie name. */
function cookie(headers: Headers, name: string): string {
  const all = ([] as unknown[]).concat(headers["set-cookie"] ?? []).map(String);
  const found = all.find((c) => c.startsWith(`${name}=`));
  expect(found, `Set-Cookie ${name} in ${JSON.stringify(all)}`).toBeTruthy();
  return found!;
}
const flags = (setCookie: string) => setCookie.split(";").slice(1).map((s) => s.trim().toLowerCase());

describe("cookie flags", () => {
  const viaProxy = (proto: string) => ({ remoteAddress: PROXY, headers: { "x-forwarded-proto": proto, "x-forwarded-for": "203.0.113.9" } });
  const cases = {
    visitor: { name: "vid", url: () => `/api/forntend/getmusicinfo?id=${suiteId}` },
    captcha: { name: "captcha_id", url: () => "/captcha.html" },
  };

  it.each(Object.entries(cases))("the %s cookie is HttpOnly and SameSite=Lax, Secure behind https only", async (_what, { name, url }) => {
    const plain = flags(cookie((await t.app.inject({ url: url(), ...viaProxy("http") })).headers, name));
    expect(plain).toContain("httponly");
    expect(plain).toContain("samesite=lax");
    expect(plain).toContain("path=/");
    expect(plain).not.toContain("secure");

    const https = flags(cookie((await t.app.inject({ url: url(), ...viaProxy("https") })).headers, name));
    expect(https).toContain("httponly");
    expect(https).toContain("samesite=lax");
    expect(https).toContain("secure");
  });

  it("the back office's menu cookie is HttpOnly, SameSite=Strict and for /panda only, Secure behind https only", async () => {
    const admin = await createTestAdmin(t.database.db, { role: "super" });
    const check = async (proto: string) =>
      flags(cookie((await t.app.inject({ url: "/api/pandaadmin/check", remoteAddress: PROXY, headers: { ...admin.headers, "x-forwarded-proto": proto, "x-forwarded-for": "203.0.113.9" } })).headers, "panda_menu"));
    const plain = await check("http");
    expect(plain).toEqual(expect.arrayContaining(["httponly", "samesite=strict", "path=/panda"]));
    expect(plain).not.toContain("secure");
    expect(await check("https")).toEqual(expect.arrayContaining(["httponly", "samesite=strict", "path=/panda", "secure"]));
  });

  it("X-Forwarded-Proto from an address that is not the proxy is not believed", async () => {
    const res = await t.app.inject({ url: "/captcha.html", remoteAddress: "198.51.100.7", headers: { "x-forwarded-proto": "https" } });
    expect(flags(cookie(res.headers, "captcha_id"))).not.toContain("secure");
  });
});
