import type { CatalogueItem } from "@contracts/catalogue-item";
import { describe, expect, it } from "vitest";
import { closeness, mergeHits } from "./merge.js";

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

  it("keeps one hit per artist and title across sources, the first ranked, when durations are close or unknown", () => {
    const local = [hit("local", 1, "夜曲(DJ阿福 Rmx)", "周杰伦")];
    const djuu = [hit("djuu", "a", "夜曲（DJ阿福 Rmx）", "周杰伦 "), hit("djuu", "b", "夜曲(DJ阿福 Rmx)", "周杰伦")];
    const vvvdj = [hit("vvvdj", "x", "夜曲(DJ阿福 Rmx)", "周杰伦")];
    const merged = mergeHits("夜曲", [
      { list: local, durations: [252] },
      { list: djuu, durations: [255, 3600] }, // 3 s apart: the same; an hour: another recording
      { list: vvvdj }, // unknown duration: the same
    ]);
    expect(ids(merged)).toEqual(["local:1", "djuu:b"]);
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
