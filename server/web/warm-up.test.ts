/**
 * The request path warmed up before listening (ADR 0045): the server's own requests are answered
 * like anyone's, but leave no access-log line and no request metric, and nobody can pass a
 * request of theirs off as one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureWebBuild } from "../../e2e/web-server.js";
import { captureLog } from "../testing/log-capture.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";
import { warmRequestPath } from "./warm-up.js";

describe("warming up the request path before listening", () => {
  const log = captureLog("info");
  let t: TestApp;
  /** Requests the metrics counted, all routes together. */
  const counted = async () => {
    const text = (await t.app.inject({ url: "/metrics" })).body;
    return text
      .split("\n")
      .filter((line) => line.startsWith("djsearch_http_request_duration_seconds_count{"))
      .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(" ") + 1)), 0);
  };
  const completed = () => log.lines.filter((l) => l.msg === "request completed").length;

  beforeAll(async () => {
    ensureWebBuild();
    t = await createTestApp("pglite", { web: true, logger: log.logger });
  }, 120_000);
  afterAll(() => t?.close());

  it("answers its kept pages from memory, unlogged and uncounted", async () => {
    const [metricsBefore, linesBefore] = [await counted(), completed()];
    const rendersBefore = t.app.services.caches.get("pages")!.stats().misses;
    const warmed = await warmRequestPath(t.app, 12);
    expect(warmed.requests).toBe(12);
    // The scrape above is one request more, counted and logged like any.
    expect(await counted()).toBe(metricsBefore + 1);
    expect(completed()).toBe(linesBefore + 1);
    // Served from what was kept at ready: nothing rendered again.
    expect(t.app.services.caches.get("pages")!.stats().misses).toBe(rendersBefore);
  });

  it("logs and counts a visitor's request, even one sending the header with a guessed value", async () => {
    const [metricsBefore, linesBefore] = [await counted(), completed()];
    const home = await t.app.inject({ url: "/", headers: { "x-djsearch-warm-up": "0123456789abcdef0123456789abcdef" } });
    expect(home.statusCode).toBe(200);
    // The guessed request and the first scrape.
    expect(await counted()).toBe(metricsBefore + 2);
    expect(completed()).toBe(linesBefore + 2);
  });
});
