/**
 * Two instances of the built server on one PostgreSQL and one Redis, behind nginx (ADR 0039,
 * 0040, 0041): one site. Each request below goes to the instance named, straight to its port
 * (the client address in X-Forwarded-For, which the instances take from 127.0.0.1 as from
 * nginx), so the test knows which instance answered:
 * - an admin edit on A shows on B's very next request (kept answer and kept page);
 * - a login on A works on B;
 * - a rate limit and the login captcha threshold count requests on both;
 * - singleton background work (chart rebuilds, scheduled collections, cleanups) runs on one
 *   instance, and moves to the other when that one is killed.
 * kill -9 under load through nginx: e2e/cluster-crash.test.ts.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../server/db/schema/index.js";
import { hashPassword } from "../server/modules/accounts/passwords.js";
import { clusterTestsEnabled, startTestCluster, type TestCluster } from "./cluster.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let addressSeq = 0;
/** A client address of its own for each check (rate limits and login failures count by address). */
const newAddress = () => `198.51.100.${++addressSeq}`;

describe.skipIf(!clusterTestsEnabled || !process.env.TEST_REDIS_URL)("two instances behind nginx share one site through Redis", () => {
  let cluster: TestCluster;
  const at = (name: string, path: string) => `http://${cluster.upstreamOf(name)}${path}`;
  const json = async (res: Response) => (await res.json()) as { code: number; msg: string; data: any };
  const post = (name: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(at(name, path), { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

  beforeAll(async () => {
    // Chart rebuilds every second: the lease is asked for every second.
    cluster = await startTestCluster({ env: { CHARTS_REBUILD_INTERVAL_MS: "1000" } });
  }, 240_000);

  afterAll(async () => {
    await cluster?.dispose();
  });

  it("an admin's category rename on A shows on B's next request: its kept navigation and its kept page", async () => {
    const admin = await cluster.createAdmin("editor");
    const list = await json(await fetch(at("A", "/api/pandaadmin/category/index"), { headers: admin.headers }));
    const category = (list as unknown as { rows: { id: number; name: string; diyname: string }[] }).rows[0]!;
    const navOf = async (name: string) => JSON.stringify((await json(await fetch(at(name, "/api/forntend/gettopnav")))).data);
    const pageOf = async (name: string) => (await fetch(at(name, `/sort/${category.diyname}`), { headers: { accept: "text/html" } })).text();
    // B keeps both (asked twice: the second comes from memory).
    for (let i = 0; i < 2; i++) {
      expect(await navOf("B")).toContain(category.name);
      expect(await pageOf("B")).toContain(category.name);
    }

    const renamed = `${category.name}改${Date.now() % 1000}`;
    const res = await fetch(at("A", `/api/pandaadmin/category/${category.id}`), {
      method: "PUT",
      headers: { ...admin.headers, "content-type": "application/json" },
      body: JSON.stringify({ name: renamed }),
    });
    expect((await json(res)).code).toBe(1);
    // No wait: A's answer came after B dropped what it kept (ADR 0039's acknowledgements).
    expect(await navOf("B")).toContain(renamed);
    expect(await pageOf("B")).toContain(renamed);
  });

  it("a login on A works on B, and its logout on B ends it on A", async () => {
    const username = `cluster${process.pid}login`;
    await cluster.database.db.insert(users).values({ username, email: `${username}@example.test`, passwordHash: await hashPassword("right-password") });
    const login = await json(await post("A", "/api/user/login", { account: username, password: "right-password" }, { "x-forwarded-for": newAddress() }));
    expect(login).toMatchObject({ code: 1 });
    const headers = { authorization: `Bearer ${login.data.token}` };
    expect(await json(await fetch(at("B", "/api/user/isloging"), { headers }))).toMatchObject({ code: 1 });
    expect((await post("B", "/api/user/logout", {}, headers)).status).toBe(200);
    expect((await fetch(at("A", "/api/user/isloging"), { headers })).status).toBe(401);
    await cluster.database.db.delete(users).where(eq(users.username, username));
  });

  it("counts one search rate limit over both instances (120 a minute per address)", async () => {
    const address = newAddress();
    const search = (name: string) => fetch(at(name, "/api/forntend/indexsearch?keyword=夜曲"), { headers: { "x-forwarded-for": address } });
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await search("A")).status, (await search("B")).status);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect((await search("A")).status).toBe(429);
    expect((await search("B")).status).toBe(429);
    // Another address is not affected.
    expect((await fetch(at("B", "/api/forntend/indexsearch?keyword=夜曲"), { headers: { "x-forwarded-for": newAddress() } })).status).toBe(200);
  });

  it("counts failed logins over both instances: the 5th, wherever it lands, asks for the captcha", async () => {
    const address = newAddress();
    const counts: number[] = [];
    for (const name of ["A", "B", "A", "B", "B"]) {
      const answer = await json(await post(name, "/api/user/login", { account: `nobody${process.pid}`, password: "wrong-password" }, { "x-forwarded-for": address }));
      expect(answer.code).toBe(0);
      counts.push(answer.data.iscaptcha);
    }
    expect(counts).toEqual([1, 2, 3, 4, 5]);
    // Now a login without a captcha is refused on either instance, before the password is checked.
    for (const name of ["A", "B"]) {
      const answer = await json(await post(name, "/api/user/login", { account: `nobody${process.pid}`, password: "wrong-password" }, { "x-forwarded-for": address }));
      expect(answer).toMatchObject({ code: 0, msg: "请输入验证码" });
    }
  });

  it("runs singleton background work on one instance only, and on the other once that one is killed", async () => {
    const taken = (name: string) => cluster.instance(name).output().split("\n").filter((l) => l.includes("leader lease taken")).length;
    // Both instances ask for the lease every second (their chart timers).
    await expect.poll(() => taken("A") + taken("B"), { timeout: 15_000, interval: 250 }).toBe(1);
    await sleep(3000);
    expect(taken("A") + taken("B")).toBe(1);
    const leader = taken("A") === 1 ? "A" : "B";
    const follower = leader === "A" ? "B" : "A";
    const [holders] = await cluster.rows<{ n: number }>(sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and granted`);
    expect(holders!.n).toBeGreaterThanOrEqual(1);

    await cluster.instance(leader).kill();
    const printedBefore = cluster.instance(leader).output().length;
    // PostgreSQL ends the dead instance's session and its lock; the follower's next tick takes it.
    await expect.poll(() => taken(follower), { timeout: 20_000, interval: 250 }).toBe(1);
    await cluster.instance(leader).start();
    await sleep(3000);
    // Back, the old leader follows: nobody took the lease again.
    expect(taken(follower)).toBe(1);
    expect(cluster.instance(leader).output().slice(printedBefore)).not.toContain("leader lease taken");
  }, 90_000);
});
