import { and, asc, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import { demoMediaFixture } from "../../db/seed/demo-media.fixture.js";
import { seedDemoCatalogue } from "../../db/seed/index.js";
import { items } from "../../db/schema/index.js";
import { queryRows } from "../../db/sql.js";
import type { DatabaseEngine } from "../../db/types.js";
import { createTestApp, type TestApp, type TestAppOptions } from "../../testing/test-app.js";

/** The real app on `engine` with a small demo catalogue (no plays), seeded through its write service. */
export async function libraryTestApp(engine: DatabaseEngine, opts: TestAppOptions = {}): Promise<TestApp> {
  const t = await createTestApp(engine, opts);
  await seedDemoCatalogue(t.database, { media: demoMediaFixture, suites: 8, singles: 4, plays: 0, writes: t.app.services.writes });
  return t;
}

/** Ids of visible items of a kind, lowest first. */
export async function itemIds(t: TestApp, kind: "mix" | "single"): Promise<number[]> {
  const rows = await t.database.db
    .select({ id: items.id })
    .from(items)
    .where(and(eq(items.kind, kind), eq(items.status, "normal")))
    .orderBy(asc(items.id));
  return rows.map((r) => r.id);
}

export interface Answer<T = unknown> {
  status: number;
  code: number;
  msg: string;
  data: T;
}

/** One call through app.inject, answered as status plus envelope. */
export async function call<T = any>(
  app: FastifyInstance,
  method: "GET" | "POST" | "PUT",
  url: string,
  opts: { headers?: Record<string, string>; body?: unknown; rawBody?: string } = {},
): Promise<Answer<T>> {
  const res = await app.inject({
    method,
    url,
    headers: { ...opts.headers, ...(opts.rawBody !== undefined ? { "content-type": "application/json" } : {}) },
    ...(opts.rawBody !== undefined ? { payload: opts.rawBody } : opts.body !== undefined ? { payload: opts.body as object } : {}),
  });
  const body = res.json();
  return { status: res.statusCode, code: body.code, msg: body.msg, data: body.data };
}

/** Asserts a refusal: status, code 0 and the exact message. */
export function expectRefused(answer: Answer, status: number, msg: string) {
  expect({ status: answer.status, code: answer.code, msg: answer.msg }).toEqual({ status, code: 0, msg });
}

/** A single number of SQL (cast aggregates to int). */
export async function scalar(t: TestApp, query: ReturnType<typeof sql>): Promise<number> {
  const [row] = await queryRows<{ n: number }>(t.database.db, query);
  return Number(row.n);
}
