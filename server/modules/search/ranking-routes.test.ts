/**
 * Ranking across sources through the real app, on both engines (ADR 0052): one mix found by the
 * catalogue and two sites is one hit with three places, ours first, then the sites by their
 * measured speed; the stream adds the sites' places to the row it showed; kept answers serve both.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CatalogueItem } from "@contracts/catalogue-item";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { fakeSource } from "./fake-source.fixtures.js";

/** A site answering after `latencyMs` with these titles, all by 阿远 (so the sites share works). */
const site = (code: string, name: string, latencyMs: number, titles: string[]) => fakeSource(code, name, latencyMs, titles, { artist: "DJ阿远" });

type Hit = CatalogueItem;
interface Parsed {
  event: string;
  data: { source?: string; list?: Hit[]; places?: { source: string; id: string | number; places: NonNullable<Hit["places"]> }[] };
}
const parseEvents = (body: string): Parsed[] =>
  body
    .split("\n\n")
    .filter((frame) => frame.includes("event: "))
    .map((frame) => {
      const lines = frame.split("\n");
      return { event: lines.find((l) => l.startsWith("event: "))!.slice(7), data: JSON.parse(lines.find((l) => l.startsWith("data: "))!.slice(6)) };
    });

describe.each(testEngines())("search ranking across sources on %s", (engine) => {
  let t: TestApp;
  // Listed first but slower: the order of places is by speed, not by configuration.
  const slow = site("slowdj", "慢站", 250, ["海浪串烧", "海浪 慢站独家"]);
  const fast = site("fastdj", "快站", 10, ["海浪串烧", "海浪"]);
  const merged = (keyword: string) => t.app.inject({ url: "/api/forntend/indexsearch", query: { keyword, pageSize: "10" } });
  const stream = (keyword: string) => t.app.inject({ url: "/api/forntend/indexsearch/stream", query: { keyword, pageSize: "10" } });

  beforeAll(async () => {
    t = await createTestApp(engine, { sourceAdapters: [slow.entry, fast.entry] });
    const [cat] = await t.app.services.writes.createCategories([{ name: "排序串烧", diyname: "rankcat" }]);
    await t.app.services.writes.createItems([
      { kind: "mix" as const, title: "海浪串烧", artist: "DJ阿远", playUrl: "/media/demo/wave.m4a", playtype: "mp3" as const, sourceSite: "local", categoryId: cat.id },
    ]);
    // One search first: both sites measured (health p50), as on a running site.
    expect((await merged("测速")).statusCode).toBe(200);
  });

  afterAll(() => t?.close());

  it("answers one hit per work with every place, ours first, then the faster site; exact titles first", async () => {
    const res = await merged("海浪");
    expect(res.statusCode).toBe(200);
    const list = res.json().data.list as Hit[];
    expect(list.map((h) => `${h.source}:${h.name}`)).toEqual(["fastdj:海浪", "local:海浪串烧", "slowdj:海浪 慢站独家"]);
    const wave = list[1]!;
    expect(wave.places!.map((p) => p.source)).toEqual(["local", "fastdj", "slowdj"]);
    // The hit is its first place's copy: old clients play ours.
    expect(wave).toMatchObject({ palyurl: wave.places![0]!.palyurl, url: wave.places![0]!.url, id: wave.places![0]!.id });
    expect(wave.places![1]).toMatchObject({ source: "fastdj", website: "快站", url: "https://fastdj.example/play/0" });
    expect(list[0]!.places).toBeUndefined();
  });

  it("streams the sites' copies as places of the row shown, then serves the same from the kept answer", async () => {
    const keyword = "海浪串烧";
    const before = slow.calls.length;
    const first = await stream(keyword);
    const events = parseEvents(first.body).filter((e) => e.event === "source");
    expect(events.map((e) => e.data.source)).toEqual(["local", "fastdj", "slowdj"]);
    const row = events[0]!.data.list![0]!;
    // The site's other hit is a row of its own; its copy of ours is not.
    expect(events[1]!.data.list!.map((h) => h.name)).toEqual(["海浪"]);
    expect(events[1]!.data.places).toEqual([{ source: "local", id: row.id, places: [expect.objectContaining({ source: "local" }), expect.objectContaining({ source: "fastdj" })] }]);
    expect(events[2]!.data.places![0]!.places.map((p) => p.source)).toEqual(["local", "fastdj", "slowdj"]);
    const again = await stream(keyword);
    expect(again.body).toBe(first.body);
    const answer = await merged(keyword);
    expect((answer.json().data.list as Hit[]).map((h) => [h.name, h.places?.map((p) => p.source)])).toEqual([
      ["海浪串烧", ["local", "fastdj", "slowdj"]],
      // Neither is close to the keyword: the sites' configured order (慢站 first) decides.
      ["海浪 慢站独家", undefined],
      ["海浪", undefined],
    ]);
    expect(slow.calls.length).toBe(before + 1);
  });
});
