import type { CatalogueItem } from "@contracts/catalogue-item";
import { describe, expect, it } from "vitest";
import { appendingMerge, closeness, mergeHits } from "./merge.js";
import { startCosts } from "./places.js";

const hit = (source: string, id: number | string, name: string, artist = ""): CatalogueItem => ({
  id,
  name,
  artist,
  cover: "",
  palyurl: "",
  playtype: "mp3",
  kind: "single",
  channel: source,
  website: source,
  websitelogo: "",
  category: "",
  cidurl: "",
  time: 0,
  weburl: "",
  url: `https://${source}.example/${id}`,
  vipdown: "0",
  price: 0,
  view_count: 0,
  source,
});
const ids = (items: CatalogueItem[]) => items.map((i) => `${i.source}:${i.id}`);

describe("closeness to the keyword", () => {
  it("scores exact title, then starts with, then contains, then all characters, then nothing", () => {
    expect(closeness("夜曲", hit("a", 1, "夜曲"))).toBe(4);
    expect(closeness("周杰伦 夜曲", hit("a", 1, "夜曲", "周杰伦"))).toBe(4);
    expect(closeness("夜曲", hit("a", 1, "夜曲(DJ Rmx)"))).toBe(3);
    expect(closeness("夜曲", hit("a", 1, "周杰伦-夜曲串烧"))).toBe(2);
    expect(closeness("曲夜", hit("a", 1, "夜店舞曲"))).toBe(1);
    expect(closeness("yequ", hit("a", 1, "夜曲"))).toBe(0);
  });

  it("ignores case, width, spaces and punctuation", () => {
    expect(closeness("ＦＡＤＥＤ", hit("a", 1, "Faded"))).toBe(4);
    expect(closeness("alan walker faded", hit("a", 1, "Faded", "Alan Walker"))).toBe(4);
    expect(closeness("夜曲dj", hit("a", 1, "夜曲 (DJ版)"))).toBe(3);
  });
});

describe("merging providers' hits", () => {
  it("ranks by closeness; equals interleave by position, local first, keeping each provider's order", () => {
    const local = [hit("local", 1, "yequ 拼音命中"), hit("local", 2, "夜曲串烧"), hit("local", 3, "另一首 拼音命中")];
    const djuu = [hit("djuu", "a", "别的"), hit("djuu", "b", "夜曲")];
    expect(ids(mergeHits("夜曲", [{ list: local }, { list: djuu }]))).toEqual(["djuu:b", "local:2", "local:1", "djuu:a", "local:3"]);
  });

  it("keeps a ranked list's own order (the local catalogue's pinyin and popularity), merging the others into it", () => {
    const local = [hit("local", 1, "夜曲一生"), hit("local", 2, "yequ 拼音命中"), hit("local", 3, "夜曲")];
    const djuu = [hit("djuu", "a", "别的"), hit("djuu", "b", "夜曲串烧")];
    expect(ids(mergeHits("夜曲", [{ list: local, ranked: true }, { list: djuu }]))).toEqual(["local:1", "djuu:b", "local:2", "local:3", "djuu:a"]);
  });

  it("keeps one hit per artist and title across sources, where the first ranks, when durations are close or unknown", () => {
    const local = [hit("local", 1, "夜曲(DJ阿福 Rmx)", "周杰伦")];
    const djuu = [hit("djuu", "a", "夜曲（DJ阿福 Rmx）", "周杰伦 "), hit("djuu", "b", "夜曲(DJ阿福 Rmx)", "周杰伦")];
    const vvvdj = [hit("vvvdj", "x", "夜曲(DJ阿福 Rmx)", "周杰伦")];
    const merged = mergeHits("夜曲", [
      { list: local, durations: [252] },
      { list: djuu, durations: [255, 3600] }, // 3 s apart: the same; an hour: another recording
      { list: vvvdj }, // unknown duration: the same
    ]);
    expect(ids(merged)).toEqual(["local:1", "djuu:b"]);
    expect(merged[0]!.places?.map((p) => `${p.source}:${p.id}`)).toEqual(["local:1", "djuu:a", "vvvdj:x"]);
    expect(merged[1]!.places).toBeUndefined();
  });

  it("durations further apart than 5 s are different recordings", () => {
    const merged = mergeHits("夜曲", [
      { list: [hit("local", 1, "夜曲", "周杰伦")], durations: [200] },
      { list: [hit("djuu", "a", "夜曲", "周杰伦")], durations: [206] },
    ]);
    expect(ids(merged)).toEqual(["local:1", "djuu:a"]);
  });

  it("keeps one provider's own equal titles, and drops a second hit of the same address", () => {
    const local = [hit("local", 1, "夜曲"), hit("local", 2, "夜曲")];
    const again = { ...hit("djuu", "z", "夜曲 other"), channel: "local", url: local[0]!.url };
    expect(ids(mergeHits("夜曲", [{ list: local }, { list: [again] }]))).toEqual(["local:1", "local:2"]);
  });
});

