import type { CatalogueItem } from "@contracts/catalogue-item";
import { searchQuerySchema } from "@contracts/search";
import { describe, expect, it } from "vitest";
import { AppError } from "../../errors.js";
import { ProviderSkipped, type ProviderQuery, type SearchProvider } from "./provider.js";
import { searchService } from "./service.js";

const item = (source: string, id: number, channel = source): CatalogueItem => ({
  id,
  name: `${source} ${id}`,
  artist: "未知歌手",
  cover: "/img/noimage.png",
  palyurl: `/media/${id}.m4a`,
  playtype: "mp3",
  kind: "mix",
  channel,
  website: channel,
  websitelogo: "",
  category: "",
  cidurl: "",
  time: 0,
  weburl: "",
  url: `https://${channel}.example/play/${id}`,
  vipdown: "0",
  price: 0,
  view_count: 0,
  source,
});

function provider(code: string, behaviour: (q: ProviderQuery, signal: AbortSignal) => Promise<CatalogueItem[]>, opts: { timeoutMs?: number; channel?: string } = {}): SearchProvider & { calls: ProviderQuery[] } {
  const calls: ProviderQuery[] = [];
  return {
    code,
    name: code,
    timeoutMs: opts.timeoutMs ?? 1000,
    serves: (channel) => !opts.channel || channel === undefined || channel === opts.channel,
    calls,
    async search(q, signal) {
      calls.push(q);
      const list = await behaviour(q, signal);
      return { list, total: list.length * 10 };
    },
  };
}

const query = (input: Record<string, string>) => searchQuerySchema.parse(input);

describe("searchService", () => {
  it("resolves paging: page 1 of 5 by default, pageSize over limit, and normalizes the keyword", async () => {
    const p = provider("local", async () => []);
    const service = searchService([p]);
    expect(await service.search(query({ keyword: " ＺＪＬ " }))).toMatchObject({ page: 1, pageSize: 5, total: 0, errors: [] });
    await service.search(query({ keyword: "夜", limit: "7", pageSize: "9", page: "3", type: "mp4", filter: "single" }));
    expect(p.calls).toEqual([
      { keyword: "zjl", page: 1, pageSize: 5, type: "mp3", channel: undefined, kind: undefined },
      { keyword: "夜", page: 3, pageSize: 9, type: "mp4", channel: undefined, kind: "single" },
    ]);
  });

  it("asks only the providers serving the channel, in parallel, and merges in provider order", async () => {
    const local = provider("local", async (q) => [item("local", 1, q.channel ?? "local")]);
    const djuu = provider("djuu", async () => [item("djuu", 2)], { channel: "djuu" });
    const vvvdj = provider("vvvdj", async () => [item("vvvdj", 3)], { channel: "vvvdj" });
    const service = searchService([local, djuu, vvvdj]);
    const all = await service.search(query({ keyword: "夜" }));
    expect(all.list.map((i) => i.source)).toEqual(["local", "djuu", "vvvdj"]);
    expect(all.total).toBe(30);
    const only = await service.search(query({ keyword: "夜", channelid: "djuu" }));
    expect(only.list.map((i) => i.source)).toEqual(["local", "djuu"]);
    expect(vvvdj.calls).toHaveLength(1);
  });

  it("drops a hit two providers both found (same site and url)", async () => {
    const a = provider("local", async () => [item("local", 7, "djuu")]);
    const b = provider("djuu", async () => [item("djuu", 7)]);
    const result = await searchService([a, b]).search(query({ keyword: "夜" }));
    expect(result.list).toHaveLength(1);
  });

  it("reports a failing or slow provider without failing the search, and aborts the slow one", async () => {
    let aborted = false;
    const ok = provider("local", async () => [item("local", 1)]);
    const broken = provider("djuu", async () => {
      throw new Error("connect ECONNREFUSED");
    });
    const slow = provider(
      "vvvdj",
      (_q, signal) =>
        new Promise((resolve) => {
          signal.addEventListener("abort", () => (aborted = true));
          setTimeout(() => resolve([item("vvvdj", 9)]), 2_000);
        }),
      { timeoutMs: 30 },
    );
    const logged: string[] = [];
    const service = searchService([ok, broken, slow], { onProviderError: (source) => logged.push(source) });
    const started = Date.now();
    const result = await service.search(query({ keyword: "夜" }));
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(result.list.map((i) => i.source)).toEqual(["local"]);
    expect(result.errors).toEqual([
      { source: "djuu", msg: "搜索失败" },
      { source: "vvvdj", msg: "搜索超时" },
    ]);
    expect(logged).toEqual(["djuu", "vvvdj"]);
    expect(aborted).toBe(true);
  });

  it("fails with 搜索失败 only when every selected provider failed", async () => {
    const broken = provider("local", async () => {
      throw new Error("db down");
    });
    const error = await searchService([broken])
      .search(query({ keyword: "夜" }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 502, message: "搜索失败" });
  });

  it("a provider that does not serve the query (ProviderSkipped) is neither a result nor an error", async () => {
    const logged: string[] = [];
    const skipping = provider("172minx", async () => {
      throw new ProviderSkipped("172minx");
    });
    const local = provider("local", async () => [item("local", 1)]);
    const result = await searchService([local, skipping], { onProviderError: (source) => logged.push(source) }).search(query({ keyword: "夜" }));
    expect(result).toMatchObject({ errors: [], total: 10 });
    expect(result.list.map((i) => i.id)).toEqual([1]);
    expect(logged).toEqual([]);
    // Skipped alone: an empty answer, not 搜索失败.
    expect(await searchService([skipping]).search(query({ keyword: "夜" }))).toMatchObject({ list: [], total: 0, errors: [] });
    // The providers that were asked all failed: 搜索失败, whatever was skipped.
    const broken = provider("local", async () => {
      throw new Error("db down");
    });
    const error = await searchService([broken, skipping])
      .search(query({ keyword: "夜" }))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, message: "搜索失败", data: { errors: [{ source: "local", msg: "搜索失败" }] } });
  });

  it("refuses a keyword that normalizes to nothing", async () => {
    const error = await searchService([])
      .search({ ...query({ keyword: "x" }), keyword: " \u3000 " })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, message: "请输入搜索关键词" });
  });
});
