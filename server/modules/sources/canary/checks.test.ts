/** The canary's expectations on an adapter that answers what a test says (no network): skips, paging, expired addresses. */
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import type { SourceAdapterEntry } from "../source-provider.js";
import type { ResolvedMedia, SourceAdapter, SourceItem, SourcePage } from "../types.js";
import { MIN_ITEMS, runCanary } from "./checks.js";

const item = (id: string, title = `DJ - 串烧${id}`): SourceItem => ({
  source: "fake",
  sourceId: id,
  url: `http://fake/${id}`,
  title,
  artist: null,
  cover: null,
  duration: null,
  sizeBytes: null,
  kind: "mix",
  playtype: "mp3",
  raw: {},
});
const page = (ids: string[], hasMore = true): SourcePage => ({ items: ids.map((id) => item(id)), hasMore });
const NOW = Date.parse("2026-11-26T12:00:00Z");

function fake(over: Partial<SourceAdapter> = {}, media: Buffer = Buffer.from("ID3\x04\0\0\0\0\0\0\0\0\0\0\0\0", "latin1")): SourceAdapterEntry {
  const adapter: SourceAdapter = {
    code: "fake",
    name: "Fake",
    search: async () => page(["1", "2", "3"]),
    listCategory: async (_c, n) => page(n === 1 ? ["a", "b", "c"] : ["d"], n === 1),
    listChart: async () => page(["x", "y", "z"], false),
    details: async () => ({ ...item("1"), tracklist: [] }),
    resolveMedia: async (): Promise<ResolvedMedia> => ({ url: "https://media.fake/1.mp3", headers: {}, format: "mp3" }),
    ...over,
  };
  return {
    code: "fake",
    name: "Fake",
    homepage: "http://fake",
    adapter,
    media: { open: async (url) => ({ status: 206, url, headers: {}, body: Readable.from([media]) }) },
  };
}
const category = [{ type: "category" as const, key: "c1", name: "串烧", maxPages: 3 }];
const states = (run: Awaited<ReturnType<typeof runCanary>>) => Object.fromEntries(run.checks.map((c) => [c.name, c.state]));

describe("a canary's checks", () => {
  it("passes a working source, mp3 by its ID3 tag", async () => {
    const run = await runCanary(fake(), { plan: category, now: () => NOW });
    expect(run).toMatchObject({ state: "ok", failingStep: null });
    expect(run.checks.find((c) => c.name === "media")!.detail).toBe("mp3");
  });

  it("skips the Chinese search of a source that cannot serve it, and it stays ok", async () => {
    const run = await runCanary(fake({ servesQuery: (input) => /^[\x20-\x7e]*$/u.test(input.keyword) }), { plan: category, now: () => NOW });
    expect(states(run)).toMatchObject({ "search-ascii": "ok", "search-chinese": "skipped" });
    expect(run.state).toBe("ok");
  });

  it(`fewer than ${MIN_ITEMS} items, or an item without a title, is drift`, async () => {
    const few = await runCanary(fake({ search: async () => page(["1", "2"]) }), { plan: category, now: () => NOW });
    expect(few).toMatchObject({ state: "drift", failingStep: "search-ascii" });
    const untitled = await runCanary(fake({ search: async () => ({ items: [item("1"), item("2"), item("3", " ")], hasMore: false }) }), { plan: category, now: () => NOW });
    expect(untitled.checks[0]!.detail).toContain("缺少编号或标题");
  });

  it("a category whose first page has no next page, or whose page 2 repeats page 1, is drift", async () => {
    const noNext = await runCanary(fake({ listCategory: async () => page(["a", "b", "c"], false) }), { plan: category, now: () => NOW });
    expect(noNext).toMatchObject({ state: "drift", failingStep: "list-1" });
    expect(states(noNext)["list-2"]).toBe("skipped");
    const same = await runCanary(fake({ listCategory: async () => page(["a", "b", "c"]) }), { plan: category, now: () => NOW });
    expect(same).toMatchObject({ state: "drift", failingStep: "list-2" });
  });

  it("a chart, or a list of one page, has no page 2 to check; no plan, no list", async () => {
    const chart = await runCanary(fake(), { plan: [{ type: "chart", period: "week", kind: "mix", maxPages: 1 }], now: () => NOW });
    expect(states(chart)).toMatchObject({ "list-1": "ok", "list-2": "skipped" });
    const none = await runCanary(fake(), { now: () => NOW });
    expect(states(none)).toMatchObject({ "list-1": "skipped", "list-2": "skipped" });
  });

  it("an address already expired is drift at play; no media read follows", async () => {
    const run = await runCanary(fake({ resolveMedia: async () => ({ url: "https://media.fake/1.m4a", headers: {}, format: "m4a", expiresAt: NOW - 1 }) }), { plan: category, now: () => NOW });
    expect(run).toMatchObject({ state: "drift", failingStep: "play" });
    expect(states(run).media).toBe("skipped");
  });

  it("media that answers 403 is blocked, a page instead of audio is drift", async () => {
    const refused: SourceAdapterEntry = { ...fake(), media: { open: async (url) => ({ status: 403, url, headers: {}, body: Readable.from([Buffer.from("Forbidden")]) }) } };
    expect(await runCanary(refused, { plan: category, now: () => NOW })).toMatchObject({ state: "blocked", failingStep: "media" });
    const page = await runCanary(fake({}, Buffer.from("<!DOCTYPE html><html><body>" + "x".repeat(20000))), { plan: category, now: () => NOW });
    expect(page).toMatchObject({ state: "drift", failingStep: "media" });
  });

  it("a check that never answers is an outage within its step time", async () => {
    const started = performance.now();
    const run = await runCanary(fake({ search: (_input, signal) => new Promise((_r, reject) => signal?.addEventListener("abort", () => reject(signal.reason))) }), {
      plan: category,
      now: () => NOW,
      stepTimeoutMs: 200,
    });
    expect(run).toMatchObject({ state: "outage", failingStep: "search-ascii" });
    expect(run.checks).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
