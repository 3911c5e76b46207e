/**
 * The one fan-out behind both search routes (ADR 0050): events in order (the catalogue first
 * even when a site answers before it, `done` last), per-source failures, skips and timeouts,
 * the stream's lists never repeating a hit sent before, late listeners replayed, and a stream
 * that goes away leaving no listener behind.
 */
import { EventEmitter } from "node:events";
import type { CatalogueItem } from "@contracts/catalogue-item";
import { describe, expect, it } from "vitest";
import { fanOut, type SearchEvent } from "./fanout.js";
import { startCosts } from "./places.js";
import { ProviderSkipped, ProviderUnavailable, type ProviderQuery, type SearchProvider } from "./provider.js";
import { eventStream, frameOf } from "./stream.js";

const hit = (source: string, name: string, artist = "DJ阿远"): CatalogueItem => ({
  id: `${source}:${name}`,
  name,
  artist,
  cover: "",
  palyurl: `/play/${name}`,
  playtype: "mp3",
  kind: "mix",
  channel: source,
  website: source,
  websitelogo: "",
  category: "",
  cidurl: "",
  time: 0,
  weburl: "",
  url: `https://${source}.example/${encodeURIComponent(name)}`,
  vipdown: "0",
  price: 0,
  view_count: 0,
  source,
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function provider(code: string, afterMs: number, answer: CatalogueItem[] | Error, timeoutMs = 1_000): SearchProvider {
  return {
    code,
    name: code.toUpperCase(),
    timeoutMs,
    serves: () => true,
    async search(_q, signal) {
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, afterMs);
        signal.addEventListener("abort", () => (clearTimeout(timer), reject(new Error("aborted"))), { once: true });
      });
      if (answer instanceof Error) throw answer;
      return { list: answer, total: answer.length };
    },
  };
}

const query: ProviderQuery = { keyword: "夜曲", page: 1, pageSize: 5, type: "mp3" };

function record(run: ReturnType<typeof fanOut>) {
  const started = performance.now();
  const seen: { at: number; event: SearchEvent }[] = [];
  run.subscribe((event) => seen.push({ at: performance.now() - started, event }));
  return seen;
}

