import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPglite } from "../pglite-create.js";
import { MAX_PREPARED, preparedStatements } from "./prepared.js";

describe("named prepared statements on PGlite", () => {
  let client: PGlite;
  let statements: ReturnType<typeof preparedStatements>;
  beforeAll(async () => {
    client = await createPglite(undefined);
    statements = preparedStatements(client);
    await client.exec("create table p (id int primary key, note text, at timestamptz default now())");
  }, 60_000);
  afterAll(() => client?.close());

  it("binds parameters by their types and gives rows as PGlite's query does", async () => {
    await statements.query("insert into p (id, note) values ($1, $2)", [1, "一"]);
    const text = "select id, note, at, $1::jsonb as j from p where id = $2";
    const params = [{ a: [1, "二"] }, 1];
    const mine = await statements.query(text, params);
    const theirs = await client.query(text, params);
    expect(mine.rows).toEqual(theirs.rows);
    expect(mine.fields).toEqual(theirs.fields);
    expect((await statements.query(text, params, { rowMode: "array" })).rows).toEqual((await client.query(text, params, { rowMode: "array" })).rows);
  });

  it("keeps a statement after a constraint refused one of its calls", async () => {
    const insert = "insert into p (id, note) values ($1, $2)";
    await expect(statements.query(insert, [1, "again"])).rejects.toMatchObject({ code: "23505" });
    await statements.query(insert, [2, "two"]);
    expect((await client.query<{ n: number }>("select count(*)::int as n from p")).rows[0]!.n).toBe(2);
  });

  it("keeps at most MAX_PREPARED statements, closing the least recently used", async () => {
    for (let i = 0; i < MAX_PREPARED + 20; i++) await statements.query(`select $1::int + ${i} as n`, [i]);
    expect(statements.size()).toBe(MAX_PREPARED);
    const { rows } = await client.query<{ n: number }>("select count(*)::int as n from pg_prepared_statements");
    expect(rows[0]!.n).toBe(MAX_PREPARED);
  });
});