const places = (item: CatalogueItem) => item.places?.map((p) => p.source);
const mix = (source: string, id: string, views = 0) => ({ ...hit(source, id, "夜曲串烧", "DJ阿远"), palyurl: `/play/${source}/${id}`, view_count: views });

describe("one work found in several places (ADR 0052)", () => {
  const speeds = startCosts([
    { code: "slow", state: "closed", p50Ms: 2_000 },
    { code: "fast", state: "closed", p50Ms: 150 },
    { code: "down", state: "open", p50Ms: 90 },
  ]);

  it("is one hit with every place, the fastest to start first, and the hit is that place's copy", () => {
    const merged = mergeHits("夜曲", [{ list: [mix("slow", "s")] }, { list: [mix("fast", "f")] }, { list: [mix("other", "o")] }], speeds);
    expect(merged).toHaveLength(1);
    // Measured sources by median latency; one never measured after them.
    expect(places(merged[0]!)).toEqual(["fast", "slow", "other"]);
    expect(merged[0]).toMatchObject({ source: "fast", id: "f", palyurl: "/play/fast/f", channel: "fast", url: "https://fast.example/f" });
    expect(merged[0]!.places![1]).toEqual({ source: "slow", id: "s", website: "slow", websitelogo: "", palyurl: "/play/slow/s", url: "https://slow.example/s" });
  });

  it("puts our catalogue first and a source with an open breaker last, however fast it was", () => {
    const merged = mergeHits("夜曲", [{ list: [mix("local", "1")], ranked: true }, { list: [mix("down", "d")] }, { list: [mix("slow", "s")] }], speeds);
    expect(places(merged[0]!)).toEqual(["local", "slow", "down"]);
    expect(merged[0]!.source).toBe("local");
  });

  it("keeps provider order between places of equal speed, and a half-open breaker still last", () => {
    const costs = startCosts([
      { code: "a", state: "half-open", p50Ms: 10 },
      { code: "b", state: "closed", p50Ms: 300 },
      { code: "c", state: "closed", p50Ms: 300 },
    ]);
    expect(places(mergeHits("夜曲", [{ list: [mix("c", "1")] }, { list: [mix("a", "1")] }, { list: [mix("b", "1")] }], costs)[0]!)).toEqual(["c", "b", "a"]);
  });

  it("ranks the work where its best copy ranks, showing its fastest copy", () => {
    const first = [hit("fast", "x", "夜曲"), hit("fast", "z", "夜曲一号"), mix("fast", "f")];
    const second = [mix("slow", "s"), hit("slow", "y", "夜曲一生")];
    const merged = mergeHits("夜曲", [{ list: first }, { list: second }], speeds);
    expect(ids(merged)).toEqual(["fast:x", "fast:f", "fast:z", "slow:y"]);
    expect(places(merged[1]!)).toEqual(["fast", "slow"]);
  });

  it("ranks a work with a catalogue copy where the catalogue ranks it", () => {
    const local = [hit("local", 1, "yequ 拼音"), { ...hit("local", 2, "夜曲", "DJ阿远"), view_count: 5 }];
    const fast = [hit("fast", "a", "夜曲", "DJ阿远"), hit("fast", "b", "夜曲串烧")];
    const merged = mergeHits("夜曲", [{ list: local, ranked: true }, { list: fast }], speeds);
    expect(ids(merged)).toEqual(["fast:b", "local:1", "local:2"]);
    expect(places(merged[2]!)).toEqual(["local", "fast"]);
  });

  it("leaves one source's own duplicates apart: a second copy from the same source is a hit of its own", () => {
    const merged = mergeHits("夜曲", [{ list: [mix("fast", "f1"), mix("fast", "f2")] }, { list: [mix("slow", "s")] }], speeds);
    expect(ids(merged)).toEqual(["fast:f1", "fast:f2"]);
    expect(places(merged[0]!)).toEqual(["fast", "slow"]);
    expect(merged[1]!.places).toBeUndefined();
  });
});

