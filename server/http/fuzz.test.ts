/**
 * A bounded fuzz of every operation of the OpenAPI document (ADR 0043), on each test engine:
 * a fixed seed and a fixed number of hostile requests per operation, as a guest and, where the
 * route needs one, as the account it asks for. Every answer must be below 500; every refusal the
 * envelope with a Chinese message and nothing of the server's insides; a refused request must
 * leave every table and file as it was; and nothing may be logged at error level.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoMediaFixture } from "../db/seed/demo-media.fixture.js";
import { seedDemoCatalogue } from "../db/seed/index.js";
import { users } from "../db/schema/index.js";
import { createTestAdmin } from "../testing/admins.js";
import { captureLog } from "../testing/log-capture.js";
import { casesFor, type FuzzCase, type Operation, operationsOf } from "../testing/fuzz/openapi-cases.js";
import { seededRandom } from "../testing/fuzz/hostile-values.js";
import { differences, stateFingerprinter } from "../testing/fuzz/state-fingerprint.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";
import { testEngines } from "../testing/test-db.js";

/** Changing the seed changes every case; a finding names the seed and the case to replay it. */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const CASES_PER_OPERATION = Number(process.env.FUZZ_CASES ?? 16);

const CJK = /[\u3400-\u9fff]/;
/** What must never reach a client: stacks, source paths, SQL and driver texts, English error names. */
const INTERNALS =
  /\bat [\w.<>]+ \(|\.(?:ts|js|mjs):\d+|node_modules|\/work\/|\/tmp\/|\bError:|\bselect\b.+\bfrom\b|\binsert into\b|\bupdate\b.+\bset\b|syntax error|relation "|duplicate key|violates|constraint|FST_|ERR_|ECONN|stack|undefined|NaN|\[object /i;

const isMutating = (method: string) => method !== "GET" && method !== "HEAD";

describe.each(testEngines())("fuzz of every API operation on %s", (engine) => {
  let t: TestApp;
  let operations: Operation[];
  const log = captureLog();

  beforeAll(async () => {
    t = await createTestApp(engine, { logger: log.logger });
    await seedDemoCatalogue(t.database, { media: demoMediaFixture, suites: 6, singles: 2, plays: 0, writes: t.app.services.writes });
    operations = operationsOf((await t.app.inject({ url: "/api/docs/json" })).json());
  });
  afterAll(() => t?.close());

  /** A member made directly (no password hashing: the fuzz never logs in with it). */
  let members = 0;
  async function memberHeaders() {
    const [row] = await t.database.db
      .insert(users)
      .values({ username: `fuzz${++members}`, email: `fuzz${members}@example.cn`, passwordHash: "x" })
      .returning({ id: users.id });
    return { authorization: `Bearer ${await t.app.services.sessions.createUserSession(row!.id)}` };
  }

  it(`answers ${CASES_PER_OPERATION} hostile requests per operation with a 4xx envelope or a success, never a 5xx, a leak or a change`, async () => {
    expect(operations.length).toBeGreaterThan(90);
    const { counters, suites } = t.app.services;
    const fingerprint = await stateFingerprinter(t.database.db, t.dataDir, () => Promise.all([counters.flush(), suites.flushViews()]));
    const random = seededRandom(SEED);
    const findings: string[] = [];
    const seen = { requests: 0, refused: 0 };

    const timing = { inject: 0, fingerprint: 0, accounts: 0 };
    for (const op of operations) {
      const opStarted = Date.now();
      let t0 = Date.now();
      const access = t.app.routeAccess.find((r) => r.method === op.method && r.url === op.route)?.access;
      expect(access, `${op.method} ${op.path} is a registered route`).toBeDefined();
      // Fresh accounts per operation: a case that succeeds (a password or a status change) touches no other.
      const account =
        access === "user"
          ? await memberHeaders()
          : access === "admin" || access === "super"
            ? (await createTestAdmin(t.database.db, { role: access === "super" ? "super" : "editor" })).headers
            : undefined;

      timing.accounts += Date.now() - t0;
      t0 = Date.now();
      let before = isMutating(op.method) ? await fingerprint() : undefined;
      timing.fingerprint += Date.now() - t0;
      for (const [n, c] of casesFor(op, random, CASES_PER_OPERATION, { id: "1", code: "local", uploadId: "0123456789abcdef0123" }).entries()) {
        // Every fifth case as a guest; each from its own address, so rate limits stay out of the way.
        const asGuest = !account || n % 5 === 4;
        t0 = Date.now();
        const res = await t.app.inject({
          method: c.method as "GET",
          url: c.url,
          headers: { ...c.headers, ...(asGuest ? {} : account) },
          payload: c.payload,
          remoteAddress: `10.${random.int(256)}.${random.int(256)}.${1 + random.int(254)}`,
        });
        seen.requests++;
        timing.inject += Date.now() - t0;
        const what = `${describeCase(c)} as ${asGuest ? "guest" : access} -> ${res.statusCode} ${res.body.slice(0, 200)}`;
        if (res.statusCode >= 500) findings.push(`5xx: ${what}`);
        if (res.statusCode >= 400) {
          seen.refused++;
          const problem = envelopeProblem(res.headers["content-type"], res.body);
          if (problem) findings.push(`${problem}: ${what}`);
        }
        if (before) {
          t0 = Date.now();
          const after = await fingerprint();
          timing.fingerprint += Date.now() - t0;
          if (res.statusCode >= 400) {
            const changed = differences(before, after);
            if (changed.length) findings.push(`refused but changed ${changed.join(", ")}: ${what}`);
          }
          before = after;
        }
      }
      if (process.env.FUZZ_VERBOSE) console.log(`${Date.now() - opStarted} ms ${op.method} ${op.path}`);
    }
    if (process.env.FUZZ_VERBOSE) console.log(timing, seen);
    const errors = log.errors().map((l) => `${l.msg} ${l.err?.message ?? ""} ${String(l.url ?? l.req ?? "")}`);
    const report = [...findings, ...errors.map((e) => `error log: ${e}`)];
    // Printed whole: the assertion's diff would cut them short.
    if (report.length) console.error(`fuzz findings (seed ${SEED}):\n${report.join("\n")}`);
    expect(report).toEqual([]);
    // The fuzz must mostly be refused (hostile) yet reach handlers (plausible cases succeed).
    expect(seen.refused).toBeGreaterThan(seen.requests / 2);
    expect(seen.refused).toBeLessThan(seen.requests);
  }, 240_000);
});

/** Why a refusal is not our envelope with a Chinese message and no internals, or undefined. */
function envelopeProblem(contentType: string | string[] | number | undefined, body: string): string | undefined {
  if (!String(contentType ?? "").startsWith("application/json")) return `not JSON (${String(contentType)})`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return "unparsable JSON";
  }
  const e = parsed as { code?: unknown; msg?: unknown; time?: unknown };
  if (e.code !== 0 || typeof e.msg !== "string" || typeof e.time !== "number" || !("data" in (parsed as object))) return "not the envelope";
  if (!CJK.test(e.msg)) return "message not in Chinese";
  if (INTERNALS.test(body)) return "internals in the body";
  return undefined;
}

function describeCase(c: FuzzCase): string {
  const payload = c.payload === undefined ? "" : ` ${c.headers["content-type"] ?? "(no type)"} ${String(c.payload).slice(0, 120)}`;
  return `[${c.kind}] ${c.method} ${c.url.slice(0, 160)}${payload}`;
}
