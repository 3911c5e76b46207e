/**
 * Operating it (ADR 0044), on the real server process: piped, its log is JSON lines that carry
 * each request's id (the first admin password is in a 0600 file, not the log); on
 * LOG_FORMAT=pretty it reads as text and the first admin password stands out; /metrics answers a loopback connection and nothing forwarded.
 */
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type RunningSite, startSite } from "./site.js";

/** A first start (initdb, migrations, the admin's argon2 hash) on a busy 2-core machine. */
const START_MS = 180_000;
const LIGHT = { SEED_DEMO: "0", CHARTS_REBUILD_INTERVAL_MS: "0", COLLECT_INTERVAL_MS: "0", UPLOAD_SWEEP_INTERVAL_MS: "0" };

/** Waits until the site's output satisfies `test` (log lines are written as requests end). */
async function until(read: () => string, test: (text: string) => boolean, ms = 5000): Promise<string> {
  const deadline = Date.now() + ms;
  for (;;) {
    const text = read();
    if (test(text) || Date.now() > deadline) return text;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("the server's log and metrics", () => {
  const sites: RunningSite[] = [];
  afterAll(() => Promise.all(sites.map((s) => s.dispose())));

  it("piped: one JSON object per line, the request id in the answer and in its log lines", async () => {
    const site = await startSite({ env: LIGHT });
    sites.push(site);
    const res = await fetch(`${site.url}/api/no-such-route`, { headers: { "x-request-id": "0123456789abcdef0123456789abcdef" } });
    expect(res.status).toBe(404);
    const id = res.headers.get("x-request-id")!;
    // Not from a trusted proxy (TRUST_PROXY unset): the visitor's own id is not taken.
    expect(id).not.toBe("0123456789abcdef0123456789abcdef");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const text = await until(site.stdout, (t) => t.includes(`"reqId":"${id}"`) && t.includes("request completed"));
    const lines = text.trim().split("\n");
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const ofRequest = entries.filter((e) => e.reqId === id);
    // One access line a request (ADR 0067): the request, its status and its time.
    expect(ofRequest.map((e) => e.msg)).toEqual(["request completed"]);
    expect(ofRequest[0]).toMatchObject({ req: { method: "GET", url: "/api/no-such-route" }, res: { statusCode: 404 }, responseTime: expect.any(Number) });
    // The first-start password never enters a JSON log (kept and shipped): a 0600 file holds it (issue 25).
    const admin = entries.find((e) => typeof e.msg === "string" && e.msg.startsWith("Admin account created."));
    const file = path.join(site.dataDir, "initial-admin-password.txt");
    expect(admin).toMatchObject({ level: 40, username: "admin", passwordFile: file });
    const password = (await readFile(file, "utf8")).trim();
    expect(password).toMatch(/^\S{24}$/);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(site.output()).not.toContain(password);
  }, START_MS);

  it("/metrics answers the machine itself, not a request forwarded to it", async () => {
    const site = sites[0]!;
    // Pages: the web shell's catch-all is counted under React Router's pattern, not the address.
    expect((await fetch(`${site.url}/sort/club`)).status).toBeLessThan(500);
    expect((await fetch(`${site.url}/sutie/987654.html`)).status).toBe(404);
    const direct = await fetch(`${site.url}/metrics`);
    expect(direct.status).toBe(200);
    const text = await direct.text();
    expect(text).toMatch(/djsearch_http_request_duration_seconds_count\{route="unmatched",method="GET",status_class="4xx"\} 1/);
    expect(text).toMatch(/^djsearch_db_pool_connections\{engine="pglite"\} 1$/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d/m);
    expect(text).toMatch(/djsearch_http_request_duration_seconds_count\{route="\/sort\/:diyname",method="GET",status_class="[24]xx"\} 1/);
    expect(text).toMatch(/djsearch_http_request_duration_seconds_count\{route="\/sutie\/:file",method="GET",status_class="4xx"\} 1/);
    expect(text).not.toContain("987654");
    expect(text).toMatch(/^djsearch_cache_entries\{cache="pages-until-changed"\} \d/m);
    const forwarded = await fetch(`${site.url}/metrics`, { headers: { "x-forwarded-for": "127.0.0.1" } });
    expect(forwarded.status).toBe(404);
    expect(await forwarded.text()).not.toContain("djsearch_");
  });

  it("LOG_FORMAT=pretty: readable lines, and the first admin password in a box of its own", async () => {
    const site = await startSite({ env: { ...LIGHT, LOG_FORMAT: "pretty" } });
    sites.push(site);
    const res = await fetch(`${site.url}/api/no-such-route`);
    const short = res.headers.get("x-request-id")!.slice(0, 8);
    const text = await until(site.stdout, (t) => t.includes(`[${short}] request completed`));
    // Not a terminal: no colours, and no JSON line at all.
    expect(text).not.toContain("\u001b[");
    expect(text.split("\n").filter((l) => l.startsWith("{"))).toEqual([]);
    expect(text).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO  database ready engine=pglite/m);
    expect(text).toContain(`[${short}] request completed GET /api/no-such-route 404`);
    expect(text).toMatch(/WARN\n┌─+┐\n│ Admin account created\. Username: admin +│\n│ Password: \S{24} +│\n/);
  }, START_MS);
});
