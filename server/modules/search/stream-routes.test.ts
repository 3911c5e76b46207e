/**
 * GET /api/forntend/indexsearch/stream through the real app, on both engines (ADR 0050): the
 * SSE framing and headers (never compressed), the catalogue first and each site as it answers
 * over a real socket, per-source errors, kept answers serving the stream and the merged route
 * alike (one run, one ask per site), the merged route's validation before any event, and the
 * search rate limit.
 */
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RATE_LIMITS } from "../../http/rate-limits.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { fakeSource } from "./fake-source.fixtures.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));


interface Parsed {
  event: string;
  data: { source?: string; list?: { name: string; source: string }[]; error?: string; skipped?: boolean; total?: number; sources?: unknown[]; errors?: unknown[] };
}

function parseEvents(body: string): Parsed[] {
  return body
    .split("\n\n")
    .filter((frame) => frame.includes("event: "))
    .map((frame) => {
      const lines = frame.split("\n");
      return { event: lines.find((l) => l.startsWith("event: "))!.slice(7), data: JSON.parse(lines.find((l) => l.startsWith("data: "))!.slice(6)) };
    });
}

describe.each(testEngines())("GET /api/forntend/indexsearch/stream on %s", (engine) => {
  let t: TestApp;
  let base: string;
  const fast = fakeSource("fastdj", "快站", 20, ["夜曲 快站版", "夜曲一生"]);
  const slow = fakeSource("slowdj", "慢站", 400, ["夜曲 慢站版"]);
  const broken = fakeSource("brokendj", "坏站", 5, "fail");
  const hanging = fakeSource("hangdj", "卡站", 0, "hang", { timeoutMs: 150 });

  const stream = (query: Record<string, string>, headers: Record<string, string> = {}) => t.app.inject({ url: "/api/forntend/indexsearch/stream", query, headers });
  const merged = (query: Record<string, string>) => t.app.inject({ url: "/api/forntend/indexsearch", query });

  beforeAll(async () => {
    t = await createTestApp(engine, { sourceAdapters: [fast.entry, slow.entry, broken.entry, hanging.entry] });
    const [cat] = await t.app.services.writes.createCategories([{ name: "流式串烧", diyname: "streamcat" }]);
    await t.app.services.writes.createItems(
      ["夜曲 本站版", "夜曲一生", "雨夜慢摇"].map((title, i) => ({
        kind: "mix" as const,
        title,
        artist: i === 1 ? "快站歌手" : "DJ阿远",
        playUrl: `/media/demo/${i}.m4a`,
        playtype: "mp3" as const,
        sourceSite: "local",
        categoryId: cat.id,
      })),
    );
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });

  afterAll(() => t?.close());

  it("is an uncompressed, unbuffered event stream: local first with every source named, one event per source, done last", async () => {
    const res = await stream({ keyword: "夜曲", pageSize: "10" }, { "accept-encoding": "br, gzip" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    expect(res.headers["x-accel-buffering"]).toBe("no");
    expect(res.headers["cache-control"]).toBe("no-cache, no-transform");
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.body.startsWith("retry: 3000\n\n")).toBe(true);
    const events = parseEvents(res.body);
    expect(events.map((e) => e.event)).toEqual(["source", "source", "source", "source", "source", "done"]);
    expect(events[0]!.data.source).toBe("local");
    expect(events[0]!.data.sources).toEqual([
      { source: "local", name: "本站" },
      { source: "fastdj", name: "快站" },
      { source: "slowdj", name: "慢站" },
      { source: "brokendj", name: "坏站" },
      { source: "hangdj", name: "卡站" },
    ]);
    expect(events[0]!.data.list!.map((h) => h.name).sort()).toEqual(["夜曲 本站版", "夜曲一生"].sort());
    const bySource: Record<string, Parsed["data"]> = Object.fromEntries(events.slice(0, -1).map((e) => [e.data.source, e.data]));
    // 快站's 夜曲一生 by 快站歌手 is the catalogue's: sent once, by the catalogue.
    expect(bySource.fastdj!.list!.map((h) => h.name)).toEqual(["夜曲 快站版"]);
    expect(bySource.slowdj!.list!.map((h) => h.name)).toEqual(["夜曲 慢站版"]);
    expect(bySource.brokendj).toMatchObject({ list: [], total: 0, error: "搜索失败" });
    expect(bySource.hangdj).toMatchObject({ list: [], error: "搜索超时" });
    expect(events.at(-1)!.data).toMatchObject({ total: 5, errors: [{ source: "brokendj", msg: "搜索失败" }, { source: "hangdj", msg: "搜索超时" }] });
  });

  it("sends the catalogue and each site as it answers, over a real socket, without waiting for the slowest", async () => {
    const started = performance.now();
    const res = await fetch(`${base}/api/forntend/indexsearch/stream?keyword=${encodeURIComponent("雨夜")}`);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    const arrivals: { source: string; at: number }[] = [];
    let text = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
      for (const e of parseEvents(text).slice(arrivals.length)) arrivals.push({ source: e.data.source ?? e.event, at: performance.now() - started });
    }
    // The catalogue leads; 快站 and 坏站 (20 and 5 ms) may wait for it and then come in provider
    // order, so only their place before the 150 ms timeout and the 400 ms site is fixed.
    const order = arrivals.map((a) => a.source);
    expect(order[0]).toBe("local");
    expect(order.slice(1, 3).sort()).toEqual(["brokendj", "fastdj"]);
    expect(order.slice(3)).toEqual(["hangdj", "slowdj", "done"]);
    const at = Object.fromEntries(arrivals.map((a) => [a.source, a.at]));
    // Generous bounds for a shared machine; what matters is the order against the sites' latencies.
    expect(at.local).toBeLessThan(300);
    expect(at.fastdj).toBeLessThan(at.slowdj! - 150);
    expect(at.slowdj).toBeGreaterThanOrEqual(390);
  });

  it("a repeat within the kept time sends every source at once, asking no site; the merged route serves the same run", async () => {
    const keyword = "夜曲一生";
    const before = slow.calls.length;
    const first = await stream({ keyword });
    expect(slow.calls.length).toBe(before + 1);
    const started = performance.now();
    const again = await stream({ keyword });
    expect(performance.now() - started).toBeLessThan(200);
    expect(again.body).toBe(first.body);
    const answer = await merged({ keyword });
    expect(answer.statusCode).toBe(200);
    expect(slow.calls.length).toBe(before + 1);
    // The merged answer ranks across sources as ever; the same hits, deduplicated the same way.
    const streamed = parseEvents(first.body).flatMap((e) => e.data.list ?? []).map((h) => h.name).sort();
    expect((answer.json().data.list as { name: string }[]).map((h) => h.name).sort()).toEqual(streamed);
  });

  it("a stream joins the merged route's search in flight, and a merged search is kept for the stream", async () => {
    const before = slow.calls.length;
    const [answer, events] = await Promise.all([merged({ keyword: "慢站版" }), sleep(50).then(() => stream({ keyword: "慢站版" }))]);
    expect(answer.statusCode).toBe(200);
    expect(parseEvents(events.body).map((e) => e.data.source ?? e.event)).toContain("slowdj");
    expect(slow.calls.length).toBe(before + 1);
    await merged({ keyword: "快站版" });
    const kept = await stream({ keyword: "快站版" });
    expect(parseEvents(kept.body).at(-1)!.event).toBe("done");
    expect(slow.calls.length).toBe(before + 2);
  });

  it("a client that goes away stops nothing: the search finishes and is kept", async () => {
    const before = slow.calls.length;
    const controller = new AbortController();
    const res = await fetch(`${base}/api/forntend/indexsearch/stream?keyword=${encodeURIComponent("本站版")}`, { signal: controller.signal });
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    await sleep(500);
    const kept = await stream({ keyword: "本站版" });
    expect(parseEvents(kept.body).map((e) => e.data.source ?? e.event).sort()).toEqual(["brokendj", "done", "fastdj", "hangdj", "local", "slowdj"]);
    expect(parseEvents(kept.body).at(-1)!.event).toBe("done");
    expect(slow.calls.length).toBe(before + 1);
  });

  it.each([
    ["no keyword", {}, "请输入搜索关键词"],
    ["a blank keyword", { keyword: "   " }, "请输入搜索关键词"],
    ["an empty keyword", { keyword: "" }, "请输入搜索关键词"],
    ["a control character", { keyword: "夜\u0000" }, "搜索关键词包含无效字符"],
    ["a long keyword", { keyword: "夜".repeat(51) }, "搜索关键词不能超过50个字符"],
    ["a bad type", { keyword: "夜曲", type: "flac" }, "类型只能是mp3或mp4"],
    ["a bad channel", { keyword: "夜曲", channelid: "DJ UU" }, "搜索来源不正确"],
    ["a bad page", { keyword: "夜曲", page: "0" }, "页码必须是1到1000之间的整数"],
  ])("answers %s with 400 JSON in Chinese before any event", async (_case, query, msg) => {
    const res = await stream(query as Record<string, string>);
    expect(res.statusCode).toBe(400);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.json()).toMatchObject({ code: 0, msg });
  });

  it("shares the search rate limit: 429 JSON past it", async () => {
    const ask = () => t.app.inject({ url: "/api/forntend/indexsearch/stream?keyword=%E5%A4%9C%E6%9B%B2", remoteAddress: "192.0.2.77" });
    for (let i = 0; i < RATE_LIMITS.search.max; i++) expect((await ask()).statusCode, `#${i + 1}`).toBe(200);
    const over = await ask();
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ code: 0, msg: "请求过于频繁，请稍后再试" });
  });
});
