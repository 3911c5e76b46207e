import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./service-unavailable";

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
const drizzle = (cause: unknown) => Object.assign(new Error("Failed query: select 1\nparams: "), { cause });

describe("isDatabaseUnavailable", () => {
  it.each([
    ["refused", withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED")],
    ["reset", withCode("read ECONNRESET", "ECONNRESET")],
    ["cut mid-query", new Error("Connection terminated unexpectedly")],
    ["no answer to connect", new Error("timeout exceeded when trying to connect")],
    ["server shutting down", withCode("terminating connection due to administrator command", "57P01")],
    ["server starting", withCode("the database system is starting up", "57P03")],
    ["connection exception class", withCode("connection failure", "08006")],
    ["wrapped by Drizzle", drizzle(new Error("Connection terminated unexpectedly"))],
    ["every address refused", drizzle(Object.assign(new AggregateError([withCode("connect ECONNREFUSED ::1:5432", "ECONNREFUSED")]), {}))],
  ])("%s: yes", (_, err) => expect(isDatabaseUnavailable(err)).toBe(true));

  it.each([
    ["a query's own error", drizzle(withCode('syntax error at or near "selec"', "42601"))],
    ["a unique violation", withCode("duplicate key value violates unique constraint", "23505")],
    ["a statement timeout (the query, not the database)", withCode("canceling statement due to statement timeout", "57014")],
    ["a plain bug", new TypeError("x is undefined")],
    ["not an error", "Connection terminated"],
    ["nothing", undefined],
  ])("%s: no", (_, err) => expect(isDatabaseUnavailable(err)).toBe(false));
});
