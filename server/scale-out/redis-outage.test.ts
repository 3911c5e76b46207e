/**
 * Redis going away and coming back (issue 14, ADR 0039), for real: a redis-server of this test's
 * own on a free port, stopped and started again, with two instances on one PostgreSQL. While it
 * is away kept answers and pages are served, rate limits let requests through, a login or a
 * captcha answers 503 服务暂时不可用，请稍后再试 at once, and an admin edit is saved; when it is
 * back everything works again without a restart and the other instance shows the edit.
 * Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set (the machine's Redis is never touched).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureWebBuild } from "../../e2e/web-server.js";
import { createTestAdmin } from "../testing/admins.js";
import { testRedisUrl } from "../testing/test-redis.js";
import { createTwoInstances, type TwoInstances } from "../testing/two-instances.js";
import { createTestUser, type TestUser } from "../testing/users.js";
import { freePort } from "../../scripts/cluster/stack.js";

const enabled = Boolean(testRedisUrl() && process.env.TEST_DATABASE_URL);
/**
 * How long Redis stays away: several of the clients' reconnect attempts (0.2 s to 2 s apart).
 * REDIS_OUTAGE_MS=30000 runs the issue's 30 s.
 */
const OUTAGE_MS = Number(process.env.REDIS_OUTAGE_MS) || 6_000;

/** A throw-away redis-server (no persistence) of this test on `port`. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "pipe" });
  let out = "";
  child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
  for (let i = 0; i < 100 && !out.includes("Ready to accept connections"); i++) await sleep(50);
  if (!out.includes("Ready to accept connections")) throw new Error(`redis-server did not start: ${out}`);
  return child;
}

async function stopRedis(child: ChildProcess) {
  if (child.exitCode !== null) return;
  child.kill("SIGTERM");
  await once(child, "exit");
}

describe.skipIf(!enabled)("Redis away for a while, then back", () => {
  let port: number;
  let redis: ChildProcess;
  let site: TwoInstances;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let editor: Record<string, string>;
  let member: TestUser;
  let danqu: number;

  const nav = async (app: FastifyInstance) => ((await app.inject("/api/forntend/gettopnav")).json().data as { label: string }[]).map((n) => n.label);
  const login = (app: FastifyInstance, password: string) =>
    app.inject({ method: "POST", url: "/api/user/login", remoteAddress: "198.51.100.7", payload: { account: member.username, password } });

  beforeAll(async () => {
    ensureWebBuild();
    port = await freePort();
    redis = await startRedis(port);
    site = await createTwoInstances(`redis://127.0.0.1:${port}`, { web: true });
    ({ app: a } = site.a);
    ({ app: b } = site.b);
    editor = (await createTestAdmin(site.a.database.db, { role: "editor" })).headers;
    [{ id: danqu }] = await a.services.writes.createCategories([{ name: "DJ单曲", diyname: "danqu", sort: 1 }]);
    member = await createTestUser(a, { password: "secret123" });
  });
  afterAll(async () => {
    // The instances close first (their keys go with this redis-server).
    await site?.close().catch(() => undefined);
    if (redis) await stopRedis(redis);
  });

  it("serves what is kept, refuses what needs Redis with a clear 503, saves edits, and recovers on its own", async () => {
    // Kept on B before Redis goes.
    expect(await nav(b)).toContain("DJ单曲");
    expect((await b.inject({ url: "/sort/danqu", headers: { accept: "text/html" } })).statusCode).toBe(200);

    await stopRedis(redis);
    const away = Date.now();
    await sleep(200);

    // Kept answers and pages are still served.
    expect(await nav(b)).toContain("DJ单曲");
    const page = await b.inject({ url: "/sort/danqu", headers: { accept: "text/html" } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("DJ单曲");

    // What needs Redis answers 503 with a Chinese message, at once (no hang).
    let started = Date.now();
    const refused = await login(a, "secret123");
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ code: 0, msg: "服务暂时不可用，请稍后再试" });
    const captcha = await b.inject({ url: "/captcha.html" });
    expect(captcha.statusCode).toBe(503);
    expect(captcha.json()).toMatchObject({ code: 0, msg: "服务暂时不可用，请稍后再试" });

    // Rate limits let requests through (fail open); a search still answers.
    const search = await a.inject("/api/forntend/indexsearch?keyword=DJ");
    expect(search.statusCode).toBe(200);

    // An admin edit is saved (PostgreSQL is up) and answers at once; B learns it when Redis is back.
    started = Date.now();
    const edit = await a.inject({ method: "PUT", url: `/api/pandaadmin/category/${danqu}`, payload: { name: "DJ舞曲单曲" }, headers: editor });
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(edit.json()).toMatchObject({ code: 1, msg: "保存成功" });

    // Still away after OUTAGE_MS: nothing crashed, the answers are the same.
    await sleep(Math.max(0, OUTAGE_MS - (Date.now() - away)));
    expect((await login(b, "secret123")).statusCode).toBe(503);

    redis = await startRedis(port);
    // Both instances reconnect by themselves (within the 2 s retry cap).
    let back = false;
    for (let i = 0; i < 60 && !back; i++) {
      await sleep(100);
      back = (await login(a, "wrong-pass")).statusCode === 401 && (await login(b, "wrong-pass")).statusCode === 401;
    }
    expect(back).toBe(true);
    expect((await login(b, "secret123")).json()).toMatchObject({ code: 1 });
    expect((await a.inject({ url: "/captcha.html" })).statusCode).toBe(200);
    // B missed the event while away: it dropped its kept answers when its subscription came back.
    expect(await nav(b)).toContain("DJ舞曲单曲");
    expect((await b.inject({ url: "/sort/danqu", headers: { accept: "text/html" } })).body).toContain("DJ舞曲单曲");

    // And the bus works again: an edit on A shows on B's next request.
    await a.inject({ method: "PUT", url: `/api/pandaadmin/category/${danqu}`, payload: { name: "DJ单曲精选" }, headers: editor });
    expect(await nav(b)).toContain("DJ单曲精选");
  }, OUTAGE_MS + 30_000);
});