describe("exact matches first, then popularity among equals", () => {
  it("puts exact title and artist matches before the closest site's partial ones", () => {
    const djuu = [hit("djuu", "a", "夜曲串烧"), hit("djuu", "b", "夜曲(DJ版)")];
    const vvvdj = [hit("vvvdj", "x", "夜曲", "周杰伦")];
    expect(ids(mergeHits("周杰伦 夜曲", [{ list: djuu }, { list: vvvdj }]))).toEqual(["vvvdj:x", "djuu:a", "djuu:b"]);
  });

  it("orders a site's equally close hits by its play count, the unknown (0) after in the site's order", () => {
    const djuu = [{ ...hit("djuu", "a", "夜曲一"), view_count: 0 }, { ...hit("djuu", "b", "夜曲二"), view_count: 50 }, { ...hit("djuu", "c", "夜曲三"), view_count: 9_000 }, { ...hit("djuu", "d", "夜曲四"), view_count: 0 }];
    expect(ids(mergeHits("夜曲", [{ list: djuu }]))).toEqual(["djuu:c", "djuu:b", "djuu:a", "djuu:d"]);
  });

  it("compares sites' counts as ranks within each site: a big site does not bury a small one", () => {
    const big = [{ ...hit("big", "a", "夜曲一"), view_count: 100_000 }, { ...hit("big", "b", "夜曲二"), view_count: 900_000 }];
    const small = [{ ...hit("small", "x", "夜曲三"), view_count: 40 }, { ...hit("small", "y", "夜曲四"), view_count: 7 }];
    expect(ids(mergeHits("夜曲", [{ list: big }, { list: small }]))).toEqual(["big:b", "small:x", "big:a", "small:y"]);
  });

  it("never reorders the local catalogue's list, whatever its counts, and closeness still beats popularity", () => {
    const local = [{ ...hit("local", 1, "yequ 拼音"), view_count: 1 }, { ...hit("local", 2, "夜曲"), view_count: 5 }, { ...hit("local", 3, "夜曲二"), view_count: 99_999 }];
    const djuu = [{ ...hit("djuu", "a", "夜曲串烧"), view_count: 1_000_000 }, { ...hit("djuu", "b", "夜曲"), view_count: 1 }];
    const merged = ids(mergeHits("夜曲", [{ list: local, ranked: true }, { list: djuu }]));
    expect(merged.filter((id) => id.startsWith("local"))).toEqual(["local:1", "local:2", "local:3"]);
    expect(merged.indexOf("djuu:b")).toBeLessThan(merged.indexOf("djuu:a"));
  });
});

describe("the stream's places", () => {
  it("adds a later source's copy as a place of the shown hit instead of a row", () => {
    const costs = startCosts([{ code: "slow", state: "closed", p50Ms: 2_000 }, { code: "fast", state: "closed", p50Ms: 100 }]);
    const append = appendingMerge("夜曲", costs);
    expect(append({ list: [mix("local", "1")], ranked: true })).toEqual({ list: [mix("local", "1")], places: [] });
    const slow = append({ list: [mix("slow", "s"), hit("slow", "t", "夜曲一生")] });
    expect(ids(slow.list)).toEqual(["slow:t"]);
    expect(slow.places).toEqual([{ source: "local", id: "1", places: [expect.objectContaining({ source: "local" }), expect.objectContaining({ source: "slow", palyurl: "/play/slow/s" })] }]);
    const fast = append({ list: [mix("fast", "f")] });
    expect(fast.list).toEqual([]);
    expect(fast.places.map((u) => [u.id, u.places.map((p) => p.source)])).toEqual([["1", ["local", "fast", "slow"]]]);
  });
});