describe("fanOut", () => {
  it("publishes the catalogue first even when a site answers before it, each site as it answers, and done last", async () => {
    const run = fanOut(
      [provider("local", 60, [hit("local", "夜曲")]), provider("fast", 0, [hit("fast", "夜曲一生")]), provider("slow", 250, [hit("slow", "夜曲慢摇")])],
      query,
    );
    const seen = record(run);
    await run.result;
    expect(seen.map((s) => (s.event.event === "source" ? s.event.data.source : "done"))).toEqual(["local", "fast", "slow", "done"]);
    // fast waited for local, slow did not wait for anything but itself.
    expect(seen[1]!.at - seen[0]!.at).toBeLessThan(20);
    expect(seen[2]!.at).toBeGreaterThanOrEqual(240);
    const first = seen[0]!.event;
    expect(first.event === "source" && first.data.sources).toEqual([
      { source: "local", name: "LOCAL" },
      { source: "fast", name: "FAST" },
      { source: "slow", name: "SLOW" },
    ]);
    // Only the first event names the sources.
    expect(seen[1]!.event.event === "source" && seen[1]!.event.data.sources).toBeUndefined();
    expect(seen.at(-1)!.event).toEqual({ event: "done", data: { total: 3, capped: false, page: 1, pageSize: 5, errors: [] } });
    expect(run.listening).toBe(0);
  });

  it("names each failure, timeout and skip on its own source and still answers with the others", async () => {
    const skipped: SearchProvider = { ...provider("minx", 0, []), search: async () => Promise.reject(new ProviderSkipped("minx")) };
    const resting: SearchProvider = { ...provider("rest", 0, []), search: async () => Promise.reject(new ProviderUnavailable("rest")) };
    const run = fanOut(
      [provider("local", 0, [hit("local", "夜曲")]), provider("broken", 10, new Error("layout")), provider("hang", 10_000, [], 80), skipped, resting],
      query,
    );
    const seen = record(run);
    const merged = await run.result;
    const sources = Object.fromEntries(seen.flatMap((s) => (s.event.event === "source" ? [[s.event.data.source, s.event.data]] : [])));
    expect(sources.broken).toMatchObject({ list: [], total: 0, error: "搜索失败" });
    expect(sources.hang).toMatchObject({ list: [], error: "搜索超时" });
    expect(sources.minx).toMatchObject({ list: [], skipped: true });
    expect(sources.minx.error).toBeUndefined();
    expect(sources.rest).toMatchObject({ skipped: true, error: "源站暂时不可用" });
    // The merged answer's rules are unchanged: a skip is left out, the rest are named.
    expect(merged.errors.map((e) => e.source).sort()).toEqual(["broken", "hang", "rest"]);
    expect(merged.list.map((h) => h.name)).toEqual(["夜曲"]);
    const done = seen.at(-1)!.event;
    expect(done.event === "done" && done.data.errors).toEqual(merged.errors);
  });

  it("ends with done and 搜索失败 when every source asked failed; the merged answer is 502", async () => {
    const run = fanOut([provider("local", 0, new Error("db")), provider("a", 0, new Error("down"))], query);
    const seen = record(run);
    await expect(run.result).rejects.toMatchObject({ status: 502, message: "搜索失败" });
    expect(seen.at(-1)!.event).toMatchObject({ event: "done", data: { error: "搜索失败" } });
  });

  it("never sends again a hit already sent: the same work from a later site is left out of its list", async () => {
    const run = fanOut(
      [provider("local", 0, [hit("local", "夜曲", "周杰伦")]), provider("a", 5, [hit("a", "夜曲", "周杰伦"), hit("a", "夜曲一生")]), provider("b", 10, [hit("b", "夜曲一生"), hit("b", "夜曲(慢摇)")])],
      query,
    );
    const seen = record(run);
    await run.result;
    const lists = seen.flatMap((s) => (s.event.event === "source" ? [s.event.data.list.map((h) => h.id)] : []));
    expect(lists).toEqual([["local:夜曲"], ["a:夜曲一生"], ["b:夜曲(慢摇)"]]);
  });

  it("adds a later site's copy of a shown hit as a place of that hit (ADR 0052), fastest first, and frames it", async () => {
    const startCost = startCosts([
      { code: "a", state: "closed", p50Ms: 900 },
      { code: "b", state: "closed", p50Ms: 100 },
    ]);
    const run = fanOut(
      [provider("local", 0, [hit("local", "夜曲一生")]), provider("a", 5, [hit("a", "夜曲", "周杰伦"), hit("a", "夜曲一生")]), provider("b", 30, [hit("b", "夜曲", "周杰伦")])],
      query,
      { startCost },
    );
    const seen = record(run);
    const merged = await run.result;
    const events = seen.flatMap((s) => (s.event.event === "source" ? [s.event] : []));
    expect(events[0]!.data.places).toBeUndefined();
    expect(events[1]!.data.list.map((h) => h.id)).toEqual(["a:夜曲"]);
    expect(events[1]!.data.places).toEqual([{ source: "local", id: "local:夜曲一生", places: [expect.objectContaining({ source: "local" }), expect.objectContaining({ source: "a", palyurl: "/play/夜曲一生" })] }]);
    // b's copy of a:夜曲 is no row: a place of a's row, b first since it starts faster.
    expect(events[2]!.data.list).toEqual([]);
    expect(events[2]!.data.places).toEqual([{ source: "a", id: "a:夜曲", places: [expect.objectContaining({ source: "b", id: "b:夜曲" }), expect.objectContaining({ source: "a", id: "a:夜曲" })] }]);
    const frame = JSON.parse(frameOf(events[2]!).split("\n")[1]!.slice(6));
    expect(frame.places[0].places.map((p: { source: string }) => p.source)).toEqual(["b", "a"]);
    // The merged answer: the same two hits, each the copy of its fastest place.
    expect(merged.list.map((h) => [h.id, h.places?.map((p) => p.source)])).toEqual([
      ["b:夜曲", ["b", "a"]],
      ["local:夜曲一生", ["local", "a"]],
    ]);
  });

  it("replays what has arrived to a late listener, then the rest; a finished run replays everything at once", async () => {
    const run = fanOut([provider("local", 0, [hit("local", "夜曲")]), provider("slow", 120, [hit("slow", "夜曲2")])], query);
    await sleep(40);
    const late = record(run);
    expect(late.map((s) => s.event.event)).toEqual(["source"]);
    await run.result;
    expect(late.map((s) => s.event.event)).toEqual(["source", "source", "done"]);
    const after = record(run);
    expect(after.map((s) => s.event)).toEqual(late.map((s) => s.event));
  });

  it("a stream whose client goes away stops listening, and the run still finishes for the others", async () => {
    const run = fanOut([provider("local", 0, [hit("local", "夜曲")]), provider("slow", 100, [hit("slow", "夜曲2")])], query);
    const client = new EventEmitter();
    const gone = eventStream(run, client);
    const stays = eventStream(run, new EventEmitter());
    await sleep(20);
    expect(run.listening).toBe(2);
    client.emit("close");
    gone.destroy();
    expect(run.listening).toBe(1);
    let text = "";
    for await (const chunk of stays) text += chunk;
    expect(text.startsWith("retry: 3000\n\n")).toBe(true);
    expect(text.match(/^event: \w+$/gm)).toEqual(["event: source", "event: source", "event: done"]);
    expect(run.listening).toBe(0);
    await expect(run.result).resolves.toMatchObject({ total: 2 });
  });

  it("frames one event per data line, once per event", () => {
    const event: SearchEvent = { event: "source", data: { source: "local", name: "本站", list: [hit("local", "line\nbreak")], total: 1, capped: false } };
    const frame = frameOf(event);
    expect(frame).toMatch(/^event: source\ndata: \{.*\}\n\n$/);
    expect(frame.split("\n")).toHaveLength(4);
    expect(frameOf(event)).toBe(frame);
    expect(JSON.parse(frame.split("\n")[1]!.slice(6)).list[0].name).toBe("line\nbreak");
  });
});
