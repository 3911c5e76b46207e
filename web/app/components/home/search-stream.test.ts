import type { CatalogueItem } from "@contracts/catalogue-item";
import { describe, expect, it } from "vitest";
import { stateText, type HomeSearch } from "./search-api";
import { applyBroken, applyDone, applySource } from "./search-stream";

const query: HomeSearch = { keyword: "夜曲", channel: "", type: "mp3", page: 1 };
const hit = (id: string) => ({ id, name: id, source: id.split(":")[0] }) as unknown as CatalogueItem;
const sources = [
  { source: "local", name: "本站" },
  { source: "djuu", name: "DJUU" },
  { source: "vvvdj", name: "清风DJ" },
  { source: "172minx", name: "172Mix" },
];

describe("the streamed search on the page", () => {
  it("keeps what is shown in place and appends each source's hits after it, with each source's state", () => {
    let shown = applySource(null, query, { source: "local", name: "本站", list: [hit("local:1"), hit("local:2")], total: 2, capped: false, sources });
    expect(shown.sources!.map(stateText)).toEqual(["2 条结果", "搜索中", "搜索中", "搜索中"]);
    const before = shown.data.list;
    shown = applySource(shown, query, { source: "vvvdj", name: "清风DJ", list: [hit("vvvdj:9")], total: 40, capped: true });
    shown = applySource(shown, query, { source: "172minx", name: "172Mix", list: [], total: 0, capped: false, skipped: true });
    expect(shown.data.list.slice(0, 2)).toEqual(before);
    expect(shown.data.list.map((h) => h.id)).toEqual(["local:1", "local:2", "vvvdj:9"]);
    expect(shown.data).toMatchObject({ total: 42, capped: true, errors: [] });
    expect(shown.sources!.map(stateText)).toEqual(["2 条结果", "搜索中", "40+ 条结果", "已跳过"]);
    expect(shown.done).toBe(false);
    shown = applySource(shown, query, { source: "djuu", name: "DJUU", list: [], total: 0, capped: false, error: "搜索超时" });
    expect(shown.sources!.map(stateText)).toEqual(["2 条结果", "失败", "40+ 条结果", "已跳过"]);
    expect(shown.data.errors).toEqual([{ source: "djuu", msg: "搜索超时" }]);
    const done = applyDone(shown, { total: 42, capped: true, page: 1, pageSize: 5, errors: [{ source: "djuu", msg: "搜索超时" }] })!;
    expect(done.done).toBe(true);
    expect(done.data.list).toBe(shown.data.list);
  });

  it("sets a later source's places on the row it found again, moving nothing (ADR 0052)", () => {
    let shown = applySource(null, query, { source: "local", name: "本站", list: [hit("local:1"), hit("local:2")], total: 2, capped: false, sources });
    const place = (source: string, id: string) => ({ source, id, website: source, websitelogo: "", palyurl: `/play/${id}`, url: `/u/${id}` });
    const places = [place("local", "local:2"), place("djuu", "djuu:7")];
    shown = applySource(shown, query, { source: "djuu", name: "DJUU", list: [hit("djuu:8")], total: 2, capped: false, places: [{ source: "local", id: "local:2", places }] });
    expect(shown.data.list.map((h) => h.id)).toEqual(["local:1", "local:2", "djuu:8"]);
    expect(shown.data.list[1]!.places).toEqual(places);
    expect(shown.data.list[0]!.places).toBeUndefined();
    // An update for a row not on this page (another page, a new search) changes nothing.
    const again = applySource(shown, query, { source: "vvvdj", name: "清风DJ", list: [], total: 0, capped: false, places: [{ source: "local", id: "local:99", places }] });
    expect(again.data.list).toEqual(shown.data.list);
  });

  it("a new search's first event starts the page anew", () => {
    const old = applySource(null, query, { source: "local", name: "本站", list: [hit("local:1")], total: 1, capped: false, sources });
    const next = { ...query, keyword: "晴天" };
    const shown = applySource(old, next, { source: "local", name: "本站", list: [], total: 0, capped: false, sources: sources.slice(0, 1) });
    expect(shown).toMatchObject({ query: next, data: { list: [], total: 0 }, done: false });
  });

  it("a broken connection fails the sources still out and keeps what arrived", () => {
    const shown = applyBroken(applySource(null, query, { source: "local", name: "本站", list: [hit("local:1")], total: 1, capped: false, sources: sources.slice(0, 2) }))!;
    expect(shown.done).toBe(true);
    expect(shown.sources!.map(stateText)).toEqual(["1 条结果", "失败"]);
    expect(shown.data.errors).toEqual([{ source: "djuu", msg: "搜索失败" }]);
    expect(shown.data.list).toHaveLength(1);
  });
});
